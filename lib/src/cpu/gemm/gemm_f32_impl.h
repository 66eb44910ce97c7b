/* Internals of the f32 GEMM shared by the frame, packing and micro-kernels
 * (and the GEMM test). */
#ifndef TSR_CPU_GEMM_GEMM_F32_IMPL_H
#define TSR_CPU_GEMM_GEMM_F32_IMPL_H

#include <stdint.h>

#include "tessera.h"

/* Micro-kernel contract: on a packed panel `a` (k steps of mr values;
 * a_ld == 0), or mr full rows of A read in place (row i at a + i * a_ld,
 * step p at a + p) and
 * a panel `b` of k steps of nr values, step p at b + p * b_stride (nr for a
 * packed panel, the leading dim when B is read in place), computes the
 * mr x nr product and writes
 *   C := alpha * product + beta * C  [+ bias]
 * to the top-left m x n corner (m <= mr, n <= nr) of the tile at `c`, row
 * stride ldc. Rows and columns outside m x n are neither read nor written;
 * beta == 0 does not read C. The bias, added last at the store, is
 * bias_row[i] for tile row i or bias_col[j] for tile column j (at most one
 * of them non-NULL; both NULL: none). Tail tiles use the same arithmetic as
 * full ones, so a result never depends on where the tile boundaries
 * fall. ahead (or NULL), a hint: mr lines of k floats, line i at ahead +
 * i * ahead_ld (the source of B's next block), fetched a cache line per
 * line at a time along K while the tile runs. */
typedef void (*tsr_gemm_f32_ukr_fn)(int64_t k, float alpha, const float *a,
                                    int64_t a_ld, const float *b,
                                    int64_t b_stride, const float *ahead,
                                    int64_t ahead_ld, float beta, float *c,
                                    int64_t ldc, int64_t m, int64_t n,
                                    const float *bias_row,
                                    const float *bias_col);

/* Packs a block of a matrix into panels of `width` lines for the kernels:
 * element (x, p) of the block, x < lines along M (or N), p < depth along
 * K, is src[x * stride_x + p * stride_p]. Panel q holds, for each p,
 * `width` consecutive values x = q*width .. q*width+width-1; x >= lines is
 * zero-filled. Serves A (panels of mr rows) and B (panels of nr columns),
 * transposed or not. */
typedef void (*tsr_gemm_f32_pack_fn)(const float *src, int64_t stride_x,
                                     int64_t stride_p, int64_t lines,
                                     int64_t depth, int width, float *dst);

/* A kernel for a single row of C over n columns (a multiple of 16): the
 * micro-kernel's arithmetic for tile row 0, with A step p at
 * a + p * a_stride and B in groups of group_cols columns (a multiple of
 * 16), group g's step p at b + g * group_stride + p * b_stride: B as
 * stored (group_stride == group_cols) or prepacked panels. */
typedef void (*tsr_gemm_f32_row_fn)(int64_t k, float alpha, const float *a,
                                    int64_t a_stride, const float *b,
                                    int64_t b_stride, int64_t group_cols,
                                    int64_t group_stride, float beta, float *c,
                                    int64_t n, const float *bias_row,
                                    const float *bias_col);

/* The product of a tile over a list of taps (A by taps, gemm_taps.h):
 * for each listed tap i (taps[i], in increasing order), row r of A is the
 * f32 row rows[i * mr + r] of k_tap values, B the K values from
 * taps[i] * k_tap of the packed panel b (all of K, nr values per step).
 * Stores row r < m (n <= nr columns) as the micro-kernel does, at
 * c_rows[r]: alpha * product + beta * C [+ bias]. */
typedef void (*tsr_gemm_f32_ukr_taps_fn)(int64_t ntaps, const int32_t *taps,
                                         const void *const *rows, int64_t k_tap,
                                         const float *b, float alpha,
                                         float beta, float *const *c_rows,
                                         int64_t m, int64_t n,
                                         const float *bias_row,
                                         const float *bias_col);

/* Tiles of m <= mr rows of A read in place (row stride lda; rows past m
 * are not read) times two adjacent packed B panels (nr values per K step
 * each, the second b_next_panel floats after the first): C's m x n tile,
 * nr < n <= 2 * nr, with the arithmetic of tsr_gemm_f32_ukr_fn. ahead (or
 * NULL): mr lines of k floats, line i at ahead + i * ahead_ld (later rows
 * of A, or B for the next block), fetched a cache line per line at a time
 * along K while the tile runs. b_src (or NULL): the tile packs the two
 * panels as it runs: it reads the 2 * nr columns of K step p from B as
 * stored, at b_src + p * b_src_ld, instead of from b, and stores them
 * packed at b_dst (the second panel b_next_panel floats on; n == 2 * nr). */
typedef void (*tsr_gemm_f32_ukr_wide_fn)(
        int64_t k, float alpha, const float *a, int64_t lda, const float *ahead,
        int64_t ahead_ld, const float *b, int64_t b_next_panel,
        const float *b_src, int64_t b_src_ld, float *b_dst, float beta,
        float *c, int64_t ldc, int64_t m, int64_t n, const float *bias_row,
        const float *bias_col);

/* Full mr-row tiles (the plain kernel's mr) of A by taps (row i of tap t
 * at rows[t * rows_step + i]) times two adjacent prepacked B panels (the
 * second b_next_panel floats after the first): c_rows' mr x n tile,
 * nr < n <= 2 * nr, with the arithmetic of tsr_gemm_f32_ukr_taps_fn. */
typedef void (*tsr_gemm_f32_ukr_taps_wide_fn)(
        int64_t ntaps, const int32_t *taps, const void *const *rows,
        int64_t rows_step, int64_t k_tap, const float *b, int64_t b_next_panel,
        float alpha, float beta, float *const *c_rows, int64_t n,
        const float *bias_row, const float *bias_col);

/* A micro-kernel, the packing that feeds it and the cache blocking that
 * suits it. mc is a multiple of mr, nc of nr. kc is a property of the
 * kernel alone, never of the thread count: it fixes the summation order. */
typedef struct {
    const char *name;
    tsr_cpu_isa_t isa;
    int mr, nr;
    int64_t mc, kc, nc;
    tsr_gemm_f32_ukr_fn ukr;
    tsr_gemm_f32_pack_fn pack;
    tsr_gemm_f32_row_fn row; /* NULL: single rows use the micro-kernel */
    tsr_gemm_f32_ukr_taps_fn ukr_taps; /* NULL: A never by taps */
    int taps_mr;                       /* ukr_taps' tile rows */
    /* ukr_taps' time for a tile of h rows (index h, 1 .. taps_mr) per tap
     * any of them reads, 100 per row at its full rate; NULL: tiles of
     * taps_mr rows only */
    const uint16_t *taps_tile_cost;
    /* NULL: narrow blocks take one panel per tile */
    tsr_gemm_f32_ukr_wide_fn ukr_wide;
    /* Columns of a B block (in nr panels) up to which the block is
     * "narrow": A is read in place and the tiles are walked row by row
     * (gemm_f32.c). */
    int narrow_ntiles;
    /* NULL: taps tiles take one panel each */
    tsr_gemm_f32_ukr_taps_wide_fn ukr_taps_wide;
} tsr_gemm_f32_kernel_t;

/* The kernel tsr_gemm_f32 uses on this CPU (per tsr_mayiuse). */
const tsr_gemm_f32_kernel_t *tsr_gemm_f32_select_kernel(void);

void tsr_gemm_f32_ukr_6x16_avx2(int64_t k, float alpha, const float *a,
                                int64_t a_ld, const float *b, int64_t b_stride,
                                const float *ahead, int64_t ahead_ld,
                                float beta, float *c, int64_t ldc, int64_t m,
                                int64_t n, const float *bias_row,
                                const float *bias_col);
void tsr_gemm_f32_ukr_6x32_avx512(int64_t k, float alpha, const float *a,
                                  int64_t a_ld, const float *b,
                                  int64_t b_stride, const float *ahead,
                                  int64_t ahead_ld, float beta, float *c,
                                  int64_t ldc, int64_t m, int64_t n,
                                  const float *bias_row, const float *bias_col);

void tsr_gemm_f32_ukr_6x64_avx512(int64_t k, float alpha, const float *a,
                                  int64_t lda, const float *ahead,
                                  int64_t ahead_ld, const float *b,
                                  int64_t b_next_panel, const float *b_src,
                                  int64_t b_src_ld, float *b_dst, float beta,
                                  float *c, int64_t ldc, int64_t m, int64_t n,
                                  const float *bias_row, const float *bias_col);

void tsr_gemm_f32_ukr_6x64_taps_avx512(
        int64_t ntaps, const int32_t *taps, const void *const *rows,
        int64_t rows_step, int64_t k_tap, const float *b, int64_t b_next_panel,
        float alpha, float beta, float *const *c_rows, int64_t n,
        const float *bias_row, const float *bias_col);

void tsr_gemm_f32_ukr_6x16_taps_avx2(int64_t ntaps, const int32_t *taps,
                                     const void *const *rows, int64_t k_tap,
                                     const float *b, float alpha, float beta,
                                     float *const *c_rows, int64_t m, int64_t n,
                                     const float *bias_row,
                                     const float *bias_col);
void tsr_gemm_f32_ukr_12x32_taps_avx512(int64_t ntaps, const int32_t *taps,
                                        const void *const *rows, int64_t k_tap,
                                        const float *b, float alpha, float beta,
                                        float *const *c_rows, int64_t m,
                                        int64_t n, const float *bias_row,
                                        const float *bias_col);

void tsr_gemm_f32_row_avx2(int64_t k, float alpha, const float *a,
                           int64_t a_stride, const float *b, int64_t b_stride,
                           int64_t group_cols, int64_t group_stride, float beta,
                           float *c, int64_t n, const float *bias_row,
                           const float *bias_col);

/* The portable kernel's fixed tile (small enough for 16 SSE registers). */
#define TSR_GEMM_F32_REF_MR 4
#define TSR_GEMM_F32_REF_NR 8
void tsr_gemm_f32_ukr_ref(int64_t k, float alpha, const float *a, int64_t a_ld,
                          const float *b, int64_t b_stride, const float *ahead,
                          int64_t ahead_ld, float beta, float *c, int64_t ldc,
                          int64_t m, int64_t n, const float *bias_row,
                          const float *bias_col);

/* tsr_gemm_f32_pack_fn implementations: portable, and AVX2 (which speeds
 * up the transposing case for widths 6 and 16 and defers to the portable
 * one for the rest). */
void tsr_gemm_f32_pack(const float *src, int64_t stride_x, int64_t stride_p,
                       int64_t lines, int64_t depth, int width, float *dst);
void tsr_gemm_f32_pack_avx2(const float *src, int64_t stride_x,
                            int64_t stride_p, int64_t lines, int64_t depth,
                            int width, float *dst);
void tsr_gemm_f32_pack_avx512(const float *src, int64_t stride_x,
                              int64_t stride_p, int64_t lines, int64_t depth,
                              int width, float *dst);

#endif
