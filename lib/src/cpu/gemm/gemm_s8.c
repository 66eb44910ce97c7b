/* The int8 GEMM frame: argument checks, kernel selection, the split of C
 * between threads, and cache blocking around the micro-kernels:
 *
 *   for jc in N step nc:          B block K x nc packed whole (L2/L3),
 *                                 as nr-column panels over all of K (or
 *                                 read in place when prepacked), with its
 *                                 column init (offset, shift
 *                                 compensation)
 *     for ic in M step mc:        C tile mc x nc finished here
 *       for pc in K step kc:      A block mc x kc packed, lives in L2
 *         for jr in nc step nr:   B micro-panel kc x nr stays in L1
 *           for ir in mc step mr: micro-kernel on one mr x nr tile of C
 *       epilogue(C tile)
 *
 * A read in place (u8 rows) takes all of K in one pass: B's panel then
 * streams from L2, but no tile stores and reloads its partial sums
 * (with kc = 512, 2-4% of a layer with K = 1024 to 4608).
 * A kernel with a_rows_slice (AMX) then swaps the two inner loops where
 * K allows: each slice of rows (one tile) meets every panel of the block
 * while it stays in L1.
 *
 * Packing all of K for a B block lets each C tile finish before the next
 * one starts, so it can live in a small per-thread buffer when the caller
 * has no C (a convolution writing straight to dst through the epilogue).
 * Products of at most TSR_GEMM_S8_SMALL_M rows with B stored K x N skip the
 * B packing (which would cost more than the product) through the kernel's
 * few-rows variant, where it has one. The s16-pair kernels need no
 * compensation; the u8 x s8 quad ones get s8 A shifted by +128 and start
 * each column from -128 * colsum(B).
 * Threads own disjoint rectangles of C and pack privately: no barrier, and
 * a team of the caller's threads can share one call. Integer sums are
 * exact, so the blocking never changes a result. */

#include "cpu/gemm/gemm_s8.h"

#include <string.h>

#include "common/checked_math.h"
#include "common/isa.h"
#include "common/utils.h"
#include "cpu/gemm/gemm_partition.h"
#include "cpu/gemm/gemm_s8_impl.h"

/* Blocking for 32 KiB L1d and 512 KiB L2 per core: the kc x nr B
 * micro-panel (16 KiB as s16) stays in L1 across an A block, the mc x kc A
 * block (96 KiB) in L2 next to the C tile. The AVX2 quad kernel takes the
 * B blocks that cannot saturate its s16 pair sums, the pair kernel the
 * rest, block by block. */
static const tsr_gemm_s8_kernel_t avx2_pairs = {
        .name = "avx2:6x16",
        .isa = tsr_cpu_isa_avx2,
        .layout = tsr_gemm_s8_layout_s16_pairs,
        .mr = 6,
        .nr = 16,
        .mc = 96,
        .kc = 512,
        .nc = 256,
        .ukr = tsr_gemm_s8_ukr_6x16_avx2,
        .pack = tsr_gemm_s8_pack_avx2,
        .small_m = tsr_gemm_s8_small_m_avx2,
};

static const tsr_gemm_s8_kernel_t vnni = {
        .name = "avx512_core_vnni:6x32",
        .isa = tsr_cpu_isa_avx512_core_vnni,
        .layout = tsr_gemm_s8_layout_u8s8_quads,
        .mr = 6,
        .nr = 32,
        .mc = 96,
        .kc = 1024,
        .nc = 256,
        .ukr = tsr_gemm_s8_ukr_6x32_avx512_vnni,
        .ukr_tail = tsr_gemm_s8_ukr_6x32_tail_avx512_vnni,
        .ukr_a_rows = tsr_gemm_s8_ukr_6x32_a_rows_avx512_vnni,
        .ukr_taps = tsr_gemm_s8_ukr_6x32_taps_avx512_vnni,
        .shift_rows = tsr_gemm_s8_shift_rows_avx512_vnni,
        /* A strided 1x1 convolution by its one tap instead of a copy of
         * the points it keeps: res4a_branch2a u8s8u8 756 -> 845 GOPS,
         * res5a_branch2a 818 -> 865 (2 threads); with the AVX2 kernel
         * res5a_branch1 u8s8f32 lost 16%. */
        .single_tap = 1,
        .pack = tsr_gemm_s8_pack_avx512,
};

#if defined(TSR_HAVE_AMX)
/* The VNNI kernel's panels (nr 32, u8 x s8 quads), so prepacked weights
 * serve both; A as u8 or s8 rows only (others copied into rows per mc
 * block). */
static const tsr_gemm_s8_kernel_t amx = {
        .name = "avx512_core_amx:32x32",
        .isa = tsr_cpu_isa_avx512_core_amx,
        .layout = tsr_gemm_s8_layout_u8s8_quads,
        .mr = 32,
        .nr = 32,
        .mc = 128,
        .kc = 1024,
        .nc = 256,
        .ukr_a_rows = tsr_gemm_s8_ukr_32x32_a_rows_avx512_amx,
        .ukr_s8_rows = tsr_gemm_s8_ukr_32x32_s8_rows_avx512_amx,
        /* A slice of one row tile (32 rows over K) stays in L1 while the
         * B panels stream past it: matmul on 2 threads, K = 768 +15% to
         * +25%, 1024^3 +10% to +16%, K = 2048 +3% to +5% (against the
         * block of 128 rows per panel, whose A rows came from L2 for
         * every panel). */
        .a_rows_slice = 32,
        .ukr_tap_offs = tsr_gemm_s8_ukr_32x32_tap_offs_avx512_amx,
        .release = tsr_gemm_s8_release_amx,
        .pack = tsr_gemm_s8_pack_avx512,
        .min_rows = 16,
        .few_rows = &vnni,
};
#endif

static const tsr_gemm_s8_kernel_t avx2_quads = {
        .name = "avx2:6x16",
        .isa = tsr_cpu_isa_avx2,
        .layout = tsr_gemm_s8_layout_u8s8_quads,
        .mr = 6,
        .nr = 16,
        .mc = 96,
        .kc = 512,
        .nc = 256,
        .ukr = tsr_gemm_s8_ukr_6x16_u8s8_avx2,
        .ukr_tail = tsr_gemm_s8_ukr_6x16_u8s8_tail_avx2,
        .ukr_a_rows = tsr_gemm_s8_ukr_6x16_u8s8_a_rows_avx2,
        .ukr_taps = tsr_gemm_s8_ukr_6x16_u8s8_taps_avx2,
        .pack = tsr_gemm_s8_pack_avx2,
        .b_fits = tsr_gemm_s8_b_narrow_avx2,
        .fallback = &avx2_pairs,
};

static const tsr_gemm_s8_kernel_t generic = {
        .name = "generic:4x8",
        .isa = tsr_cpu_isa_generic,
        .layout = tsr_gemm_s8_layout_u8s8_quads,
        .mr = TSR_GEMM_S8_REF_MR,
        .nr = TSR_GEMM_S8_REF_NR,
        .mc = 64,
        .kc = 512,
        .nc = 256,
        .ukr = tsr_gemm_s8_ukr_ref,
        .pack = tsr_gemm_s8_pack,
};

/* Best first; the last one runs anywhere. */
static const tsr_gemm_s8_kernel_t *const kernels[] = {
#if defined(TSR_HAVE_AMX)
        &amx,
#endif
        &vnni,
        &avx2_quads,
        &generic,
};

/* A packed B block (all of K) is kept within this many bytes: nc shrinks
 * for long K. */
#define TSR_GEMM_S8_B_BLOCK_BYTES (1024 * 1024)

const tsr_gemm_s8_kernel_t *tsr_gemm_s8_select_kernel(void) {
    for (size_t i = 0; i + 1 < TSR_ARRAY_SIZE(kernels); ++i)
        if (tsr_mayiuse(kernels[i]->isa))
            return kernels[i];
    return kernels[TSR_ARRAY_SIZE(kernels) - 1];
}

int tsr_gemm_s8_prepacked_nr(void) {
    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    return kern->layout == tsr_gemm_s8_layout_u8s8_quads ? kern->nr : 0;
}

int tsr_gemm_s8_prepacked_fits(const int8_t *B, int64_t bytes) {
    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    return !kern->b_fits || kern->b_fits(B, bytes);
}

int tsr_gemm_s8_prepacked_needs_narrow(void) {
    /* The quad kernel's b_fits is the pair-narrow check. */
    return tsr_gemm_s8_select_kernel()->b_fits != NULL;
}

const char *tsr_gemm_s8_kernel_name(void) {
    return tsr_gemm_s8_select_kernel()->name;
}

void tsr_gemm_s8_col_sums(int transb, int64_t K, int64_t N, const int8_t *B,
                          int64_t ldb, const int32_t *known, int32_t multiplier,
                          int32_t *sums) {
    /* Unsigned arithmetic wraps modulo 2^32 instead of overflowing; the
     * loops walk B along its rows either way. */
    if (known) {
        for (int64_t n = 0; n < N; ++n)
            sums[n] = (int32_t)((uint32_t)known[n] * (uint32_t)multiplier);
        return;
    }
    if (transb) {
        for (int64_t n = 0; n < N; ++n) {
            uint32_t s = 0;
            for (int64_t k = 0; k < K; ++k)
                s += (uint32_t)(int32_t)B[n * ldb + k];
            sums[n] = (int32_t)(s * (uint32_t)multiplier);
        }
        return;
    }
    for (int64_t n = 0; n < N; ++n)
        sums[n] = 0;
    for (int64_t k = 0; k < K; ++k)
        for (int64_t n = 0; n < N; ++n)
            sums[n] = (int32_t)((uint32_t)sums[n] +
                                (uint32_t)(int32_t)B[k * ldb + n]);
    for (int64_t n = 0; n < N; ++n)
        sums[n] = (int32_t)((uint32_t)sums[n] * (uint32_t)multiplier);
}

/* The largest nc for this K: the packed B block stays within budget (for
 * the kernel and its fallback, which packs into the same buffer). */
static int64_t max_nc(const tsr_gemm_s8_kernel_t *kern, int64_t K) {
    const int g = tsr_gemm_s8_kgroup(kern->layout);
    const int64_t kpad = tsr_rnd_up(TSR_MAX(K, 1), g);
    const int64_t fit = TSR_GEMM_S8_B_BLOCK_BYTES /
                        (kpad * tsr_gemm_s8_elem_bytes(kern->layout));
    const int64_t nc =
            TSR_MAX(kern->nr, TSR_MIN(kern->nc, fit / kern->nr * kern->nr));
    return kern->fallback ? TSR_MIN(nc, max_nc(kern->fallback, K)) : nc;
}

/* Columns of padding in each row of the engine's own C tile: with rows a
 * power-of-two size apart (1 KiB for 256 columns), the epilogue's loads of
 * the tile and its stores to dst alias in the CPU's 4 KiB address checks
 * and stall it (ResNet-50 res3a_branch2c u8s8f32, one thread: +15%). */
#define TILE_LD_PAD 16

/* Where the kernel stores the tile at (row, col) of the call: through
 * dst_store when `on` (the kernel then stores from its registers), else
 * C (NULL). */
static const tsr_gemm_s8_tile_dst_t *tile_dst(const tsr_gemm_s8_args_t *args,
                                              int on, int64_t row, int64_t col,
                                              tsr_gemm_s8_tile_dst_t *t) {
    if (!on)
        return NULL;
    const tsr_gemm_s8_dst_t *d = args->dst_store;
    const int64_t esize = d->common->dt_bytes;
    t->common = d->common;
    t->col = col;
    t->dst = (char *)d->dst + ((d->row_off ? 0 : row * d->ld) + col) * esize;
    t->row_bytes = d->ld * esize;
    t->row_off = d->row_off ? d->row_off + row : NULL;
    return t;
}

/* The finished tile [ic, ic + m) x [jc, jc + n) to the callback: all of
 * it, or with dst_store only the columns past the whole panels, which the
 * kernels stored themselves. */
static void finish_tile(const tsr_gemm_s8_args_t *args, int to_dst, int nr,
                        const int32_t *tile, int64_t ld, int64_t ic, int64_t jc,
                        int64_t m, int64_t n, float *work) {
    const int64_t done = to_dst ? n / nr * nr : 0;
    if (args->epilogue && done < n)
        args->epilogue(args->epilogue_ctx, tile + done, ld, ic, jc + done, m,
                       n - done, work);
}

int tsr_gemm_s8_reads_s8_rows(void) {
    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    return kern->shift_rows || kern->ukr_s8_rows;
}

int tsr_gemm_s8_taps_row_tile(void) {
    return tsr_gemm_s8_select_kernel()->mr;
}

int tsr_gemm_s8_tap_offs_supported(int64_t ntaps, int64_t k_tap) {
    return tsr_gemm_s8_select_kernel()->ukr_tap_offs && ntaps >= 1 &&
           ntaps <= TSR_GEMM_MAX_TAPS && k_tap >= 4 && k_tap % 4 == 0;
}

int64_t tsr_gemm_s8_tap_offs_step(int64_t k_tap) {
    return 4 * tsr_gemm_s8_tap_step_quads(k_tap / 4);
}

int tsr_gemm_s8_taps_s8_supported(void) {
    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    return kern->ukr_taps && kern->shift_rows;
}

int tsr_gemm_s8_taps_supported(int64_t ntaps, int64_t k_tap) {
    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    return kern->ukr_taps && (ntaps > 1 || (ntaps == 1 && kern->single_tap)) &&
           ntaps <= TSR_GEMM_MAX_TAPS && k_tap >= 4 && k_tap % 4 == 0;
}

/* One thread's buffers, each 64-byte aligned within its slice; overflow
 * is set when a size grows past int64 (K, the one size not capped by the
 * kernel's blocking, from user dims). */
typedef struct {
    int64_t b_bytes, a_bytes, init_bytes, work_bytes, c_bytes, shift_bytes;
    int overflow;
} thread_layout_t;

/* a * b * c rounded up to 64, or -1 when that overflows. */
static int64_t bytes_rnd64(int64_t a, int64_t b, int64_t c) {
    int64_t r;
    if (!tsr_mul_i64(a, b, &r) || !tsr_mul_i64(r, c, &r) ||
        !tsr_add_i64(r, 63, &r))
        return -1;
    return r / 64 * 64;
}

static thread_layout_t thread_layout(const tsr_gemm_s8_kernel_t *kern,
                                     int64_t M, int64_t N, int64_t K,
                                     int c_in_scratch) {
    thread_layout_t l = {0, 0, 0, 0, 0, 0, 0};
    if (M <= 0 || N <= 0)
        return l;
    const int g = tsr_gemm_s8_kgroup(kern->layout);
    const int esz = tsr_gemm_s8_elem_bytes(kern->layout);
    const int64_t mc = TSR_MIN(kern->mc, tsr_rnd_up(M, kern->mr));
    const int64_t nc = TSR_MIN(max_nc(kern, K), tsr_rnd_up(N, kern->nr));
    const int64_t kpad = tsr_rnd_up(K, g);
    const int64_t kc = TSR_MIN(kern->kc, kpad);
    l.b_bytes = bytes_rnd64(kpad, nc, esz);
    l.a_bytes = tsr_rnd_up(mc * kc * esz, 64);
    if (kern->ukr_taps) /* the A block, or the taps table of a_taps */
        l.a_bytes = TSR_MAX(
                l.a_bytes,
                tsr_gemm_taps_table(kern->mr, tsr_div_up(mc, kern->mr), K / 4)
                        .bytes);
    l.init_bytes = tsr_rnd_up(nc * (int64_t)sizeof(int32_t), 64);
    l.work_bytes = tsr_rnd_up(mc * nc * (int64_t)sizeof(float), 64);
    l.c_bytes = c_in_scratch ? tsr_rnd_up(mc * (nc + TILE_LD_PAD) *
                                                  (int64_t)sizeof(int32_t),
                                          64)
                             : 0;
    /* An mc block of s8 rows over all of K, shifted to u8 (or, for a
     * kernel of u8 rows only, any A copied into such rows). */
    l.shift_bytes =
            kern->shift_rows || !kern->ukr ? bytes_rnd64(mc, kpad, 1) : 0;
    l.overflow = l.b_bytes < 0 || l.shift_bytes < 0;
    if (kern->fallback) {
        /* Room for either kernel's panels. */
        const thread_layout_t f =
                thread_layout(kern->fallback, M, N, K, c_in_scratch);
        l.b_bytes = TSR_MAX(l.b_bytes, f.b_bytes);
        l.a_bytes = TSR_MAX(l.a_bytes, f.a_bytes);
        l.overflow |= f.overflow;
    }
    return l;
}

/* SIZE_MAX when a size overflows (no scratch or allocation fits it). */
static size_t layout_bytes(thread_layout_t l) {
    const int64_t parts[] = {l.b_bytes,    l.a_bytes, l.init_bytes,
                             l.work_bytes, l.c_bytes, l.shift_bytes};
    int64_t total = 0;
    for (size_t i = 0; i < TSR_ARRAY_SIZE(parts); i++)
        if (l.overflow || !tsr_add_i64(total, parts[i], &total))
            return SIZE_MAX;
    return (size_t)total;
}

size_t tsr_gemm_s8_scratch_size(int64_t M, int64_t N, int64_t K,
                                int c_in_scratch, int nthr) {
    /* The largest need of any kernel: the ISA cap may change between the
     * booking of a scratchpad and its use. */
    size_t per_thread = 0;
    for (size_t i = 0; i < TSR_ARRAY_SIZE(kernels); ++i) {
        const size_t s =
                layout_bytes(thread_layout(kernels[i], M, N, K, c_in_scratch));
        per_thread = TSR_MAX(per_thread, s);
    }
    size_t total;
    return tsr_mul_size(per_thread, (size_t)TSR_MAX(nthr, 1), &total)
                   ? total
                   : SIZE_MAX;
}

/* The column init of B block [jc, jc + ncur): the caller's offsets plus,
 * when the kernel shifts s8 A values by +128, -128 * colsum(B). Returns
 * NULL when every column starts from 0. */
static const int32_t *block_col_init(const tsr_gemm_s8_args_t *args,
                                     int shift_a, int64_t jc, int64_t ncur,
                                     int32_t *buf) {
    const int64_t b_sx = args->transb ? args->ldb : 1;
    if (!shift_a)
        return args->col_offset ? args->col_offset + jc : NULL;
    tsr_gemm_s8_col_sums(
            args->transb, args->K, ncur, args->B + jc * b_sx, args->ldb,
            args->b_col_sums ? args->b_col_sums + jc : NULL, -128, buf);
    if (args->col_offset)
        for (int64_t j = 0; j < ncur; ++j)
            buf[j] = (int32_t)((uint32_t)buf[j] +
                               (uint32_t)args->col_offset[jc + j]);
    return buf;
}

/* Packs B block [jc, jc + ncur) x all of K for kern: panels of nr
 * columns, each over all of K (the prepacked layout when the kernel's is
 * u8 x s8 quads). Returns the block's packed bytes. */
static int64_t pack_b_block(const tsr_gemm_s8_args_t *args,
                            const tsr_gemm_s8_kernel_t *kern, int64_t jc,
                            int64_t ncur, char *pack_b) {
    const int64_t b_sx = args->transb ? args->ldb : 1;
    const int64_t b_sp = args->transb ? 1 : args->ldb;
    kern->pack(kern->layout, 0, 0, args->B + jc * b_sx, b_sx, b_sp, ncur,
               args->K, kern->nr, pack_b);
    return tsr_rnd_up(args->K, tsr_gemm_s8_kgroup(kern->layout)) *
           tsr_rnd_up(ncur, kern->nr) * tsr_gemm_s8_elem_bytes(kern->layout);
}

/* The m s8 rows at a (row stride lda) as u8 rows of n values (x + 128)
 * at out, n apart. */
static void shift_block(const tsr_gemm_s8_kernel_t *kern, const char *a,
                        int64_t lda, int64_t m, int64_t n, uint8_t *out) {
    enum { ROWS = 64 };
    const void *rows[ROWS];
    for (int64_t r0 = 0; r0 < m; r0 += ROWS) {
        const int64_t rn = TSR_MIN(ROWS, m - r0);
        for (int64_t r = 0; r < rn; ++r)
            rows[r] = a + (r0 + r) * lda;
        kern->shift_rows(out + r0 * n, n, rows, rn, n);
    }
}

/* Slices of rows walk the panels when a block has several, K is at least
 * A_ROWS_SLICE_MIN_K bytes (a call of one row tile over a shorter K costs
 * more than its A rows: ResNet-50 int8 1x1 layers with K = 64, or one
 * panel per thread, 0.90x to 0.93x by slices; K = 256 over 32 panels
 * +5% to +9%) and a slice's rows fit A_ROWS_SLICE_MAX_BYTES (L1 and
 * L2's nearest share: K = 3072 lost 4%). */
#define A_ROWS_SLICE_MIN_K 256
#define A_ROWS_SLICE_MAX_BYTES (64 * 1024)

/* The A rows of a block read in place: each slice of `slice` rows by
 * every panel of the B block in turn (panel p at b + p * panel_bytes),
 * the column init and C tile from column 0. A slice of the whole block
 * is a call per panel. */
static void rows_slices(const tsr_gemm_s8_args_t *args, int nr,
                        tsr_gemm_s8_ukr_a_rows_fn ukr_rows, int64_t kgroups,
                        const char *a, int64_t lda, const char *b,
                        int64_t panel_bytes, int accumulate,
                        const int32_t *init, int32_t *tile, int64_t ld,
                        int64_t ic, int64_t jc, int64_t mcur, int64_t ncur,
                        int to_dst, int64_t slice) {
    for (int64_t ir = 0; ir < mcur; ir += slice) {
        const int64_t m = TSR_MIN(slice, mcur - ir);
        for (int64_t jr = 0; jr < ncur; jr += nr) {
            const int64_t n = TSR_MIN(nr, ncur - jr);
            tsr_gemm_s8_tile_dst_t td;
            ukr_rows(kgroups, a + ir * lda, lda, b + jr / nr * panel_bytes,
                     accumulate, init ? init + jr : NULL, tile + ir * ld + jr,
                     ld, m, n,
                     tile_dst(args, to_dst && n == nr, ic + ir, jc + jr, &td));
        }
    }
}

/* Serial loops over one rectangle of C with the thread's buffers. The
 * kernel may change per B block (kern's precondition, else its fallback):
 * both are exact, so results do not depend on which one ran. */
static void gemm_rect(const tsr_gemm_s8_args_t *args,
                      const tsr_gemm_s8_kernel_t *kern, tsr_gemm_rect_t r,
                      thread_layout_t l, char *ws) {
    const int mr = kern->mr, nr = kern->nr;
    const int64_t K = args->K;
    const int64_t m_len = r.m_end - r.m_begin, n_len = r.n_end - r.n_begin;
    /* A multiple of every group size (2 and 4). */
    const int64_t kc_packed = tsr_gemm_balanced_block(K, kern->kc, 4);
    const int64_t mc = tsr_gemm_balanced_block(m_len, kern->mc, mr);
    const int64_t nc = tsr_gemm_balanced_block(n_len, max_nc(kern, K), nr);
    const int a_u8 = args->a_dt == tsr_u8;

    char *pack_b = ws;
    char *pack_a = pack_b + l.b_bytes;
    int32_t *init_buf = (int32_t *)(pack_a + l.a_bytes);
    float *work = (float *)((char *)init_buf + l.init_bytes);
    int32_t *c_tile = (int32_t *)((char *)work + l.work_bytes);
    uint8_t *shifted = (uint8_t *)c_tile + l.c_bytes;

    const int64_t a_sx = args->transa ? 1 : args->lda;
    const int64_t a_sp = args->transa ? args->lda : 1;
    const char *A = args->A;

    for (int64_t jc = r.n_begin; jc < r.n_end; jc += nc) {
        const int64_t ncur = TSR_MIN(nc, r.n_end - jc);
        const tsr_gemm_s8_kernel_t *kb = kern;
        const char *b_panels = pack_b;
        if (args->b_prepacked) {
            /* jc is a multiple of nr: panel jc / nr. */
            b_panels = (const char *)args->B + jc * tsr_rnd_up(K, 4);
        } else {
            const int64_t b_bytes = pack_b_block(args, kb, jc, ncur, pack_b);
            if (kb->b_fits && !kb->b_fits((const int8_t *)pack_b, b_bytes)) {
                kb = kb->fallback;
                pack_b_block(args, kb, jc, ncur, pack_b);
            }
        }
        const int g = tsr_gemm_s8_kgroup(kb->layout);
        const int esz = tsr_gemm_s8_elem_bytes(kb->layout);
        const int64_t panel_bytes = tsr_rnd_up(K, g) * nr * esz;
        /* s8 rows the kernel multiplies as they are: no shift. */
        const int s8_rows = !a_u8 && (kb->ukr_s8_rows || args->a_tap_offs);
        const int shift_a = kb->layout == tsr_gemm_s8_layout_u8s8_quads &&
                            !a_u8 && !s8_rows;
        /* Rows the kernel reads in place (K quads lie in each row; s8
         * ones once shifted into u8 rows per mc block, where the kernel
         * has shift_rows); otherwise A is packed. */
        const int shift_s8 = !a_u8 && !s8_rows && kb->shift_rows;
        const int a_in_place =
                args->a_tap_offs ||
                (kb->ukr_a_rows && (a_u8 || s8_rows || shift_s8) &&
                 !args->transa && (K % 4 == 0 || args->a_rows_padded));
        /* A kernel of rows only gets the others copied into rows (s8
         * ones shifted to u8 unless it takes s8 rows). */
        const int a_copied = !kb->ukr && !a_in_place;
        const int a_rows = a_in_place || a_copied;
        const tsr_gemm_s8_ukr_a_rows_fn ukr_rows =
                s8_rows ? kb->ukr_s8_rows : kb->ukr_a_rows;
        const int32_t *init = block_col_init(args, shift_a, jc, ncur, init_buf);
        const int64_t kc = a_rows ? TSR_MAX(K, 1) : kc_packed;
        /* Full panels of row tiles (one pass over K) store into dst
         * themselves. */
        const int to_dst = args->dst_store && a_rows;

        for (int64_t ic = r.m_begin; ic < r.m_end; ic += mc) {
            const int64_t mcur = TSR_MIN(mc, r.m_end - ic);
            int32_t *tile = args->C ? args->C + ic * args->ldc + jc : c_tile;
            const int64_t ld = args->C ? args->ldc : ncur + TILE_LD_PAD;
            /* K == 0 still runs one empty pass: C = col_offset. */
            for (int64_t pc = 0; pc < TSR_MAX(K, 1); pc += kc) {
                const int64_t kcur = TSR_MIN(kc, K - pc);
                const int64_t kgroups = tsr_div_up(kcur, g);
                const char *a_block = A + (ic * a_sx + pc * a_sp);
                int64_t lda = a_sx;
                if (a_in_place && shift_s8) {
                    /* All of K in this one pass. */
                    shift_block(kb, a_block, a_sx, mcur, kgroups * 4, shifted);
                    a_block = (const char *)shifted;
                    lda = kgroups * 4;
                } else if (a_copied) {
                    /* Panels of one line: rows of all of K, zero-padded
                     * to whole quads, s8 shifted to u8. */
                    kb->pack(kb->layout, 1, a_u8 || s8_rows, a_block, a_sx,
                             a_sp, mcur, kcur, 1, shifted);
                    a_block = (const char *)shifted;
                    lda = kgroups * 4;
                }
                if (kcur > 0 && !a_rows)
                    kb->pack(kb->layout, 1, a_u8, a_block, a_sx, a_sp, mcur,
                             kcur, mr, pack_a);
                if (a_rows && !args->a_tap_offs) {
                    const int sliced = kb->a_rows_slice && ncur > nr &&
                                       kgroups * 4 >= A_ROWS_SLICE_MIN_K &&
                                       kb->a_rows_slice * kgroups * 4 <=
                                               A_ROWS_SLICE_MAX_BYTES;
                    rows_slices(args, nr, ukr_rows, kgroups, a_block, lda,
                                b_panels + pc * nr * esz, panel_bytes, pc > 0,
                                init, tile, ld, ic, jc, mcur, ncur, to_dst,
                                sliced ? kb->a_rows_slice : mcur);
                    continue;
                }
                for (int64_t jr = 0; jr < ncur; jr += nr) {
                    const int64_t n = TSR_MIN(nr, ncur - jr);
                    const char *pb =
                            b_panels + jr / nr * panel_bytes + pc * nr * esz;
                    const int32_t *col = init ? init + jr : NULL;
                    if (args->a_tap_offs) {
                        tsr_gemm_s8_tile_dst_t td;
                        kb->ukr_tap_offs(!a_u8, args->a_tap_offs, a_block, lda,
                                         pb, col, tile + jr, ld, mcur, n,
                                         tile_dst(args, to_dst && n == nr, ic,
                                                  jc + jr, &td));
                        continue;
                    }
                    for (int64_t ir = 0; ir < mcur; ir += mr) {
                        const int64_t m = TSR_MIN(mr, mcur - ir);
                        int32_t *c = tile + ir * ld + jr;
                        const char *pa = pack_a + ir * kgroups * g * esz;
                        const tsr_gemm_s8_ukr_fn ukr =
                                m < mr && kb->ukr_tail ? kb->ukr_tail : kb->ukr;
                        ukr(kgroups, pa, pb, pc > 0, col, c, ld, m, n);
                    }
                }
            }
            finish_tile(args, to_dst, nr, tile, ld, ic, jc, mcur, ncur, work);
        }
    }
}

/* The s8 rows of one tile listed by taps (m rows, `listed` taps, tap t's
 * row i at rows[t * mr + i]) as u8 rows of all K values (x + 128), row i
 * at out + i * K; a tap not listed reads as s8 zeros. */
static void shift_tap_rows(const tsr_gemm_s8_kernel_t *kern,
                           const tsr_gemm_taps_t *tp, int64_t listed,
                           const int32_t *tap_ids, const void *const *rows,
                           int64_t m, uint8_t *out) {
    const int64_t K = tp->ntaps * tp->k_tap;
    if (listed < tp->ntaps)
        memset(out, 0x80, (size_t)(m * K));
    for (int64_t t = 0; t < listed; ++t)
        kern->shift_rows(out + tap_ids[t] * tp->k_tap, K, rows + t * kern->mr,
                         m, tp->k_tap);
}

/* The loops over one rectangle with A by taps: B prepacked, all of K in
 * one pass (the taps' rows are read in place; s8 ones shifted once per
 * mc block into u8 rows), the taps of each row tile listed once per mc
 * block. */
static void taps_rect(const tsr_gemm_s8_args_t *args,
                      const tsr_gemm_s8_kernel_t *kern, tsr_gemm_rect_t r,
                      thread_layout_t l, char *ws) {
    const tsr_gemm_taps_t *tp = args->a_taps;
    const int mr = kern->mr, nr = kern->nr;
    const int64_t K = args->K;
    const int64_t m_len = r.m_end - r.m_begin, n_len = r.n_end - r.n_begin;
    const int64_t mc = tsr_gemm_balanced_block(m_len, kern->mc, mr);
    const int64_t nc = tsr_gemm_balanced_block(n_len, max_nc(kern, K), nr);
    const tsr_gemm_taps_table_t tt =
            tsr_gemm_taps_table(mr, tsr_div_up(mc, mr), tp->ntaps);
    char *table = ws + l.b_bytes;
    int64_t *listed = (int64_t *)table;
    int32_t *tap_ids = (int32_t *)(table + tt.ids_at);
    const void **rows = (const void **)(table + tt.rows_at);
    float *work = (float *)(ws + l.b_bytes + l.a_bytes + l.init_bytes);
    int32_t *c_tile = (int32_t *)((char *)work + l.work_bytes);
    uint8_t *shifted = (uint8_t *)c_tile + l.c_bytes;
    const int64_t panel_bytes = K * nr;
    const int to_dst = args->dst_store != NULL;
    /* s8 rows: shifted to u8, which the column init makes up. */
    const int shift_a = args->a_dt == tsr_s8;
    int32_t *init_buf = (int32_t *)(ws + l.b_bytes + l.a_bytes);

    for (int64_t ic = r.m_begin; ic < r.m_end; ic += mc) {
        const int64_t mcur = TSR_MIN(mc, r.m_end - ic);
        for (int64_t ir = 0; ir < mcur; ir += mr)
            listed[ir / mr] = tp->rows(tp->ctx, ic + ir, TSR_MIN(mr, mcur - ir),
                                       mr, tap_ids + ir / mr * tp->ntaps,
                                       rows + ir / mr * tp->ntaps * mr);
        if (shift_a)
            for (int64_t ir = 0; ir < mcur; ir += mr)
                shift_tap_rows(kern, tp, listed[ir / mr],
                               tap_ids + ir / mr * tp->ntaps,
                               rows + ir / mr * tp->ntaps * mr,
                               TSR_MIN(mr, mcur - ir), shifted + ir * K);
        for (int64_t jc = r.n_begin; jc < r.n_end; jc += nc) {
            const int64_t ncur = TSR_MIN(nc, r.n_end - jc);
            int32_t *tile = args->C ? args->C + ic * args->ldc + jc : c_tile;
            const int64_t ld = args->C ? args->ldc : ncur + TILE_LD_PAD;
            const int32_t *init =
                    block_col_init(args, shift_a, jc, ncur, init_buf);
            for (int64_t jr = 0; jr < ncur; jr += nr) {
                /* jc + jr is a multiple of nr: panel (jc + jr) / nr. */
                const char *pb =
                        (const char *)args->B + (jc + jr) / nr * panel_bytes;
                const int32_t *col = init ? init + jr : NULL;
                const int64_t n = TSR_MIN(nr, ncur - jr);
                for (int64_t ir = 0; ir < mcur; ir += mr) {
                    tsr_gemm_s8_tile_dst_t td;
                    const int64_t m = TSR_MIN(mr, mcur - ir);
                    const tsr_gemm_s8_tile_dst_t *d = tile_dst(
                            args, to_dst && n == nr, ic + ir, jc + jr, &td);
                    if (shift_a)
                        kern->ukr_a_rows(K / 4, shifted + ir * K, K, pb, 0, col,
                                         tile + ir * ld + jr, ld, m, n, d);
                    else
                        kern->ukr_taps(
                                listed[ir / mr], tap_ids + ir / mr * tp->ntaps,
                                rows + ir / mr * tp->ntaps * mr, tp->k_tap / 4,
                                pb, col, tile + ir * ld + jr, ld, m, n, d);
                }
            }
            finish_tile(args, to_dst, nr, tile, ld, ic, jc, mcur, ncur, work);
        }
    }
}

/* 1 when the kernel's few-rows variant serves the call: few rows and B
 * stored K x N (its rows are what the variant reads). */
static int use_small_m(const tsr_gemm_s8_args_t *args,
                       const tsr_gemm_s8_kernel_t *kern) {
    return kern->small_m && args->M <= TSR_GEMM_S8_SMALL_M && !args->transb &&
           !args->b_prepacked;
}

/* The few-rows loops over one rectangle (all of M): B read as stored, A
 * packed per K block, tiles finished per nc columns. */
static void small_m_rect(const tsr_gemm_s8_args_t *args,
                         const tsr_gemm_s8_kernel_t *kern, tsr_gemm_rect_t r,
                         thread_layout_t l, char *ws) {
    const int64_t K = args->K;
    const int64_t m = r.m_end - r.m_begin, n_len = r.n_end - r.n_begin;
    const int64_t kc = tsr_gemm_balanced_block(K, kern->kc, 2);
    const int64_t nc =
            tsr_gemm_balanced_block(n_len, max_nc(kern, K), kern->nr);
    char *pack_a = ws + l.b_bytes;
    float *work = (float *)(pack_a + l.a_bytes + l.init_bytes);
    int32_t *c_tile = (int32_t *)((char *)work + l.work_bytes);
    const int64_t a_sx = args->transa ? 1 : args->lda;
    const int64_t a_sp = args->transa ? args->lda : 1;
    const char *A = (const char *)args->A + r.m_begin * a_sx;
    const int a_u8 = args->a_dt == tsr_u8;

    for (int64_t jc = r.n_begin; jc < r.n_end; jc += nc) {
        const int64_t ncur = TSR_MIN(nc, r.n_end - jc);
        int32_t *tile = args->C ? args->C + r.m_begin * args->ldc + jc : c_tile;
        const int64_t ld = args->C ? args->ldc : ncur + TILE_LD_PAD;
        const int32_t *init = args->col_offset ? args->col_offset + jc : NULL;
        /* K == 0 still runs one empty pass: C = col_offset. */
        for (int64_t pc = 0; pc < TSR_MAX(K, 1); pc += kc) {
            const int64_t kcur = TSR_MIN(kc, K - pc);
            if (kcur > 0)
                kern->pack(kern->layout, 1, a_u8, A + pc * a_sp, a_sx, a_sp, m,
                           kcur, TSR_GEMM_S8_SMALL_M, pack_a);
            for (int64_t jr = 0; jr < ncur; jr += kern->nr) {
                const int64_t n = TSR_MIN(kern->nr, ncur - jr);
                kern->small_m(TSR_MAX(kcur, 0), pack_a,
                              args->B + pc * args->ldb + jc + jr, args->ldb,
                              pc > 0, init ? init + jr : NULL, tile + jr, ld, m,
                              n);
            }
        }
        if (args->epilogue)
            args->epilogue(args->epilogue_ctx, tile, ld, r.m_begin, jc, m, ncur,
                           work);
    }
}

static int args_valid(const tsr_gemm_s8_args_t *a) {
    if (!a || a->M < 0 || a->N < 0 || a->K < 0)
        return 0;
    if (a->a_dt != tsr_u8 && a->a_dt != tsr_s8)
        return 0;
    if (!tsr_gemm_team_valid(a->team_nthr, a->team_ithr))
        return 0;
    if (a->M == 0 || a->N == 0)
        return 1;
    if (a->C ? a->ldc < a->N : !a->epilogue)
        return 0;
    if (a->dst_store &&
        (a->C || !a->dst_store->common || !a->dst_store->dst ||
         a->dst_store->ld < a->N ||
         (a->dst_store->row_off && !a->a_taps && !a->a_tap_offs)))
        return 0;
    if (a->a_rows_padded && !a->transa && a->lda < tsr_rnd_up(a->K, 4))
        return 0;
    if (a->a_taps &&
        (!(a->a_dt == tsr_u8 || (a->a_dt == tsr_s8 && a->b_col_sums &&
                                 tsr_gemm_s8_taps_s8_supported())) ||
         !a->b_prepacked || !a->a_taps->rows ||
         a->K != a->a_taps->ntaps * a->a_taps->k_tap ||
         !tsr_gemm_s8_taps_supported(a->a_taps->ntaps, a->a_taps->k_tap)))
        return 0;
    if (a->a_taps)
        return a->B != NULL && !a->a_tap_offs;
    if (a->a_tap_offs) {
        const tsr_gemm_s8_tap_offs_t *t = a->a_tap_offs;
        if (!t->off || !a->A || !a->B || a->lda < 1 || a->transa ||
            a->K != t->ntaps * t->k_tap ||
            !tsr_gemm_s8_tap_offs_supported(t->ntaps, t->k_tap))
            return 0;
        if (a->b_prepacked)
            return tsr_gemm_s8_prepacked_nr() &&
                   (a->a_dt == tsr_u8 || a->b_col_sums);
        return a->ldb >= (a->transb ? a->K : a->N);
    }
    if (a->b_prepacked) {
        /* B's layout is the current kernel's: A alone has a stride. */
        if (!tsr_gemm_s8_prepacked_nr() ||
            (a->a_dt == tsr_s8 && !a->b_col_sums))
            return 0;
        return a->K == 0 ||
               tsr_gemm_operands_valid(a->transa, 0, a->M, a->N, a->K, a->A,
                                       a->lda, a->B, a->N);
    }
    return a->K == 0 ||
           tsr_gemm_operands_valid(a->transa, a->transb, a->M, a->N, a->K, a->A,
                                   a->lda, a->B, a->ldb);
}

/* Below this many products per thread an OpenMP region costs more than it
 * saves. */
#define TSR_GEMM_S8_MIN_MACS_PER_THREAD (128 * 1024)

typedef struct {
    const tsr_gemm_s8_args_t *args;
    const tsr_gemm_s8_kernel_t *kern;
    thread_layout_t l;
} call_t;

/* One thread's share (tsr_gemm_share_fn). */
static void run_share(const void *ctx, int nthr, int ithr, void *ws) {
    const call_t *c = ctx;
    const tsr_gemm_rect_t r = tsr_gemm_thread_rect(
            c->args->M, c->args->N, c->kern->mr, c->kern->nr, nthr, ithr);
    if (r.m_begin >= r.m_end || r.n_begin >= r.n_end)
        return;
    if (c->args->a_taps)
        taps_rect(c->args, c->kern, r, c->l, ws);
    else if (use_small_m(c->args, c->kern))
        small_m_rect(c->args, c->kern, r, c->l, ws);
    else
        gemm_rect(c->args, c->kern, r, c->l, ws);
    if (c->kern->release && !(c->args->keep_tiles && nthr == 1))
        c->kern->release();
}

void tsr_gemm_s8_release_tiles(void) {
    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    if (kern->release)
        kern->release();
}

tsr_status_t tsr_gemm_s8(const tsr_gemm_s8_args_t *args) {
    if (!args_valid(args))
        return tsr_invalid_arguments;
    if (args->M == 0 || args->N == 0)
        return tsr_success;

    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    if (kern->few_rows && args->M < kern->min_rows && !args->a_tap_offs)
        kern = kern->few_rows;
    if (kern->fallback && !args->a_taps && use_small_m(args, kern->fallback))
        kern = kern->fallback;
    const call_t call = {
            args, kern,
            thread_layout(kern, args->M, args->N, args->K, args->C == NULL)};
    const tsr_gemm_threads_t t = {&call,
                                  run_share,
                                  layout_bytes(call.l),
                                  (double)args->M * (double)args->N *
                                          (double)TSR_MAX(args->K, 1),
                                  TSR_GEMM_S8_MIN_MACS_PER_THREAD,
                                  args->scratch,
                                  args->scratch_size,
                                  args->team_nthr,
                                  args->team_ithr};
    return tsr_gemm_run_threads(&t);
}
