/* The f32 GEMM frame: argument checks, kernel selection, the split of C
 * between threads, and BLIS-style cache blocking around the micro-kernels:
 *
 *   for jc in N step nc:          B block kc x nc packed, lives in L3
 *     for pc in K step kc:
 *       for ic in M step mc:      A block mc x kc packed, lives in L2
 *         for jr in nc step nr:   B micro-panel kc x nr stays in L1
 *           for ir in mc step mr: micro-kernel on one mr x nr tile of C
 *
 * Threads own disjoint rectangles of C and pack privately, so no barrier is
 * needed and a team of the caller's threads can share one call.
 *
 * A thread with few rows of C (small M: an inner product's batch, a GEMV)
 * reuses each B value too few times to pay for packing it, so the kernel
 * reads full-width panels of an untransposed B in place (same arithmetic,
 * same results); only the narrower last panel is packed. Prepacked B
 * (tsr_gemm_f32_prepacked_nr) is read in place for every shape.
 *
 * Likewise a narrow B block (a convolution's few output channels) reuses
 * each A value too few times to pay for packing it: the full mr-row tiles
 * of an untransposed A read it in place, and the tiles are walked row by
 * row, so the rows of A stay in L1 across the block's few B panels and
 * each row of C is written whole before the next.
 *
 * A thread whose rows fit FETCH_B_MAX_MBLOCKS A blocks over a B packed
 * here (a channels-first 1x1 convolution with few output channels) walks
 * B in such narrow blocks, and their tiles fetch the next block's B while
 * one runs, a chunk each spread along its K loop: packing it no longer
 * waits on memory (ResNet-50 nchw mb32, 2 threads, of oneDNN: AVX-512
 * res2b_branch2a 0.65 -> 0.87, res3b_branch2a 0.75 -> 0.86,
 * res4b_branch2a 0.83 -> 0.92; AVX2 0.74 -> 0.94, 0.86 -> 0.92, 0.89 ->
 * 0.93). Where the tiles take two panels at once (AVX-512), the first
 * row of tiles packs them from B as stored while it computes, so the
 * copy's loads overlap the FMAs. */

#include "cpu/gemm/gemm_f32.h"
#include "common/isa.h"
#include "common/utils.h"
#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/gemm_partition.h"

/* The 12x32 taps kernel's time per tap for tiles of 1 .. 12 rows, one
 * core, L2-resident B panels of 9 x 512 values (a 7x7 3x3 layer): from 4
 * rows its 8 accumulators and more hide the FMA latency, and from 8 the
 * loads of B per row stop showing. */
static const uint16_t taps_tile_cost_12x32[] = {
        0, 390, 400, 462, 436, 540, 612, 707, 800, 900, 1000, 1100, 1200};

/* Blocking for 32 KiB L1d and 512 KiB L2 per core (measured best on
 * Zen 3): the kc x nr micro-panel of B reused across a whole A block stays
 * in L1, the mc x kc block of A (144 KiB) in L2, the kc x nc block of B in
 * the shared L3. The AVX-512 kernel reads A through the AVX2 packing (its
 * CPUs have AVX2). */
static const tsr_gemm_f32_kernel_t kernels[] = {
        /* Its single rows go to the AVX2 row kernel, the same arithmetic
         * per element (resnet_50:fc1000_mb1, 2 threads: 27 -> 44 GFLOPS).
         * Blocks up to 512 columns are narrow: wide tiles reading A in
         * place beat packed A there (2 threads: matmul 1024^3 +5%, BERT
         * ffn_out_384 +8%; 8 panels before). */
        {"avx512_core:6x32", tsr_cpu_isa_avx512_core, 6, 32, 96, 384, 4096,
         tsr_gemm_f32_ukr_6x32_avx512, tsr_gemm_f32_pack_avx512,
         tsr_gemm_f32_row_avx2, tsr_gemm_f32_ukr_12x32_taps_avx512, 12,
         taps_tile_cost_12x32, tsr_gemm_f32_ukr_6x64_avx512, 16,
         tsr_gemm_f32_ukr_6x64_taps_avx512},
        {"avx2:6x16", tsr_cpu_isa_avx2, 6, 16, 96, 384, 4080,
         tsr_gemm_f32_ukr_6x16_avx2, tsr_gemm_f32_pack_avx2,
         tsr_gemm_f32_row_avx2, tsr_gemm_f32_ukr_6x16_taps_avx2, 6, NULL, NULL,
         8, NULL},
        {"generic:4x8", tsr_cpu_isa_generic, TSR_GEMM_F32_REF_MR,
         TSR_GEMM_F32_REF_NR, 128, 256, 4096, tsr_gemm_f32_ukr_ref,
         tsr_gemm_f32_pack, NULL, NULL, 0, NULL, NULL, 8, NULL},
};

const tsr_gemm_f32_kernel_t *tsr_gemm_f32_select_kernel(void) {
    for (size_t i = 0; i + 1 < TSR_ARRAY_SIZE(kernels); ++i)
        if (tsr_mayiuse(kernels[i].isa))
            return &kernels[i];
    return &kernels[TSR_ARRAY_SIZE(kernels) - 1];
}

int tsr_gemm_f32_prepacked_nr(void) {
    return tsr_gemm_f32_select_kernel()->nr;
}

int tsr_gemm_f32_taps_supported(int64_t ntaps, int64_t k_tap) {
    return tsr_gemm_f32_select_kernel()->ukr_taps && ntaps >= 1 &&
           ntaps <= TSR_GEMM_MAX_TAPS && k_tap >= 1;
}

int tsr_gemm_f32_taps_row_tile(void) {
    return tsr_gemm_f32_select_kernel()->taps_mr;
}

/* 1 when the kernel's taps tiles are taller than its plain ones. */
static int taps_taller(const tsr_gemm_f32_kernel_t *kern) {
    return kern->ukr_taps && kern->taps_mr > kern->mr;
}

int tsr_gemm_f32_taps_taller(void) {
    return taps_taller(tsr_gemm_f32_select_kernel());
}

int tsr_gemm_f32_wide_tile_cols(void) {
    const tsr_gemm_f32_kernel_t *kern = tsr_gemm_f32_select_kernel();
    return kern->ukr_wide ? 2 * kern->nr : kern->nr;
}

const char *tsr_gemm_f32_kernel_name(void) {
    return tsr_gemm_f32_select_kernel()->name;
}

/* The rows a taps tile cut to fewer than taps_mr holds at least (but a
 * block of fewer rows): shorter ones cost more per row than their taps
 * save (taps_tile_cost). It bounds the tiles of a block. */
#define TAPS_TILE_MIN_ROWS 4
/* The rows of a taps_rect block at most (every kernel's mc is below). */
#define TAPS_BLOCK_MAX_ROWS 128

/* The rows of one taps_rect block at most: the kernel's mc, within
 * TAPS_BLOCK_MAX_ROWS in whole taps tiles. */
static int64_t taps_block_rows(const tsr_gemm_f32_kernel_t *kern) {
    return TSR_MIN(kern->mc,
                   TAPS_BLOCK_MAX_ROWS / kern->taps_mr * kern->taps_mr);
}

/* The row tiles of a block of `rows` rows at most: of taps_mr rows, or
 * cut to at least TAPS_TILE_MIN_ROWS. */
static int64_t taps_tiles_max(int taps_mr, int64_t rows) {
    return TSR_MAX(tsr_div_up(rows, taps_mr), rows / TAPS_TILE_MIN_ROWS);
}

/* Floats of one packing buffer, padded so the next starts 64-byte aligned. */
static int64_t padded_floats(int64_t n) {
    return tsr_rnd_up(n, 16);
}

static size_t thread_scratch_bytes(const tsr_gemm_f32_kernel_t *kern, int64_t M,
                                   int64_t N, int64_t K) {
    if (M <= 0 || N <= 0 || K <= 0)
        return 0;
    const int64_t kc = TSR_MIN(kern->kc, K);
    const int64_t mc = TSR_MIN(kern->mc, tsr_rnd_up(M, kern->mr));
    const int64_t a = mc * kc;
    const int64_t b = TSR_MIN(kern->nc, tsr_rnd_up(N, kern->nr)) * kc;
    const size_t packed =
            (size_t)(padded_floats(a) + padded_floats(b)) * sizeof(float);
    /* Or the taps table of A by taps (at least one value per tap). */
    const size_t taps = kern->ukr_taps
                                ? (size_t)tsr_gemm_taps_table(
                                          kern->taps_mr,
                                          taps_tiles_max(kern->taps_mr, mc), K)
                                          .bytes
                                : 0;
    return TSR_MAX(packed, taps);
}

size_t tsr_gemm_f32_scratch_size(int64_t M, int64_t N, int64_t K, int nthr) {
    /* The largest need of any kernel: the ISA cap may change between the
     * booking of a scratchpad and its use. */
    size_t per_thread = 0;
    for (size_t i = 0; i < TSR_ARRAY_SIZE(kernels); ++i) {
        const size_t s = thread_scratch_bytes(&kernels[i], M, N, K);
        per_thread = TSR_MAX(per_thread, s);
    }
    return per_thread * (size_t)TSR_MAX(nthr, 1);
}

/* Prepacked B (weights) under fewer rows than an A block is narrow up to
 * 8 panels only: past them, rows that reuse the panels little, streamed
 * from memory, run faster in the taller tiles, a panel at a time
 * (resnet_50:fc1000_mb32, 2 threads: 16 panels 8% slower). */
#define FEW_ROWS_PREPACKED_NARROW_MAX_NTILES 8

/* Rows of C per thread up to which B is read in place (see top). */
#define DIRECT_B_MAX_MTILES 8

/* One A block times one B block: what its tiles share. */
typedef struct {
    const tsr_gemm_f32_args_t *args;
    const tsr_gemm_f32_kernel_t *kern;
    int64_t pc, jc, ic; /* block origin: K, N and M */
    int64_t kcur, mcur, ncur;
    float beta;
    int last_k;
    const float *a_block; /* A at (ic, pc), for rows read in place */
    const float *pack_a;
    float *pack_b;    /* written by the tiles that pack on their way */
    int64_t b_sp;     /* B's stride along K */
    int64_t m_direct; /* rows [0, m_direct) read A in place */
    int64_t n_direct; /* columns [0, n_direct) read B in place */
    int64_t a_rows;   /* rows of A from a_block this thread reads */
} block_t;

/* The block's K range of the prepacked or packed B panel of column jr
 * (past the in-place columns, a multiple of nr), and in *next the floats
 * from one panel to the next. */
static const float *packed_panel(const block_t *b, int64_t jr, int64_t *next) {
    const tsr_gemm_f32_args_t *args = b->args;
    const int nr = b->kern->nr;
    if (args->b_prepacked) {
        *next = args->K * nr;
        return args->B + (b->jc + jr) * args->K + b->pc * nr;
    }
    *next = b->kcur * nr;
    return b->pack_b + (jr - b->n_direct) * b->kcur;
}

/* The bias of the tile at rows ir, columns jr: set at the last K block's
 * store only. */
typedef struct {
    const float *row, *col;
} tile_bias_t;

static tile_bias_t tile_bias(const block_t *b, int64_t ir, int64_t jr) {
    const tsr_gemm_f32_args_t *args = b->args;
    tile_bias_t t = {NULL, NULL};
    if (b->last_k && args->bias_kind == tsr_gemm_bias_per_row)
        t.row = args->bias + b->ic + ir;
    if (b->last_k && args->bias_kind == tsr_gemm_bias_per_col)
        t.col = args->bias + b->jc + jr;
    return t;
}

/* The epilogue on the m x n tile at rows ir, columns jr (C at c), after
 * the last K block. */
static void tile_epilogue(const block_t *b, float *c, int64_t ir, int64_t jr,
                          int64_t m, int64_t n) {
    const tsr_gemm_f32_args_t *args = b->args;
    if (b->last_k && args->epilogue)
        args->epilogue(args->epilogue_ctx, c, args->ldc, b->ic + ir, b->jc + jr,
                       m, n);
}

/* Rows of C per thread, in A blocks, up to which B goes in narrow blocks
 * whose tiles fetch the next one (see top): past them packing B is a
 * small share and the wide blocks' packed A are faster (ResNet-50 nchw
 * mb32, 2 threads: res4b_branch2a's 256 rows 10% faster in narrow
 * blocks, res3a_branch2c's 512 rows 3% slower). */
#define FETCH_B_MAX_MBLOCKS 3

/* The source of the B block packed next, in chunks of mr lines of `width`
 * floats (stride `stride`) that the tiles fetch while they run, in order,
 * one each. */
typedef struct {
    const float *src;
    int64_t lines, cols, width, stride;
    int64_t chunks_per_row; /* chunks side by side in a group of mr lines */
    int64_t chunks, next;
} b_fetch_t;

/* The fetch of the rows x cols block of B at src (row stride `stride`)
 * in chunks as wide as the K loop of the current block's tiles (kcur: a
 * line per 16 steps). Rows stored back to back are one run of floats. */
static b_fetch_t b_fetch_init(const float *src, int64_t rows, int64_t cols,
                              int64_t stride, int64_t kcur, int mr) {
    b_fetch_t f = {src, rows, cols, tsr_rnd_up(kcur, 16), stride, 0, 0, 0};
    if (cols == stride) {
        f.lines = tsr_div_up(rows * cols, f.width);
        f.cols = f.stride = f.width;
    }
    f.chunks_per_row = tsr_div_up(f.cols, f.width);
    f.chunks = tsr_div_up(f.lines, mr) * f.chunks_per_row;
    return f;
}

/* The next chunk's first line, or NULL when all are taken. The last chunk
 * of a group and the last group end at the block's edge, where the block
 * is that large, so the fetches stay in it. */
static const float *b_fetch_take(b_fetch_t *f, int mr) {
    if (!f->src || f->next >= f->chunks)
        return NULL;
    const int64_t i = f->next++;
    int64_t line = i / f->chunks_per_row * mr;
    if (line + mr > f->lines)
        line = TSR_MAX(0, f->lines - mr);
    const int64_t col = TSR_MIN(i % f->chunks_per_row * f->width,
                                TSR_MAX(0, f->cols - f->width));
    return f->src + line * f->stride + col;
}

/* The micro-kernel (and epilogue) on the tile at rows ir, columns jr of
 * the block; it fetches the next chunk of `fetch` (NULL: none). */
static inline void run_tile(const block_t *b, int64_t ir, int64_t jr,
                            b_fetch_t *fetch) {
    const tsr_gemm_f32_args_t *args = b->args;
    const int mr = b->kern->mr, nr = b->kern->nr;
    const int64_t m = TSR_MIN(mr, b->mcur - ir);
    const int64_t n = TSR_MIN(nr, b->ncur - jr);
    const float *pb;
    int64_t b_stride = nr, next;
    if (!args->b_prepacked && jr < b->n_direct) {
        pb = args->B + b->pc * b->b_sp + b->jc + jr;
        b_stride = b->b_sp;
    } else {
        pb = packed_panel(b, jr, &next);
    }
    const int in_place = ir < b->m_direct;
    const float *pa = b->pack_a;
    if (in_place)
        pa = b->a_block + ir * args->lda;
    else if (b->kcur > 0)
        pa = b->pack_a + (ir - b->m_direct) * b->kcur;
    float *c = args->C + (b->ic + ir) * args->ldc + b->jc + jr;
    const tile_bias_t bias = tile_bias(b, ir, jr);
    const float *ahead = fetch ? b_fetch_take(fetch, mr) : NULL;
    b->kern->ukr(b->kcur, args->alpha, pa, in_place ? args->lda : 0, pb,
                 b_stride, ahead, ahead ? fetch->stride : 0, b->beta, c,
                 args->ldc, m, n, bias.row, bias.col);
    tile_epilogue(b, c, ir, jr, m, n);
}

/* Row tiles ahead of a wide tile whose A rows it fetches while it runs:
 * far enough to cover memory latency, near enough to stay in L1 (4 to 6
 * measured alike on res2b_branch2a). */
#define WIDE_FETCH_AHEAD_TILES 4

/* The micro-kernel (and epilogue) on the in-place tile at rows ir (up to
 * mr) and the two packed panels from column jr (ukr_wide); with `packing`
 * the tile packs them from B as stored on its way. */
static void run_wide_tile(const block_t *b, int64_t ir, int64_t jr,
                          b_fetch_t *fetch, int packing) {
    const tsr_gemm_f32_args_t *args = b->args;
    const int mr = b->kern->mr, nr = b->kern->nr;
    const int64_t m = TSR_MIN(mr, b->mcur - ir);
    const int64_t n = TSR_MIN(2 * nr, b->ncur - jr);
    int64_t next;
    const float *pb = packed_panel(b, jr, &next);
    const float *b_src =
            packing ? args->B + b->pc * b->b_sp + b->jc + jr : NULL;
    float *b_dst = packing ? b->pack_b + (jr - b->n_direct) * b->kcur : NULL;
    float *c = args->C + (b->ic + ir) * args->ldc + b->jc + jr;
    const tile_bias_t bias = tile_bias(b, ir, jr);
    const int64_t ahead = ir + WIDE_FETCH_AHEAD_TILES * mr;
    const float *a_ahead =
            ahead + mr <= b->a_rows ? b->a_block + ahead * args->lda : NULL;
    /* B's next block first: its source is streamed from memory. */
    const float *b_ahead = b_fetch_take(fetch, mr);
    b->kern->ukr_wide(b->kcur, args->alpha, b->a_block + ir * args->lda,
                      args->lda, b_ahead ? b_ahead : a_ahead,
                      b_ahead ? fetch->stride : args->lda, pb, next, b_src,
                      b->b_sp, b_dst, b->beta, c, args->ldc, m, n, bias.row,
                      bias.col);
    tile_epilogue(b, c, ir, jr, m, n);
}

/* The taps kernel, as one tap, on the tile of up to taps_mr rows at ir
 * (A read in place) and the prepacked panel at column jr: the arithmetic
 * of run_tile. */
static void run_tall_tile(const block_t *b, int64_t ir, int64_t jr) {
    enum { MAX_MR = 16 };
    const tsr_gemm_f32_args_t *args = b->args;
    const int tmr = b->kern->taps_mr, nr = b->kern->nr;
    const int64_t m = TSR_MIN(tmr, b->mcur - ir);
    const int64_t n = TSR_MIN(nr, b->ncur - jr);
    const void *rows[MAX_MR];
    float *c_rows[MAX_MR];
    for (int i = 0; i < tmr; i++) {
        /* Rows past m (computed, not stored) read row 0. */
        const int64_t row = i < m ? ir + i : ir;
        rows[i] = b->a_block + row * args->lda;
        c_rows[i] = args->C + (b->ic + row) * args->ldc + b->jc + jr;
    }
    const int32_t tap0 = 0;
    int64_t next;
    const tile_bias_t bias = tile_bias(b, ir, jr);
    b->kern->ukr_taps(1, &tap0, rows, b->kcur, packed_panel(b, jr, &next),
                      args->alpha, b->beta, c_rows, m, n, bias.row, bias.col);
    tile_epilogue(b, c_rows[0], ir, jr, m, n);
}

/* The L1 share (of 48 KiB) an A block and a group of B panels may fill
 * in a narrow block's walk (narrow_group). */
#define NARROW_L1_BYTES (40 * 1024)

/* Columns of the narrow block's panels walked down the A block together.
 * All of them (a row of tiles at a time) unless the A block and two
 * panels fit NARROW_L1_BYTES while all panels do not: then groups of
 * panels that fit, each walked down the block, so B stays in L1 instead of
 * coming from L2 once per row of tiles (K = 64: a 1x1 layer with 64 input
 * channels, e.g. ResNet-50 res2a_branch1 at mb1 and mb32, 2 threads: +7%). */
static int64_t narrow_group(int64_t mcur, int64_t kcur, int64_t ncur, int nr,
                            int wide) {
    const int64_t a_bytes = mcur * kcur * (int64_t)sizeof(float);
    const int64_t panel_bytes = kcur * nr * (int64_t)sizeof(float);
    const int64_t ncols = tsr_rnd_up(ncur, nr);
    if (a_bytes + ncols / nr * panel_bytes <= NARROW_L1_BYTES ||
        a_bytes + 2 * panel_bytes > NARROW_L1_BYTES)
        return ncols;
    int64_t panels = (NARROW_L1_BYTES - a_bytes) / panel_bytes;
    /* Whole pairs for wide tiles: an odd group leaves a panel to the
     * plain kernel (ResNet-50 res2a_branch2a nchw mb32: 3 -> 2 panels,
     * 19% of the time in plain tiles before, 8% faster). */
    if (wide && panels > 1)
        panels = panels / 2 * 2;
    return panels * nr;
}

/* 1 when the wide tile at column jr of a narrow block's group ending at
 * g1 holds two whole panels: the tiles that pack on their way take those
 * (the walk in gemm_rect), pack_panels_left all others. */
static int whole_pair(int64_t jr, int nr, int64_t g1) {
    return jr + 2 * nr <= g1;
}

/* A narrow block's panels that no wide tile packs on its way: in each
 * group of the walk (narrow_group), a last odd panel and the panels of a
 * partial pair. src: B as stored at the block's first column. */
static void pack_panels_left(const tsr_gemm_f32_kernel_t *kern,
                             const float *src, int64_t b_sp, int64_t kcur,
                             int64_t ncur, int64_t group, float *pack_b) {
    const int nr = kern->nr;
    for (int64_t g0 = 0; g0 < ncur; g0 += group) {
        const int64_t g1 = TSR_MIN(ncur, g0 + group);
        for (int64_t jr = g0; jr < g1; jr += nr) {
            if (whole_pair(jr, nr, g1)) {
                jr += nr; /* a whole pair: its first tile packs it */
                continue;
            }
            kern->pack(src + jr, 1, b_sp, TSR_MIN(nr, ncur - jr), kcur, nr,
                       pack_b + jr * kcur);
        }
    }
}

/* Starts fetching the kcur values of rows [row, row + rows) of A read in
 * place (row counted from a_block's, below `end`): rows streamed once
 * from memory (a 1x1 convolution on many images) arrive in time. */
static void prefetch_rows(const float *a_block, int64_t lda, int64_t row,
                          int64_t rows, int64_t kcur, int64_t end) {
    for (int64_t i = row; i < row + rows && i < end; i++)
        for (int64_t k = 0; k < kcur; k += 16)
            __builtin_prefetch(a_block + i * lda + k);
}

/* Serial BLIS loops over one rectangle of C. K == 0 (or alpha == 0) runs a
 * single empty K block so C still gets beta, bias and the epilogue. */
static void gemm_rect(const tsr_gemm_f32_args_t *args,
                      const tsr_gemm_f32_kernel_t *kern, int64_t K,
                      tsr_gemm_rect_t r, float *ws) {
    const int mr = kern->mr, nr = kern->nr;
    const int64_t m_len = r.m_end - r.m_begin, n_len = r.n_end - r.n_begin;
    const int64_t kc = tsr_gemm_balanced_block(K, kern->kc, 1);
    const int64_t mc = tsr_gemm_balanced_block(m_len, kern->mc, mr);
    const int prepacked = args->b_prepacked;
    const int direct_b = !args->transb && !prepacked && K > 0 &&
                         m_len <= DIRECT_B_MAX_MTILES * (int64_t)mr;
    /* Few A blocks over B packed here: narrow column blocks, each
     * fetching the next one's B (see top). */
    const int fetch_b = !prepacked && !direct_b && !args->transb &&
                        !args->transa && K > 0 &&
                        m_len <= FETCH_B_MAX_MBLOCKS * kern->mc;
    /* Narrow blocks of whole pairs of panels where tiles take two: an
     * odd panel goes to the plain kernel (1568 columns in blocks of 13
     * panels left 6% of the products to it, in blocks of 14 2%). */
    const int64_t nc = tsr_gemm_balanced_block(
            n_len, fetch_b ? kern->narrow_ntiles * (int64_t)nr : kern->nc,
            fetch_b && kern->ukr_wide ? 2 * nr : nr);
    const int64_t nkb = K > 0 ? tsr_div_up(K, kc) : 1;
    /* Packed A first, then B (sizes as in thread_scratch_bytes). */
    float dummy_panel[1] = {0.f}; /* never read: K == 0 reads no panel */
    float *pack_a = K > 0 ? ws : dummy_panel;
    float *pack_b = K > 0 ? ws + padded_floats(mc * kc) : dummy_panel;

    const int64_t a_sx = args->transa ? 1 : args->lda;
    const int64_t a_sp = args->transa ? args->lda : 1;
    const int64_t b_sx = args->transb ? args->ldb : 1;
    const int64_t b_sp = args->transb ? 1 : args->ldb;
    const int64_t ldc = args->ldc;

    for (int64_t jc = r.n_begin; jc < r.n_end; jc += nc) {
        const int64_t ncur = TSR_MIN(nc, r.n_end - jc);
        const int64_t narrow_ntiles =
                prepacked && m_len < kern->mc
                        ? TSR_MIN(kern->narrow_ntiles,
                                  FEW_ROWS_PREPACKED_NARROW_MAX_NTILES)
                        : kern->narrow_ntiles;
        const int narrow = ncur <= narrow_ntiles * (int64_t)nr;
        const int direct_a = narrow && !args->transa && K > 0;
        /* Prepacked B, wide blocks: A read in place in the taps kernel's
         * taller tiles (as one tap), which load each B value once per
         * taps_mr rows instead of mr. */
        const int tall = !narrow && prepacked && !args->transa && K > 0 &&
                         taps_taller(kern);
        /* Direct B: the full panels are read in place, the tail packed. */
        const int64_t n_direct = direct_b ? ncur / nr * nr : 0;
        /* B packed by the wide tiles of the first rows as they run: the
         * copy's loads wait on memory behind the tiles' FMAs instead of
         * alone (ResNet-50 res2b_branch2a nchw: packing B was 11% of the
         * time). */
        const int pack_in_tiles = direct_a && kern->ukr_wide && !prepacked &&
                                  !args->transb && n_direct == 0;
        for (int64_t kb = 0; kb < nkb; ++kb) {
            const int64_t pc = kb * kc;
            const int64_t kcur = TSR_MIN(kc, K - pc);
            const float beta = kb == 0 ? args->beta : 1.f;
            const int last_k = kb == nkb - 1;
            /* What the next block packs: K block kb + 1, or the next
             * column block's first. */
            b_fetch_t fetch = {NULL, 0, 0, 0, 0, 0, 0, 0};
            if (fetch_b && (!last_k || jc + nc < r.n_end)) {
                const int64_t pc1 = last_k ? 0 : pc + kcur;
                const int64_t jc1 = last_k ? jc + nc : jc;
                fetch = b_fetch_init(
                        args->B + jc1 + pc1 * b_sp, TSR_MIN(kc, K - pc1),
                        TSR_MIN(nc, r.n_end - jc1), b_sp, kcur, mr);
            } else if (fetch_b && args->b_next) {
                /* The next call's first block, of the same rectangle. */
                fetch = b_fetch_init(args->b_next + r.n_begin, TSR_MIN(kc, K),
                                     TSR_MIN(nc, n_len), b_sp, kcur, mr);
            }
            /* The first A block's walk packs (its groups). */
            if (pack_in_tiles)
                pack_panels_left(kern, args->B + jc + pc * b_sp, b_sp, kcur,
                                 ncur,
                                 narrow_group(TSR_MIN(mc, m_len), kcur, ncur,
                                              nr, kern->ukr_wide != NULL),
                                 pack_b);
            else if (kcur > 0 && n_direct < ncur && !prepacked)
                kern->pack(args->B + (jc + n_direct) * b_sx + pc * b_sp, b_sx,
                           b_sp, ncur - n_direct, kcur, nr, pack_b);
            for (int64_t ic = r.m_begin; ic < r.m_end; ic += mc) {
                const int64_t mcur = TSR_MIN(mc, r.m_end - ic);
                const float *a_block = args->A + ic * a_sx + pc * a_sp;
                /* Direct A: full tiles read A in place, the tail is packed
                 * (the kernel reads all mr rows); tall tiles read all of
                 * A in place. */
                const int64_t m_direct = tall       ? mcur
                                         : direct_a ? mcur / mr * mr
                                                    : 0;
                if (kcur > 0 && m_direct < mcur)
                    kern->pack(a_block + m_direct * a_sx, a_sx, a_sp,
                               mcur - m_direct, kcur, mr, pack_a);
                int64_t jr0 = 0;
                /* One row: the row kernel takes the in-place or prepacked
                 * full panels, several at once (a lone row in a tile would
                 * chain its few accumulators' FMAs on their latency). */
                const int64_t n_row = mcur != 1 || !kern->row ? 0
                                      : prepacked             ? ncur / nr * nr
                                                              : n_direct;
                if (n_row > 0) {
                    float *c = args->C + ic * ldc + jc;
                    const float *a_row = m_direct > 0 ? a_block : pack_a;
                    const int64_t a_step = m_direct > 0 ? a_sp : mr;
                    /* Prepacked: panel q of the rows' K block at b_row +
                     * q * K * nr (as packed_panel). */
                    const float *b_row =
                            prepacked ? args->B + jc * args->K + pc * nr
                                      : args->B + pc * b_sp + jc;
                    kern->row(kcur, args->alpha, a_row, a_step, b_row,
                              prepacked ? nr : b_sp, prepacked ? nr : n_row,
                              prepacked ? args->K * nr : n_row, beta, c, n_row,
                              last_k && args->bias_kind == tsr_gemm_bias_per_row
                                      ? args->bias + ic
                                      : NULL,
                              last_k && args->bias_kind == tsr_gemm_bias_per_col
                                      ? args->bias + jc
                                      : NULL);
                    if (last_k && args->epilogue)
                        args->epilogue(args->epilogue_ctx, c, ldc, ic, jc, 1,
                                       n_row);
                    jr0 = n_row;
                }
                const block_t blk = {
                        args,   kern, pc,       jc,       ic,          kcur,
                        mcur,   ncur, beta,     last_k,   a_block,     pack_a,
                        pack_b, b_sp, m_direct, n_direct, r.m_end - ic};
                if (narrow) {
                    const int64_t group = narrow_group(mcur, kcur, ncur, nr,
                                                       kern->ukr_wide != NULL);
                    for (int64_t g0 = jr0; g0 < ncur; g0 += group) {
                        const int64_t g1 = TSR_MIN(ncur, g0 + group);
                        /* Wide tiles fetch their rows ahead themselves. */
                        const int wide = kern->ukr_wide &&
                                         g1 - TSR_MAX(g0, n_direct) > nr;
                        for (int64_t ir = 0; ir < mcur; ir += mr) {
                            if (m_direct > 0 && args->a_streamed && g0 == jr0 &&
                                !wide)
                                prefetch_rows(a_block, args->lda, ir + 2 * mr,
                                              mr, kcur, r.m_end - ic);
                            for (int64_t jr = g0; jr < g1; jr += nr) {
                                /* Two packed panels at once where the
                                 * kernel takes them (rows in place; the
                                 * short last tile too, else computed as
                                 * 6 rows in 32-column halves). The first
                                 * A block's first row of tiles packs
                                 * whole pairs. */
                                if (kern->ukr_wide && direct_a &&
                                    jr >= n_direct && jr + nr < g1 &&
                                    kcur > 0) {
                                    run_wide_tile(
                                            &blk, ir, jr, &fetch,
                                            pack_in_tiles && ic == r.m_begin &&
                                                    ir == 0 &&
                                                    whole_pair(jr, nr, g1));
                                    jr += nr;
                                    continue;
                                }
                                run_tile(&blk, ir, jr, &fetch);
                            }
                        }
                    }
                } else if (tall) {
                    for (int64_t jr = jr0; jr < ncur; jr += nr)
                        for (int64_t ir = 0; ir < mcur; ir += kern->taps_mr)
                            run_tall_tile(&blk, ir, jr);
                } else {
                    for (int64_t jr = jr0; jr < ncur; jr += nr)
                        for (int64_t ir = 0; ir < mcur; ir += mr)
                            run_tile(&blk, ir, jr, &fetch);
                }
            }
        }
    }
}

/* The L2 share the A block and a B panel of one pass of taps_rect may
 * fill (of 2 MiB per core): past it, the block's rows no longer stay in
 * L2 while the panels are walked. */
#define TAPS_PASS_L2_BYTES (1536 * 1024)

/* Taps per pass of taps_rect: all of them while a full mc block of rows
 * and one B panel over all of K fit in TAPS_PASS_L2_BYTES, else passes of
 * equal tap ranges that do (ResNet-50 res5a_branch2b, K = 9 x 512, mb32:
 * the block alone is 1.8 MiB). From the kernel's blocking and the taps'
 * shape only, so the sums' order does not depend on the thread count. */
static int64_t taps_per_pass(const tsr_gemm_f32_kernel_t *kern, int64_t ntaps,
                             int64_t k_tap) {
    const int64_t tap_bytes =
            (kern->mc + kern->nr) * k_tap * (int64_t)sizeof(float);
    const int64_t fit = TSR_MAX(1, TAPS_PASS_L2_BYTES / TSR_MAX(tap_bytes, 1));
    if (ntaps <= fit)
        return TSR_MAX(ntaps, 1);
    return tsr_div_up(ntaps, tsr_div_up(ntaps, fit));
}

/* The first of n sorted tap ids that is >= id. */
static int64_t first_tap_from(const int32_t *ids, int64_t n, int64_t id) {
    int64_t i = 0;
    while (i < n && ids[i] < id)
        i++;
    return i;
}

/* Row m0 of C, columns jr0 .. jr1 - 1 (whole prepacked panels), in the
 * row kernel: A's row `a` (one tap of all K values; ntaps listed: 0 when
 * the point reads only padding) times the panels, through beta, bias and
 * the epilogue as taps_rect's tiles. */
static void lone_row(const tsr_gemm_f32_args_t *args,
                     const tsr_gemm_f32_kernel_t *kern, int64_t jr0,
                     int64_t jr1, int64_t m0, const void *a, int64_t ntaps) {
    const int nr = kern->nr;
    const tsr_gemm_taps_t *tp = args->a_taps;
    float *c = args->C + jr0 +
               (args->c_row_off ? args->c_row_off[m0] : m0 * args->ldc);
    const float zero_row[1] = {0.f};
    kern->row(
            ntaps > 0 ? tp->k_tap : 0, args->alpha,
            ntaps > 0 ? (const float *)a : zero_row, 1, args->B + jr0 * args->K,
            nr, nr, args->K * nr, args->beta, c, jr1 - jr0,
            args->bias_kind == tsr_gemm_bias_per_row ? args->bias + m0 : NULL,
            args->bias_kind == tsr_gemm_bias_per_col ? args->bias + jr0 : NULL);
    if (args->epilogue)
        args->epilogue(args->epilogue_ctx, c, args->ldc, m0, jr0, 1, jr1 - jr0);
}

/* The heights of the row tiles of a block of `rows` rows (their count
 * returned) where row i reads the taps taps[i] (bits): the cut of least
 * time by the kernel's taps_tile_cost (per tile, per tap any of its rows
 * reads), found by dynamic programming over the block's row prefixes;
 * its time in *cost. Tiles shorter than TAPS_TILE_MIN_ROWS only as a
 * whole short block; ties keep the taller last tile. */
static int64_t cut_tiles(const tsr_gemm_f32_kernel_t *kern,
                         const uint64_t *taps, int64_t rows, uint8_t *heights,
                         int64_t *cost) {
    int64_t best[TAPS_BLOCK_MAX_ROWS + 1];
    uint8_t last[TAPS_BLOCK_MAX_ROWS + 1];
    best[0] = 0;
    for (int64_t end = 1; end <= rows; end++) {
        best[end] = INT64_MAX;
        last[end] = 0;
        uint64_t any = 0;
        for (int h = 1; h <= TSR_MIN(kern->taps_mr, end); h++) {
            any |= taps[end - h];
            const int allowed =
                    h >= TAPS_TILE_MIN_ROWS || (h == end && end == rows);
            if (!allowed || best[end - h] == INT64_MAX)
                continue;
            const int64_t c = best[end - h] + (int64_t)kern->taps_tile_cost[h] *
                                                      __builtin_popcountll(any);
            if (c <= best[end]) {
                best[end] = c;
                last[end] = (uint8_t)h;
            }
        }
    }
    int64_t ntiles = 0;
    for (int64_t end = rows; end > 0; end -= last[end])
        heights[ntiles++] = last[end];
    for (int64_t i = 0; i < ntiles / 2; i++) {
        const uint8_t h = heights[i];
        heights[i] = heights[ntiles - 1 - i];
        heights[ntiles - 1 - i] = h;
    }
    *cost = best[rows];
    return ntiles;
}

/* Tiles of taps_mr rows over a block of `rows` rows, the last one short:
 * their count. */
static int64_t full_tiles(const tsr_gemm_f32_kernel_t *kern, int64_t rows,
                          uint8_t *heights) {
    int64_t ntiles = 0;
    for (int64_t ir = 0; ir < rows; ir += kern->taps_mr)
        heights[ntiles++] = (uint8_t)TSR_MIN(kern->taps_mr, rows - ir);
    return ntiles;
}

/* As few tiles as full ones over a block of `rows` rows, of equal
 * heights (the first ones a row taller): their count. */
static int64_t balanced_tiles(const tsr_gemm_f32_kernel_t *kern, int64_t rows,
                              uint8_t *heights) {
    const int64_t ntiles = tsr_div_up(rows, kern->taps_mr);
    for (int64_t t = 0; t < ntiles; t++)
        heights[t] = (uint8_t)(rows / ntiles + (t < rows % ntiles));
    return ntiles;
}

/* The kernel's time for tiles of the given heights over rows reading
 * taps[i], by taps_tile_cost. */
static int64_t tiles_cost(const tsr_gemm_f32_kernel_t *kern,
                          const uint64_t *taps, const uint8_t *heights,
                          int64_t ntiles) {
    int64_t cost = 0;
    for (int64_t t = 0; t < ntiles; t++) {
        uint64_t any = 0;
        for (int h = 0; h < heights[t]; h++)
            any |= *taps++;
        cost += (int64_t)kern->taps_tile_cost[heights[t]] *
                __builtin_popcountll(any);
    }
    return cost;
}

int tsr_gemm_f32_taps_cut_pays(const uint64_t *row_taps, int64_t rows) {
    const tsr_gemm_f32_kernel_t *kern = tsr_gemm_f32_select_kernel();
    if (!kern->ukr_taps || !kern->taps_tile_cost || !row_taps)
        return 0;
    /* In blocks of the frame's rows (taps_rect's mc at most). */
    const int64_t block = taps_block_rows(kern);
    uint8_t heights[TAPS_BLOCK_MAX_ROWS];
    int64_t full = 0, cut = 0;
    for (int64_t i = 0; i < rows; i += block) {
        const int64_t n = TSR_MIN(block, rows - i);
        int64_t c;
        cut_tiles(kern, row_taps + i, n, heights, &c);
        cut += c;
        full += tiles_cost(kern, row_taps + i, heights,
                           full_tiles(kern, n, heights));
    }
    return cut * 100 <= full * (100 - TSR_GEMM_F32_TAPS_CUT_GAIN);
}

/* How taps_rect cuts a block's rows into tiles. */
typedef enum {
    /* taps_mr rows each, the last one short */
    tiles_full,
    /* As few as full ones, of equal heights: with one tap, which every
     * row reads, on a kernel fast at every height (taps_tile_cost), a
     * short last tile only costs more: a 7x7 image's 49th point alone
     * waits on its FMAs' latency (ResNet-50 res5 1x1 layers, mb1, nhwc:
     * 1-4% faster than that row in the row kernel; with AVX2's 6-row
     * tiles, whose 5-row ones are slower, 2% slower) */
    tiles_balanced,
    /* Cut to the taps their rows read (tsr_gemm_taps_t.row_taps, where
     * tsr_gemm_f32_taps_cut_pays): a 7x7 3x3 layer's image in 12-row
     * tiles computes the padding of its edge points and a lone 49th row;
     * cut, in tiles of 6 to 9 of its points in the padding order, it
     * leaves most of that padding out and runs 13-16% faster (ResNet-50
     * res5a_branch2b, mb1, 2 threads) */
    tiles_cut,
} tiles_mode_t;

/* The heights of the row tiles of the block of mcur rows from m0: their
 * count. */
static int64_t taps_tile_heights(const tsr_gemm_f32_kernel_t *kern,
                                 const tsr_gemm_taps_t *tp, tiles_mode_t mode,
                                 int64_t m0, int64_t mcur, uint8_t *heights) {
    if (mode == tiles_full)
        return full_tiles(kern, mcur, heights);
    if (mode == tiles_balanced)
        return balanced_tiles(kern, mcur, heights);
    uint64_t taps[TAPS_BLOCK_MAX_ROWS];
    for (int64_t i = 0; i < mcur; i++)
        taps[i] = tp->row_taps(tp->ctx, m0 + i);
    int64_t cost;
    return cut_tiles(kern, taps, mcur, heights, &cost);
}

/* The loops over one rectangle with A by taps: B prepacked, the taps'
 * rows read in place, the taps of each row tile listed once per mc block,
 * each B panel walked down the block's tiles (it stays in L2; the tiles'
 * source rows in L1 and L2). Long K goes in passes over ranges of taps
 * (taps_per_pass): the first pass stores alpha * sum + beta * C, the
 * others add theirs, and only the last adds the bias and runs the
 * epilogue. */
static void taps_rect(const tsr_gemm_f32_args_t *args,
                      const tsr_gemm_f32_kernel_t *kern, int64_t K,
                      tsr_gemm_rect_t r, void *ws) {
    const tsr_gemm_taps_t *tp = args->a_taps;
    const int mr = kern->taps_mr, nr = kern->nr;
    const int64_t m_len = r.m_end - r.m_begin;
    const int64_t mc =
            tsr_gemm_balanced_block(m_len, taps_block_rows(kern), mr);
    /* Sized as the scratch booked it (mc may round past m_len). */
    const tsr_gemm_taps_table_t tt = tsr_gemm_taps_table(
            mr, taps_tiles_max(mr, TSR_MIN(mc, m_len)), tp->ntaps);
    /* alpha == 0 (K == 0 here) has no scratch and lists no taps: it reads
     * no row of A. */
    const int listing = K > 0;
    int64_t *listed = ws;
    int32_t *tap_ids = listing ? (int32_t *)((char *)ws + tt.ids_at) : NULL;
    const void **rows =
            listing ? (const void **)((char *)ws + tt.rows_at) : NULL;
    const int bias_row = args->bias_kind == tsr_gemm_bias_per_row;
    const int bias_col = args->bias_kind == tsr_gemm_bias_per_col;
    const int64_t per_pass =
            listing ? taps_per_pass(kern, tp->ntaps, tp->k_tap) : 1;
    const int64_t npasses = listing ? tsr_div_up(tp->ntaps, per_pass) : 1;
    enum { MAX_MR = 16 };
    float *c_rows[MAX_MR];
    /* Two panels at once where they hold all the rectangle's columns
     * (e.g. 64 output channels): each tap row is read once for both
     * (ResNet-50 res2a_branch2b, mb32, 2 threads: +6%; wider layers not
     * measured faster). Not where half a panel or less is left for the
     * second: the wide tile computes all its columns, a panel and a half
     * panel compute 48 (40 and 48 output channels, 3x3 and 5x5 layers,
     * nhwc, 2 threads: 24-25% faster so). */
    const int64_t n_len = r.n_end - r.n_begin;
    const int pairs =
            kern->ukr_taps_wide && n_len <= 2 * nr && n_len > nr + nr / 2;
    /* The wide kernel takes whole tiles. */
    const tiles_mode_t mode = pairs || !listing || !kern->taps_tile_cost
                                      ? tiles_full
                              : tp->ntaps == 1 ? tiles_balanced
                              : tp->row_taps   ? tiles_cut
                                               : tiles_full;
    /* A block's lone last row (a 7x7 image's 49th point in full tiles, a
     * block of one row) goes to the row kernel a pair of full panels at
     * a time, where one tap and one pass hold all of K (its one K loop is
     * then the tiles' arithmetic): alone in a tile its two accumulators
     * wait on their FMAs' latency. ResNet-50 res5 1x1 layers, nhwc mb1:
     * 1-3% faster (measured on AVX-512's full tiles, which one tap no
     * longer takes there; AVX2). */
    const int64_t full_end = r.n_begin + n_len / nr * nr;
    const int lone_row_kernel = kern->row && listing && !pairs &&
                                tp->ntaps == 1 && npasses == 1 &&
                                full_end > r.n_begin;
    uint8_t heights[TAPS_BLOCK_MAX_ROWS];

    for (int64_t ic = r.m_begin; ic < r.m_end; ic += mc) {
        const int64_t mcur = TSR_MIN(mc, r.m_end - ic);
        const int64_t ntiles =
                taps_tile_heights(kern, tp, mode, ic, mcur, heights);
        /* This block ends in a lone row that lone_row takes. */
        const int lone = lone_row_kernel && heights[ntiles - 1] == 1;
        for (int64_t t = 0, ir = 0; t < ntiles && listing; ir += heights[t++])
            listed[t] = tp->rows(tp->ctx, ic + ir, heights[t], mr,
                                 tap_ids + t * tp->ntaps,
                                 rows + t * tp->ntaps * mr);
        for (int64_t pass = 0; pass < npasses; pass++) {
            const int first = pass == 0, last = pass == npasses - 1;
            for (int64_t jr = r.n_begin; jr < r.n_end;) {
                /* jr is a multiple of nr: its panel. */
                const float *pb = args->B + jr * args->K;
                const int wide = pairs && r.n_end - jr > nr;
                const int64_t n = TSR_MIN(wide ? 2 * nr : nr, r.n_end - jr);
                for (int64_t t = 0, ir = 0; t < ntiles; ir += heights[t++]) {
                    const int64_t m = heights[t], m0 = ic + ir;
                    if (lone && ir + 1 == mcur && jr < full_end)
                        continue; /* lone_row, with the pair, below */
                    for (int64_t i = 0; i < m; i++)
                        c_rows[i] = args->C + jr +
                                    (args->c_row_off ? args->c_row_off[m0 + i]
                                                     : (m0 + i) * args->ldc);
                    /* This pass's taps among the tile's listed ones. */
                    int64_t lo = 0, hi = 0;
                    if (listing) {
                        const int32_t *ids = tap_ids + t * tp->ntaps;
                        lo = first ? 0
                                   : first_tap_from(ids, listed[t],
                                                    pass * per_pass);
                        hi = last ? listed[t]
                                  : first_tap_from(ids, listed[t],
                                                   (pass + 1) * per_pass);
                    }
                    const int32_t *tile_taps =
                            listing ? tap_ids + t * tp->ntaps + lo : NULL;
                    const void **tile_rows =
                            listing ? rows + (t * tp->ntaps + lo) * mr : NULL;
                    const float beta = first ? args->beta : 1.f;
                    const float *brow =
                            bias_row && last ? args->bias + m0 : NULL;
                    const float *bcol =
                            bias_col && last ? args->bias + jr : NULL;
                    if (wide && m == mr) {
                        /* The full tile in the wide kernel's kern->mr
                         * rows at a time. */
                        for (int64_t h = 0; h < m; h += kern->mr)
                            kern->ukr_taps_wide(
                                    hi - lo, tile_taps,
                                    tile_rows ? tile_rows + h : NULL, mr,
                                    tp->k_tap, pb, args->K * nr, args->alpha,
                                    beta, c_rows + h, n, brow ? brow + h : NULL,
                                    bcol);
                    } else {
                        /* A panel at a time (short tiles of a wide pair). */
                        float *c_panel[MAX_MR];
                        for (int64_t j = 0; j < n; j += nr) {
                            for (int64_t i = 0; i < m; i++)
                                c_panel[i] = c_rows[i] + j;
                            kern->ukr_taps(hi - lo, tile_taps, tile_rows,
                                           tp->k_tap, pb + j * args->K,
                                           args->alpha, beta, c_panel, m,
                                           TSR_MIN(nr, n - j), brow,
                                           bcol ? bcol + j : NULL);
                        }
                    }
                    if (!args->epilogue || !last)
                        continue;
                    if (args->c_row_off) {
                        for (int64_t i = 0; i < m; i++)
                            args->epilogue(args->epilogue_ctx, c_rows[i],
                                           args->ldc, m0 + i, jr, 1, n);
                    } else {
                        args->epilogue(args->epilogue_ctx, c_rows[0], args->ldc,
                                       m0, jr, m, n);
                    }
                }
                jr += wide ? 2 * nr : nr;
                /* The lone row over each pair of full panels (on
                 * AVX-512 64 columns, the row kernel's 8 accumulators)
                 * once both have run, while they are still in the
                 * caches. */
                const int64_t ran = jr - r.n_begin; /* columns done */
                if (lone && jr <= full_end &&
                    (ran % (2 * nr) == 0 || jr == full_end)) {
                    /* An odd last full panel is a pair of one. */
                    const int64_t pair0 = jr - (ran % (2 * nr) ? nr : 2 * nr);
                    const int64_t t = ntiles - 1;
                    lone_row(args, kern, pair0, jr, ic + mcur - 1,
                             rows[t * tp->ntaps * mr], listed[t]);
                }
            }
        }
    }
}

static int args_valid(const tsr_gemm_f32_args_t *a) {
    if (!a || a->M < 0 || a->N < 0 || a->K < 0)
        return 0;
    if (!tsr_gemm_team_valid(a->team_nthr, a->team_ithr))
        return 0;
    if (a->M == 0 || a->N == 0)
        return 1;
    if (!a->C || a->ldc < a->N)
        return 0;
    if (a->bias_kind != tsr_gemm_bias_none &&
        a->bias_kind != tsr_gemm_bias_per_row &&
        a->bias_kind != tsr_gemm_bias_per_col)
        return 0;
    if (a->bias_kind != tsr_gemm_bias_none && !a->bias)
        return 0;
    if (a->c_row_off && !a->a_taps)
        return 0;
    if (a->a_taps) {
        const tsr_gemm_taps_t *t = a->a_taps;
        return a->b_prepacked && a->B && t->rows &&
               tsr_gemm_f32_taps_supported(t->ntaps, t->k_tap) &&
               a->K == t->ntaps * t->k_tap;
    }
    /* Prepacked B has no stride of its own: check A alone. */
    return a->K == 0 || a->alpha == 0.f ||
           tsr_gemm_operands_valid(a->transa, a->b_prepacked ? 0 : a->transb,
                                   a->M, a->N, a->K, a->A, a->lda, a->B,
                                   a->b_prepacked ? a->N : a->ldb);
}

/* Below this many FMAs per thread an OpenMP region costs more than it
 * saves. */
#define TSR_GEMM_MIN_FMA_PER_THREAD (64 * 1024)

typedef struct {
    const tsr_gemm_f32_args_t *args;
    const tsr_gemm_f32_kernel_t *kern;
    int64_t K;
} call_t;

/* One thread's share (tsr_gemm_share_fn). */
static void run_share(const void *ctx, int nthr, int ithr, void *ws) {
    const call_t *c = ctx;
    /* Rows by taps on a kernel fast at every tile height go to threads
     * one by one, not in tiles: taps_rect cuts or balances each block's
     * tiles. A 7x7 image's 49 points and 160 columns (GoogLeNet
     * inception_5a/3x3_reduce, nhwc mb1, 2 threads): 25 and 24 rows
     * instead of 3 and 2 panels, 10% faster. */
    const int m_unit =
            c->args->a_taps && c->kern->taps_tile_cost ? 1 : c->kern->mr;
    const tsr_gemm_rect_t r = tsr_gemm_thread_rect(
            c->args->M, c->args->N, m_unit, c->kern->nr, nthr, ithr);
    if (r.m_begin >= r.m_end || r.n_begin >= r.n_end)
        return;
    if (c->args->a_taps)
        taps_rect(c->args, c->kern, c->K, r, ws);
    else
        gemm_rect(c->args, c->kern, c->K, r, ws);
}

tsr_status_t tsr_gemm_f32(const tsr_gemm_f32_args_t *args) {
    if (!args_valid(args))
        return tsr_invalid_arguments;
    if (args->M == 0 || args->N == 0)
        return tsr_success;

    const tsr_gemm_f32_kernel_t *kern = tsr_gemm_f32_select_kernel();
    /* alpha == 0 needs no product: A and B are not read at all. */
    const int64_t K = args->alpha == 0.f ? 0 : args->K;
    const call_t call = {args, kern, K};
    const tsr_gemm_threads_t t = {
            &call,
            run_share,
            thread_scratch_bytes(kern, args->M, args->N, K),
            (double)args->M * (double)args->N * (double)TSR_MAX(K, 1),
            TSR_GEMM_MIN_FMA_PER_THREAD,
            args->scratch,
            args->scratch_size,
            args->team_nthr,
            args->team_ithr};
    return tsr_gemm_run_threads(&t);
}
