/* Internals of the int8 GEMM shared by the frame, packing and micro-kernels
 * (and the GEMM test). */
#ifndef TSR_CPU_GEMM_GEMM_S8_IMPL_H
#define TSR_CPU_GEMM_GEMM_S8_IMPL_H

#include <stdint.h>

#include "cpu/common/epilogue_f32.h"
#include "cpu/gemm/gemm_taps.h"
#include "tessera.h"

/* How a kernel wants its panels. K is cut into groups of `kgroup`
 * consecutive values (the last one zero-padded); a panel of `width` lines
 * (rows of A, columns of B) stores, group after group, the kgroup values of
 * each line in turn:
 *   s16 pairs (kgroup 2): int16_t values, A and B both widened, so
 *     vpmaddwd-style pair products are exact;
 *   u8 x s8 quads (kgroup 4): A as uint8_t (s8 sources shifted by +128,
 *     which the frame compensates with -128 * colsum(B)), B as int8_t, for
 *     vpdpbusd-style quad products. */
typedef enum {
    tsr_gemm_s8_layout_s16_pairs,
    tsr_gemm_s8_layout_u8s8_quads,
} tsr_gemm_s8_layout_t;

/* Micro-kernel contract: on packed panels `a` (kgroups groups of mr lines)
 * and `b` (kgroups groups of nr lines) computes the mr x nr product P and
 * writes the top-left m x n corner (m <= mr, n <= nr) of the tile at `c`
 * (row stride ldc):
 *   accumulate == 0: C := init[j] + P  (init NULL: zeros; C not read)
 *   accumulate == 1: C += P
 * Rows and columns outside m x n are neither read nor written. Sums wrap
 * modulo 2^32. */
typedef void (*tsr_gemm_s8_ukr_fn)(int64_t kgroups, const void *a,
                                   const void *b, int accumulate,
                                   const int32_t *init, int32_t *c, int64_t ldc,
                                   int64_t m, int64_t n);

/* Where a kernel stores its tile's final values instead of C: through
 * the epilogue's common form into dst (tsr_gemm_s8_dst_t), the tile being
 * columns col .. col + nr - 1 of the call and its row r starting at byte
 * r * row_bytes of `dst`, or with row_off (taps and tap offsets kernels
 * only) at element row_off[r] of dst, not stored where that is negative
 * (row_bytes then is the distance of consecutive points). */
typedef struct {
    const tsr_epilogue_common_t *common;
    int64_t col;
    char *dst;
    int64_t row_bytes;
    const int64_t *row_off;
} tsr_gemm_s8_tile_dst_t;

/* td for the rows from row i of its tile on. */
static inline tsr_gemm_s8_tile_dst_t
tsr_gemm_s8_tile_dst_from(const tsr_gemm_s8_tile_dst_t *td, int64_t i) {
    tsr_gemm_s8_tile_dst_t t = *td;
    if (t.row_off)
        t.row_off += i;
    else
        t.dst += i * t.row_bytes;
    return t;
}

/* A staged tile of final values (m rows of `width` s32, width the
 * store's unit) into td's dst through `store` (rows16 or rows32 of td's
 * common form): one call for rows at a fixed distance, one per run of
 * rows at that distance with row_off. */
static inline void tsr_gemm_s8_store_staged(const tsr_gemm_s8_tile_dst_t *td,
                                            tsr_epilogue_rows16_fn store,
                                            const int32_t *staged, int width,
                                            int64_t m) {
    if (!td->row_off) {
        store(td->common, td->col, staged, m, td->dst, td->row_bytes);
        return;
    }
    /* Runs of rows row_bytes apart in one call; negative rows skipped. */
    const int64_t step = td->row_bytes / td->common->dt_bytes;
    for (int64_t r = 0, run; r < m; r += run) {
        run = 1;
        if (td->row_off[r] < 0)
            continue;
        while (r + run < m &&
               td->row_off[r + run] == td->row_off[r] + run * step)
            run++;
        store(td->common, td->col, staged + r * width, run,
              td->dst + td->row_off[r] * td->common->dt_bytes, td->row_bytes);
    }
}

/* The same with A read in place, over any number of rows m (tile after
 * tile of mr rows, C row i at c + i * ldc): u8 rows of at least
 * 4 * kgroups values, row i < m at a + i * lda (no packing, no shift: the
 * u8 x s8 quad layout with a u8 source); rows past m are not read. With
 * `td` (NULL: none; n == nr and accumulate 0 then: the whole of K in this
 * call) the values go to td's dst (row i at byte i * td->row_bytes) and C
 * is not written. */
typedef void (*tsr_gemm_s8_ukr_a_rows_fn)(int64_t kgroups, const void *a,
                                          int64_t lda, const void *b,
                                          int accumulate, const int32_t *init,
                                          int32_t *c, int64_t ldc, int64_t m,
                                          int64_t n,
                                          const tsr_gemm_s8_tile_dst_t *td);

/* The product of a full-width tile over a list of taps, A given by row
 * pointers: for each listed tap i (taps[i], in increasing order), row r
 * of A is the u8 row rows[i * mr + r] of 4 * kgroups values, B the K
 * values from taps[i] * 4 * kgroups of the packed panel b (u8 x s8 quad
 * layout over all of K). C := init + P (init NULL: zeros) on the top-left
 * m x n corner, or into td's dst as above. The direct form of a
 * convolution: a tap's rows are source
 * points, those in the padding a row of zeros, and taps whose rows all lie
 * in the padding are left out of the list. */
typedef void (*tsr_gemm_s8_ukr_taps_fn)(int64_t ntaps, const int32_t *taps,
                                        const void *const *rows,
                                        int64_t kgroups, const void *b,
                                        const int32_t *init, int32_t *c,
                                        int64_t ldc, int64_t m, int64_t n,
                                        const tsr_gemm_s8_tile_dst_t *td);

/* The same over all of K in one call with A by tap offsets
 * (tsr_gemm_s8_tap_offs_t; u8 rows, or s8 ones with a_s8): C := init + P
 * (init NULL: zeros), or into td's dst. */
typedef void (*tsr_gemm_s8_ukr_tap_offs_fn)(
        int a_s8, const tsr_gemm_s8_tap_offs_t *taps, const void *a,
        int64_t lda, const void *b, const int32_t *init, int32_t *c,
        int64_t ldc, int64_t m, int64_t n, const tsr_gemm_s8_tile_dst_t *td);

/* The K quads per tile product of the AMX kernel on taps of kq quads:
 * whole 64-byte steps where they divide a tap, a short tap (e.g. 48
 * channels) in one narrower step, else the largest divisor from 8 to 16,
 * or 16 with a zero-padded last step. */
static inline int64_t tsr_gemm_s8_tap_step_quads(int64_t kq) {
    if (kq < 16)
        return kq;
    for (int64_t s = 16; s >= 8; --s)
        if (kq % s == 0)
            return s;
    return 16;
}

/* For the micro-kernels of 6-row tiles: expands BODY(rows) with rows the
 * literal value of the tile's row count m (1 to 6, a variable in scope),
 * so that each expansion computes only the rows it has. */
#define TSR_GEMM_S8_BY_ROWS(BODY)                                              \
    switch (m) {                                                               \
    case 1: {                                                                  \
        BODY(1);                                                               \
        break;                                                                 \
    }                                                                          \
    case 2: {                                                                  \
        BODY(2);                                                               \
        break;                                                                 \
    }                                                                          \
    case 3: {                                                                  \
        BODY(3);                                                               \
        break;                                                                 \
    }                                                                          \
    case 4: {                                                                  \
        BODY(4);                                                               \
        break;                                                                 \
    }                                                                          \
    case 5: {                                                                  \
        BODY(5);                                                               \
        break;                                                                 \
    }                                                                          \
    default: {                                                                 \
        BODY(6);                                                               \
        break;                                                                 \
    }                                                                          \
    }

/* The body of a tsr_gemm_s8_ukr_a_rows_fn over its parameters (a_, lda,
 * b_, c_, ldc, rows, td_): tile after tile of 6 rows, each through
 * TSR_GEMM_S8_BY_ROWS(BODY) with a, b, c, m and td in scope. One call per
 * column panel of a block, as a call per tile cost 5-7% of a 1x1 layer
 * with K = 64. */
#define TSR_GEMM_S8_A_ROWS_TILES(BODY)                                         \
    tsr_gemm_s8_tile_dst_t tile_td;                                            \
    const tsr_gemm_s8_tile_dst_t *td = td_ ? &tile_td : NULL;                  \
    for (int64_t i = 0; i < rows; i += 6) {                                    \
        const uint8_t *a = (const uint8_t *)a_ + i * lda;                      \
        const int8_t *b = b_;                                                  \
        int32_t *c = c_ + i * ldc;                                             \
        const int64_t m = rows - i < 6 ? rows - i : 6;                         \
        if (td_)                                                               \
            tile_td = tsr_gemm_s8_tile_dst_from(td_, i);                       \
        TSR_GEMM_S8_BY_ROWS(BODY)                                              \
    }

/* Packs a block into panels of `width` lines in `layout`: element (x, p),
 * x < lines, p < depth, is src[x * stride_x + p * stride_p]; values past
 * `lines` or `depth` are zero (B's zero K padding cancels whatever A
 * holds there; padded lines are never stored). is_a selects the A
 * conversion of the layout; src_u8 tells whether src holds uint8_t (else
 * int8_t). Panel q starts at value q * rnd_up(depth, kgroup) * width. */
typedef void (*tsr_gemm_s8_pack_fn)(tsr_gemm_s8_layout_t layout, int is_a,
                                    int src_u8, const void *src,
                                    int64_t stride_x, int64_t stride_p,
                                    int64_t lines, int64_t depth, int width,
                                    void *dst);

/* Few-rows kernel: C (m <= TSR_GEMM_S8_SMALL_M rows, n <= 16 columns, row
 * stride ldc) from A packed as s16 pairs of TSR_GEMM_S8_SMALL_M lines
 * (depth k) and B read as stored: K x n row-major with row stride ldb, only
 * k rows and n columns read. accumulate and init as the micro-kernel. For
 * products of a few rows, where packing B (K x N values) would cost more
 * than the product itself. */
#define TSR_GEMM_S8_SMALL_M 4
typedef void (*tsr_gemm_s8_small_m_fn)(int64_t k, const void *a,
                                       const int8_t *b, int64_t ldb,
                                       int accumulate, const int32_t *init,
                                       int32_t *c, int64_t ldc, int64_t m,
                                       int64_t n);

/* Row r < m of dst (at dst + r * ld_dst) = the n s8 values at rows[r]
 * plus 128, as u8 (x ^ 0x80): the shift that the column init's
 * -128 * colsum(B) makes up. One pass over an A block that every column
 * panel then reads, where shifting each quad in registers would cost one
 * more vector operation per row and panel (a third of the VNNI kernel's
 * issue slots). */
typedef void (*tsr_gemm_s8_shift_rows_fn)(void *dst, int64_t ld_dst,
                                          const void *const *rows, int64_t m,
                                          int64_t n);

/* 1 when a packed B block (`bytes` bytes) meets a kernel's precondition on
 * its values. */
typedef int (*tsr_gemm_s8_b_fits_fn)(const int8_t *packed_b, int64_t bytes);

/* A micro-kernel with its layout, packing and cache blocking: mc is a
 * multiple of mr, nc of nr, kc of the group size. small_m (NULL: none) is
 * its few-rows kernel, on the s16 pair layout with 16 columns per call.
 * A kernel with a b_fits precondition runs only on the B blocks that meet
 * it; the others go to its `fallback` kernel, which has the same mr, nr,
 * mc, kc and nc and no precondition. */
typedef struct tsr_gemm_s8_kernel {
    const char *name;
    tsr_cpu_isa_t isa;
    tsr_gemm_s8_layout_t layout;
    int mr, nr;
    int64_t mc, kc, nc;
    /* NULL: A is always read as u8 rows over all of K by ukr_a_rows,
     * copied into a block of rows where it cannot be read in place. */
    tsr_gemm_s8_ukr_fn ukr;
    tsr_gemm_s8_ukr_fn ukr_tail;          /* tiles of m < mr rows; NULL: ukr */
    tsr_gemm_s8_ukr_a_rows_fn ukr_a_rows; /* NULL: A always packed */
    /* ukr_a_rows for s8 rows times the s8 B quads as they are (no shift,
     * no compensation); NULL: s8 rows are shifted or packed. */
    tsr_gemm_s8_ukr_a_rows_fn ukr_s8_rows;
    /* Rows per ukr_a_rows / ukr_s8_rows call, which then walk every panel
     * of a B block for one slice of rows before the next; 0: a call per
     * panel over a whole block of rows. */
    int a_rows_slice;
    tsr_gemm_s8_ukr_taps_fn ukr_taps;         /* NULL: no direct taps */
    tsr_gemm_s8_ukr_tap_offs_fn ukr_tap_offs; /* NULL: no tap offsets */
    /* s8 rows that would be read in place or by taps are shifted into a
     * block of u8 rows for ukr_a_rows instead; NULL: s8 A is packed. */
    tsr_gemm_s8_shift_rows_fn shift_rows;
    int single_tap; /* 1: ukr_taps also serves a single tap */
    tsr_gemm_s8_pack_fn pack;
    tsr_gemm_s8_small_m_fn small_m;
    tsr_gemm_s8_b_fits_fn b_fits;
    const struct tsr_gemm_s8_kernel *fallback;
    /* Calls of fewer rows than this go to `few_rows` (same B layout). */
    int64_t min_rows;
    const struct tsr_gemm_s8_kernel *few_rows;
    /* Called by a thread after its last kernel call of a GEMM (NULL:
     * nothing to do): the AMX kernels keep the tiles configured between
     * calls. */
    void (*release)(void);
} tsr_gemm_s8_kernel_t;

/* The kernel tsr_gemm_s8 uses on this CPU (per tsr_mayiuse). */
const tsr_gemm_s8_kernel_t *tsr_gemm_s8_select_kernel(void);

/* K values per group and bytes per packed value of a layout. */
static inline int tsr_gemm_s8_kgroup(tsr_gemm_s8_layout_t layout) {
    return layout == tsr_gemm_s8_layout_s16_pairs ? 2 : 4;
}
static inline int tsr_gemm_s8_elem_bytes(tsr_gemm_s8_layout_t layout) {
    return layout == tsr_gemm_s8_layout_s16_pairs ? 2 : 1;
}

/* tsr_gemm_s8_pack_fn implementations: portable (every layout), AVX2
 * (the hot cases for widths 6 and 16, deferring to the portable one for
 * the rest) and AVX-512 (32-wide B quad panels from columns stored
 * contiguously, deferring to the AVX2 one for the rest). */
void tsr_gemm_s8_pack(tsr_gemm_s8_layout_t layout, int is_a, int src_u8,
                      const void *src, int64_t stride_x, int64_t stride_p,
                      int64_t lines, int64_t depth, int width, void *dst);
void tsr_gemm_s8_pack_avx2(tsr_gemm_s8_layout_t layout, int is_a, int src_u8,
                           const void *src, int64_t stride_x, int64_t stride_p,
                           int64_t lines, int64_t depth, int width, void *dst);
void tsr_gemm_s8_pack_avx512(tsr_gemm_s8_layout_t layout, int is_a, int src_u8,
                             const void *src, int64_t stride_x,
                             int64_t stride_p, int64_t lines, int64_t depth,
                             int width, void *dst);

void tsr_gemm_s8_ukr_6x16_avx2(int64_t kgroups, const void *a, const void *b,
                               int accumulate, const int32_t *init, int32_t *c,
                               int64_t ldc, int64_t m, int64_t n);
void tsr_gemm_s8_small_m_avx2(int64_t k, const void *a, const int8_t *b,
                              int64_t ldb, int accumulate, const int32_t *init,
                              int32_t *c, int64_t ldc, int64_t m, int64_t n);
/* The AVX2 quad kernel (vpmaddubsw) and its precondition: every pair of
 * adjacent K values of each column has |b0| + |b1| <= 128, so its s16 pair
 * sums cannot saturate (see its file). */
void tsr_gemm_s8_ukr_6x16_u8s8_avx2(int64_t kgroups, const void *a,
                                    const void *b, int accumulate,
                                    const int32_t *init, int32_t *c,
                                    int64_t ldc, int64_t m, int64_t n);
void tsr_gemm_s8_ukr_6x16_u8s8_tail_avx2(int64_t kgroups, const void *a,
                                         const void *b, int accumulate,
                                         const int32_t *init, int32_t *c,
                                         int64_t ldc, int64_t m, int64_t n);
void tsr_gemm_s8_ukr_6x16_u8s8_a_rows_avx2(int64_t kgroups, const void *a,
                                           int64_t lda, const void *b,
                                           int accumulate, const int32_t *init,
                                           int32_t *c, int64_t ldc, int64_t m,
                                           int64_t n,
                                           const tsr_gemm_s8_tile_dst_t *td);
void tsr_gemm_s8_ukr_6x16_u8s8_taps_avx2(int64_t ntaps, const int32_t *taps,
                                         const void *const *rows,
                                         int64_t kgroups, const void *b,
                                         const int32_t *init, int32_t *c,
                                         int64_t ldc, int64_t m, int64_t n,
                                         const tsr_gemm_s8_tile_dst_t *td);
int tsr_gemm_s8_b_narrow_avx2(const int8_t *packed_b, int64_t bytes);
void tsr_gemm_s8_ukr_6x32_avx512_vnni(int64_t kgroups, const void *a,
                                      const void *b, int accumulate,
                                      const int32_t *init, int32_t *c,
                                      int64_t ldc, int64_t m, int64_t n);
void tsr_gemm_s8_ukr_6x32_tail_avx512_vnni(int64_t kgroups, const void *a,
                                           const void *b, int accumulate,
                                           const int32_t *init, int32_t *c,
                                           int64_t ldc, int64_t m, int64_t n);
void tsr_gemm_s8_ukr_6x32_a_rows_avx512_vnni(int64_t kgroups, const void *a,
                                             int64_t lda, const void *b,
                                             int accumulate,
                                             const int32_t *init, int32_t *c,
                                             int64_t ldc, int64_t m, int64_t n,
                                             const tsr_gemm_s8_tile_dst_t *td);
void tsr_gemm_s8_shift_rows_avx512_vnni(void *dst, int64_t ld_dst,
                                        const void *const *rows, int64_t m,
                                        int64_t n);
void tsr_gemm_s8_ukr_6x32_taps_avx512_vnni(int64_t ntaps, const int32_t *taps,
                                           const void *const *rows,
                                           int64_t kgroups, const void *b,
                                           const int32_t *init, int32_t *c,
                                           int64_t ldc, int64_t m, int64_t n,
                                           const tsr_gemm_s8_tile_dst_t *td);

/* The AMX kernel reads A as rows only (ukr_a_rows for u8 rows,
 * ukr_s8_rows for s8 ones, ukr_tap_offs by tap offsets; no packed-A
 * ukr). */
void tsr_gemm_s8_ukr_32x32_a_rows_avx512_amx(int64_t kgroups, const void *a,
                                             int64_t lda, const void *b,
                                             int accumulate,
                                             const int32_t *init, int32_t *c,
                                             int64_t ldc, int64_t m, int64_t n,
                                             const tsr_gemm_s8_tile_dst_t *td);
void tsr_gemm_s8_ukr_32x32_tap_offs_avx512_amx(
        int a_s8, const tsr_gemm_s8_tap_offs_t *taps, const void *a,
        int64_t lda, const void *b, const int32_t *init, int32_t *c,
        int64_t ldc, int64_t m, int64_t n, const tsr_gemm_s8_tile_dst_t *td);
void tsr_gemm_s8_release_amx(void);
void tsr_gemm_s8_ukr_32x32_s8_rows_avx512_amx(int64_t kgroups, const void *a,
                                              int64_t lda, const void *b,
                                              int accumulate,
                                              const int32_t *init, int32_t *c,
                                              int64_t ldc, int64_t m, int64_t n,
                                              const tsr_gemm_s8_tile_dst_t *td);

/* The portable kernel works on the quad layout, so the shift and
 * compensation path of the VNNI kernel is exercised on every CPU. */
#define TSR_GEMM_S8_REF_MR 4
#define TSR_GEMM_S8_REF_NR 8
void tsr_gemm_s8_ukr_ref(int64_t kgroups, const void *a, const void *b,
                         int accumulate, const int32_t *init, int32_t *c,
                         int64_t ldc, int64_t m, int64_t n);

#endif
