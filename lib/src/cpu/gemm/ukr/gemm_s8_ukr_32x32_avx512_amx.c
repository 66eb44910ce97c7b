/* AMX int8 micro-kernel: 32 rows x 32 columns of s32 in four 16 x 16
 * accumulator tiles, A read as u8 or s8 rows (in place, from a block of
 * rows the frame copied, or by tap offsets: each tap's K values at a fixed
 * offset from the row, the rows of a padded source window equally spaced)
 * and B the packed quad panels of the VNNI kernel,
 * so the prepacked weights serve both. s8 rows go through tdpbssd (s8 x s8
 * quads) as they are: no shift by +128 and no compensation.
 *
 * Tiles: C(r, h) = tmm(2r + h) for row half r and column half h, A's row
 * halves in tmm4-5, B's column halves in tmm6-7. A panel's K quad g holds
 * the 32 columns' quads in 128 bytes, so B's column half h is a tile of
 * 16 quads (rows) of 64 bytes at stride 128. tdpbusd and tdpbssd sum
 * quads into s32 exactly, as vpdpbusd does.
 *
 * The last K step of fewer than 16 quads and the tile rows past m are
 * the only ragged edges: rows through the tile configuration (loaded when
 * the row count changes, released by the frame),
 * the K tail through zero-padded copies, so no tile reads past a row or
 * a panel. */
#include <immintrin.h>
#include <string.h>

#include "cpu/gemm/gemm_s8_impl.h"
#include "cpu/gemm/ukr/gemm_s8_store_avx512.h"

#define MR 32
#define NR 32
#define KSTEP 16 /* K quads per tile product: 64 bytes of an A row */
#define PANEL_ROW (NR * 4)

/* GCC's tile intrinsics tell the compiler that ldtilecfg reads the first
 * 8 bytes of its config and that tileloadd reads no memory at all, so the
 * stores they depend on could be dropped or sunk (GCC 12 dropped a whole
 * config): a compiler barrier before them makes those stores happen. */
#define TSR_AMX_MEMORY_BARRIER() __asm__ volatile("" ::: "memory")

typedef struct {
    uint8_t palette, start_row;
    uint8_t reserved0[14];
    uint16_t colsb[16];
    uint8_t rows[16];
} tile_config_t;

/* The rows this thread's tiles are configured for (0: none). Loading a
 * config costs about 3% of a 1024^3 GEMM when done per call, so the calls
 * of one GEMM rectangle keep it, and the frame releases the tiles once at
 * the end (tsr_gemm_s8_release_amx); nothing else runs on the tiles in
 * between. */
static _Thread_local int64_t configured_rows = 0, configured_step = 0;

/* Tiles for m rows (1 to 32), the second row half only when m > 16, and
 * K steps of `step` quads (1 to 16): A tiles of 4 * step bytes per row, B
 * tiles of step rows. */
static void configure_tiles(int64_t m, int64_t step) {
    /* A config for 32 rows serves 16 too (the second half unused). */
    if (step == configured_step &&
        (m == configured_rows || (m == 16 && configured_rows == 32)))
        return;
    configured_rows = m;
    configured_step = step;
    tile_config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.palette = 1;
    const int r0 = m < 16 ? (int)m : 16, r1 = m > 16 ? (int)m - 16 : 0;
    const int half_rows[6] = {r0, r0, r1, r1, r0, r1};
    for (int t = 0; t < 6; ++t)
        if (half_rows[t]) {
            cfg.rows[t] = (uint8_t)half_rows[t];
            cfg.colsb[t] = t < 4 ? 64 : (uint16_t)(4 * step);
        }
    cfg.rows[6] = cfg.rows[7] = (uint8_t)step;
    cfg.colsb[6] = cfg.colsb[7] = 64;
    TSR_AMX_MEMORY_BARRIER();
    _tile_loadconfig(&cfg);
}

/* C tile c += A tile a x B tile b: u8 or s8 A quads, s8 B quads. */
#define TSR_AMX_DP(a_s8, c, a, b)                                              \
    do {                                                                       \
        if (a_s8)                                                              \
            _tile_dpbssd(c, a, b);                                             \
        else                                                                   \
            _tile_dpbusd(c, a, b);                                             \
    } while (0)

/* B tiles load with the non-temporal hint when no later tile of the call
 * reads them from L1: in calls of one row tile of A rows (the frame's
 * slices, a_rows_slice), and for panels over K >= B_STREAMED_MIN_K bytes
 * (32 KiB and more), which do not fit L1 beside the A rows of a tile: B
 * kept there only evicts the A rows, which the next column half reads
 * again. Shorter panels stay in L1 for the next row tile (ResNet-50
 * u8s8u8 mb1 on 2 threads: layers with K >= 1024 +5% to +12%; streamed,
 * those with K <= 576 lost 2% to 6%). */
#define B_STREAMED_MIN_K 1024

#define TSR_AMX_LOAD_B(b_nt, t, b, ldb)                                        \
    do {                                                                       \
        if (b_nt)                                                              \
            _tile_stream_loadd(t, b, ldb);                                     \
        else                                                                   \
            _tile_loadd(t, b, ldb);                                            \
    } while (0)

/* One K step of the tile: A's halves at a (row stride lda), B's panel
 * step at b (row stride PANEL_ROW). */
#define TSR_AMX_STEP(a_s8, two_halves, b_nt, a, lda, b, ldb)                   \
    do {                                                                       \
        TSR_AMX_LOAD_B(b_nt, 6, (b), (ldb));                                   \
        TSR_AMX_LOAD_B(b_nt, 7, (const char *)(b) + 64, (ldb));                \
        _tile_loadd(4, (a), (lda));                                            \
        TSR_AMX_DP(a_s8, 0, 4, 6);                                             \
        TSR_AMX_DP(a_s8, 1, 4, 7);                                             \
        if (two_halves) {                                                      \
            _tile_loadd(5, (const char *)(a) + 16 * (lda), (lda));             \
            TSR_AMX_DP(a_s8, 2, 5, 6);                                         \
            TSR_AMX_DP(a_s8, 3, 5, 7);                                         \
        }                                                                      \
    } while (0)

/* C rows 0 .. m - 1, n columns := staged (+ C when accumulating). */
static void update_c(int accumulate, const int32_t *staged, int32_t *c,
                     int64_t ldc, int64_t m, int64_t n) {
    __mmask16 k0, k1;
    tsr_s8_row_masks(n, &k0, &k1);
    for (int64_t r = 0; r < m; ++r)
        tsr_s8_update_row(
                accumulate, NULL, c + r * ldc,
                _mm512_load_si512((const void *)(staged + r * NR)),
                _mm512_load_si512((const void *)(staged + r * NR + 16)), k0,
                k1);
}

/* A finished tile on its way to its destination. Tiles of A rows store
 * it a few rows at a time between the next tile's K steps, so that the
 * conversions and stores run beside the tile multiplies rather than after
 * them, with the destination lines prefetched for writing a chunk ahead
 * (without the prefetch, 4-byte destinations lost 10%: their stores' line
 * misses held up the tile loads). Matmul on 2 threads, with the streamed
 * B: 1024^3 u8s8u8 +9% to +12%, s8s8f32 +5% to +8% (since taken by the
 * frame's row slices, one tile per call), K = 3072 +3% to +6%. The
 * tap-offsets convolutions store each tile after its product:
 * interleaved there, they measured 0.95x to 1.0x. */
typedef struct {
    const int32_t *staged; /* m rows of NR s32 */
    int64_t m, done;
    const tsr_gemm_s8_tile_dst_t *td; /* &tile_td, or NULL: into C */
    tsr_gemm_s8_tile_dst_t tile_td;
    int accumulate;
    int32_t *c;
    int64_t ldc, n;
} pending_store_t;

/* Interleaved stores go in up to STORE_CHUNKS chunks, from products of at
 * least INTERLEAVE_MIN_STEPS K steps (K >= 1024 bytes; at K = 512 and 768
 * the interleaved stores measured 0.97x to 1.0x). */
#define STORE_CHUNKS 8
#define INTERLEAVE_MIN_STEPS 16

/* Prefetches for writing the destinations of rows [r0, r1) of p. Inlined:
 * GCC finds a separate function of prefetches free of side effects and
 * drops its calls. */
static inline __attribute__((always_inline)) void
prefetch_pending_rows(const pending_store_t *p, int64_t r0, int64_t r1) {
    if (r1 > p->m)
        r1 = p->m;
    for (int64_t r = r0; r < r1; ++r) {
        const char *row;
        int64_t bytes;
        if (p->td) {
            const tsr_gemm_s8_tile_dst_t *td = p->td;
            if (td->row_off && td->row_off[r] < 0)
                continue;
            row = td->row_off ? td->dst + td->row_off[r] * td->common->dt_bytes
                              : td->dst + r * td->row_bytes;
            bytes = NR * td->common->dt_bytes;
        } else {
            row = (const char *)(p->c + r * p->ldc);
            bytes = p->n * (int64_t)sizeof(int32_t);
        }
        __builtin_prefetch(row, 1, 3);
        __builtin_prefetch(row + bytes - 1, 1, 3);
    }
}

/* The next `rows` rows (at most those left) of p to their destination,
 * the destinations of the `rows` after them prefetched. */
static inline __attribute__((always_inline)) void
store_pending_rows(pending_store_t *p, int64_t rows) {
    if (rows > p->m - p->done)
        rows = p->m - p->done;
    if (rows <= 0)
        return;
    const int32_t *staged = p->staged + p->done * NR;
    if (p->td) {
        const tsr_gemm_s8_tile_dst_t td =
                tsr_gemm_s8_tile_dst_from(&p->tile_td, p->done);
        tsr_gemm_s8_store_staged(&td, td.common->rows32, staged, NR, rows);
    } else {
        update_c(p->accumulate, staged, p->c + p->done * p->ldc, p->ldc, rows,
                 p->n);
    }
    p->done += rows;
    prefetch_pending_rows(p, p->done, p->done + rows);
}

/* After each K step with `interleave`: a chunk of prev's rows every
 * `interval` steps. */
#define STORE_CHUNK_AFTER_STEP()                                               \
    do {                                                                       \
        if (interleave && --countdown == 0) {                                  \
            countdown = interval;                                              \
            store_pending_rows(prev, chunk_rows);                              \
        }                                                                      \
    } while (0)

/* The product of an m-row tile over ntaps taps of kq quads each into
 * staged (32 rows of 32 s32), starting from `start` in every row (NULL:
 * zeros): tap t's A rows at a + off[t] (row stride lda), its B quads from
 * quad t * kq of the panel b, in K steps of `step` quads (the configured
 * one); a last step of fewer (step KSTEP only) goes through zero-padded
 * copies. With `interleave`, the rows of prev are stored on the way. */
static inline __attribute__((always_inline)) void
tile_product(int a_s8, int two_halves, int b_nt, int interleave, int64_t ntaps,
             const int64_t *off, int64_t kq, int64_t step, const uint8_t *a,
             int64_t lda, const int8_t *b, const int32_t *start, int64_t m,
             pending_store_t *prev, int32_t *staged) {
    TSR_AMX_MEMORY_BARRIER(); /* start, A and B as the caller wrote them */
    if (start) {
        /* A zero stride repeats the start row in every tile row. */
        _tile_loadd(0, start, 0);
        _tile_loadd(1, start + 16, 0);
        if (two_halves) {
            _tile_loadd(2, start, 0);
            _tile_loadd(3, start + 16, 0);
        }
    } else {
        _tile_zero(0);
        _tile_zero(1);
        if (two_halves) {
            _tile_zero(2);
            _tile_zero(3);
        }
    }
    const int64_t kfull = kq / step * step;
    /* Chunks of prev's rows every `interval` K steps (an empty product,
     * K == 0, has none and stores them all at the end). */
    int64_t interval = 1, chunk_rows = 0;
    if (interleave) {
        const int64_t steps = ntaps * ((kq + step - 1) / step);
        if (steps > 0) {
            interval = steps > STORE_CHUNKS ? steps / STORE_CHUNKS : 1;
            const int64_t chunks = steps / interval;
            chunk_rows = (prev->m + chunks - 1) / chunks;
        }
        prefetch_pending_rows(prev, 0, chunk_rows);
    }
    int64_t countdown = interval;
    for (int64_t t = 0; t < ntaps; ++t) {
        const uint8_t *at = a + off[t];
        const int8_t *bt = b + t * kq * PANEL_ROW;
        for (int64_t g = 0; g < kfull; g += step) {
            TSR_AMX_STEP(a_s8, two_halves, b_nt, at + 4 * g, lda,
                         bt + g * PANEL_ROW, PANEL_ROW);
            STORE_CHUNK_AFTER_STEP();
        }
        if (kfull == kq)
            continue;
        const int64_t kr = kq - kfull;
        uint8_t a_tail[MR * 64] __attribute__((aligned(64)));
        int8_t b_tail[KSTEP * PANEL_ROW] __attribute__((aligned(64)));
        memset(a_tail, 0, sizeof(a_tail));
        memset(b_tail + kr * PANEL_ROW, 0, (size_t)((KSTEP - kr) * PANEL_ROW));
        for (int64_t r = 0; r < m; ++r)
            memcpy(a_tail + r * 64, at + r * lda + 4 * kfull, (size_t)(4 * kr));
        memcpy(b_tail, bt + kfull * PANEL_ROW, (size_t)(kr * PANEL_ROW));
        TSR_AMX_MEMORY_BARRIER();
        TSR_AMX_STEP(a_s8, two_halves, 0, a_tail, 64, b_tail, PANEL_ROW);
        STORE_CHUNK_AFTER_STEP();
    }
    if (interleave)
        store_pending_rows(prev, prev->m);
    _tile_stored(0, staged, NR * 4);
    _tile_stored(1, staged + 16, NR * 4);
    if (two_halves) {
        _tile_stored(2, staged + 16 * NR, NR * 4);
        _tile_stored(3, staged + 16 * NR + 16, NR * 4);
    }
}

/* Tiles of 32 rows over all `rows`: see tile_product for the taps. With
 * `interleave`, each tile's store runs during the next tile's product,
 * the last one's after it; else right after the tile's own. */
static inline __attribute__((always_inline)) void
row_tiles(int a_s8, int interleave, int b_nt, int64_t ntaps, const int64_t *off,
          int64_t kq, int64_t step, const void *a_, int64_t lda, const void *b_,
          int accumulate, const int32_t *init, int32_t *c_, int64_t ldc,
          int64_t rows, int64_t n, const tsr_gemm_s8_tile_dst_t *td_) {
    /* One buffer: a tile's product stores all of the previous tile's rows
     * before its own sums go there. */
    int32_t staged[MR * NR] __attribute__((aligned(64)));
    /* Accumulating tiles add to C, which already holds init. A tile
     * load reads all 32 columns: a shorter init is padded first. */
    const int32_t *start = accumulate ? NULL : init;
    int32_t start_row[NR] __attribute__((aligned(64)));
    if (start && n < NR) {
        memset(start_row, 0, sizeof(start_row));
        memcpy(start_row, start, (size_t)n * sizeof(int32_t));
        start = start_row;
    }
    pending_store_t prev = {.m = 0};
    for (int64_t i = 0; i < rows; i += MR) {
        const uint8_t *a = (const uint8_t *)a_ + i * lda;
        const int64_t m = rows - i < MR ? rows - i : MR;
        configure_tiles(m, step);
        if (m > 16)
            tile_product(a_s8, 1, b_nt, interleave, ntaps, off, kq, step, a,
                         lda, b_, start, m, &prev, staged);
        else
            tile_product(a_s8, 0, b_nt, interleave, ntaps, off, kq, step, a,
                         lda, b_, start, m, &prev, staged);
        prev = (pending_store_t){.staged = staged,
                                 .m = m,
                                 .accumulate = accumulate,
                                 .c = c_ + i * ldc,
                                 .ldc = ldc,
                                 .n = n};
        if (td_) {
            prev.tile_td = tsr_gemm_s8_tile_dst_from(td_, i);
            prev.td = &prev.tile_td;
        }
        if (!interleave)
            store_pending_rows(&prev, m);
    }
    store_pending_rows(&prev, prev.m);
}

/* row_tiles for one type of A rows and one way of storing, each compiled
 * on its own: with both ways inlined into one entry, the stored-after
 * path's K loop lost 8-15% (ResNet-50 res3b_branch2a, K = 512). */
#define TSR_AMX_ROW_TILES_FN(name, a_s8, interleave)                           \
    static __attribute__((noinline)) void name(                                \
            int b_nt, int64_t ntaps, const int64_t *off, int64_t kq,           \
            int64_t step, const void *a, int64_t lda, const void *b,           \
            int accumulate, const int32_t *init, int32_t *c, int64_t ldc,      \
            int64_t rows, int64_t n, const tsr_gemm_s8_tile_dst_t *td) {       \
        row_tiles(a_s8, interleave, b_nt, ntaps, off, kq, step, a, lda, b,     \
                  accumulate, init, c, ldc, rows, n, td);                      \
    }
TSR_AMX_ROW_TILES_FN(u8_rows_stored_after, 0, 0)
TSR_AMX_ROW_TILES_FN(u8_rows_interleaved, 0, 1)
TSR_AMX_ROW_TILES_FN(s8_rows_stored_after, 1, 0)
TSR_AMX_ROW_TILES_FN(s8_rows_interleaved, 1, 1)

void tsr_gemm_s8_release_amx(void) {
    if (configured_rows) {
        _tile_release();
        configured_rows = configured_step = 0;
    }
}

void tsr_gemm_s8_ukr_32x32_a_rows_avx512_amx(
        int64_t kgroups, const void *a, int64_t lda, const void *b,
        int accumulate, const int32_t *init, int32_t *c, int64_t ldc,
        int64_t rows, int64_t n, const tsr_gemm_s8_tile_dst_t *td) {
    const int64_t off0 = 0;
    const int b_nt = rows <= MR || kgroups * 4 >= B_STREAMED_MIN_K;
    (kgroups >= INTERLEAVE_MIN_STEPS * KSTEP
             ? u8_rows_interleaved
             : u8_rows_stored_after)(b_nt, 1, &off0, kgroups, KSTEP, a, lda, b,
                                     accumulate, init, c, ldc, rows, n, td);
}

void tsr_gemm_s8_ukr_32x32_s8_rows_avx512_amx(
        int64_t kgroups, const void *a, int64_t lda, const void *b,
        int accumulate, const int32_t *init, int32_t *c, int64_t ldc,
        int64_t rows, int64_t n, const tsr_gemm_s8_tile_dst_t *td) {
    const int64_t off0 = 0;
    const int b_nt = rows <= MR || kgroups * 4 >= B_STREAMED_MIN_K;
    (kgroups >= INTERLEAVE_MIN_STEPS * KSTEP
             ? s8_rows_interleaved
             : s8_rows_stored_after)(b_nt, 1, &off0, kgroups, KSTEP, a, lda, b,
                                     accumulate, init, c, ldc, rows, n, td);
}

void tsr_gemm_s8_ukr_32x32_tap_offs_avx512_amx(
        int a_s8, const tsr_gemm_s8_tap_offs_t *taps, const void *a,
        int64_t lda, const void *b, const int32_t *init, int32_t *c,
        int64_t ldc, int64_t rows, int64_t n,
        const tsr_gemm_s8_tile_dst_t *td) {
    const int64_t kq = taps->k_tap / 4;
    const int64_t step = tsr_gemm_s8_tap_step_quads(kq);
    const int b_nt = taps->ntaps * taps->k_tap >= B_STREAMED_MIN_K;
    (a_s8 ? s8_rows_stored_after
          : u8_rows_stored_after)(b_nt, taps->ntaps, taps->off, kq, step, a,
                                  lda, b, 0, init, c, ldc, rows, n, td);
}
