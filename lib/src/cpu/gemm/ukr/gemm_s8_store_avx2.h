/* The store of the AVX2 int8 micro-kernels: one row of 16 s32 results
 * (two ymm) added to the old C row, the column init or zero, with lane
 * masks for column tails; or the final values of a whole tile through the
 * epilogue's common form into dst. Included by the AVX2 kernel files
 * only. */
#ifndef TSR_CPU_GEMM_UKR_GEMM_S8_STORE_AVX2_H
#define TSR_CPU_GEMM_UKR_GEMM_S8_STORE_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#include "cpu/common/lane_mask_avx2.h"
#include "cpu/gemm/gemm_s8_impl.h"

/* What the row's product is added to: the old C row, the column init, or
 * zero. */
typedef struct {
    int accumulate, full;
    const int32_t *init;
    __m256i mask0, mask1;
} row_update_t;

static inline __m256i load8(const int32_t *p, int full, __m256i mask) {
    return full ? _mm256_loadu_si256((const __m256i *)p)
                : _mm256_maskload_epi32((const int *)p, mask);
}

static inline void store8(int32_t *p, __m256i v, int full, __m256i mask) {
    if (full)
        _mm256_storeu_si256((__m256i *)p, v);
    else
        _mm256_maskstore_epi32((int *)p, mask, v);
}

static inline void update_row(const row_update_t *u, int32_t *c, __m256i acc0,
                              __m256i acc1) {
    const int32_t *base = u->accumulate ? c : u->init;
    if (base) {
        acc0 = _mm256_add_epi32(acc0, load8(base, u->full, u->mask0));
        acc1 = _mm256_add_epi32(acc1, load8(base + 8, u->full, u->mask1));
    }
    store8(c, acc0, u->full, u->mask0);
    store8(c + 8, acc1, u->full, u->mask1);
}

/* The update of every row of an m x n tile (n <= 16). */
static inline row_update_t row_update_init(int accumulate, const int32_t *init,
                                           int64_t n) {
    const row_update_t u = {accumulate, n == 16, init,
                            tsr_lane_mask_avx2(n < 8 ? n : 8),
                            tsr_lane_mask_avx2(n > 8 ? n - 8 : 0)};
    return u;
}

/* Stores rows 0 .. m - 1 (m >= 1) of a 6 x 16 tile, row i being
 * (ci0, ci1), through update_row. */
static inline __attribute__((always_inline)) void
store_tile_6x16(int accumulate, const int32_t *init, int32_t *c, int64_t ldc,
                int64_t m, int64_t n, __m256i c00, __m256i c01, __m256i c10,
                __m256i c11, __m256i c20, __m256i c21, __m256i c30, __m256i c31,
                __m256i c40, __m256i c41, __m256i c50, __m256i c51) {
    const row_update_t u = row_update_init(accumulate, init, n);
    update_row(&u, c, c00, c01);
    if (m > 1)
        update_row(&u, c + ldc, c10, c11);
    if (m > 2)
        update_row(&u, c + 2 * ldc, c20, c21);
    if (m > 3)
        update_row(&u, c + 3 * ldc, c30, c31);
    if (m > 4)
        update_row(&u, c + 4 * ldc, c40, c41);
    if (m > 5)
        update_row(&u, c + 5 * ldc, c50, c51);
}

/* The final values of rows 0 .. m - 1 (m >= 1) of a full-width 6 x 16
 * tile of a single pass over K (plus the column init) through the
 * epilogue's common form into td's dst: staged in L1, where the form's
 * store reads them at once. */
static inline __attribute__((always_inline)) void
store_tile_dst_6x16(const tsr_gemm_s8_tile_dst_t *td, const int32_t *init,
                    int64_t m, __m256i c00, __m256i c01, __m256i c10,
                    __m256i c11, __m256i c20, __m256i c21, __m256i c30,
                    __m256i c31, __m256i c40, __m256i c41, __m256i c50,
                    __m256i c51) {
    int32_t staged[6 * 16] __attribute__((aligned(32)));
    store_tile_6x16(0, init, staged, 16, m, 16, c00, c01, c10, c11, c20, c21,
                    c30, c31, c40, c41, c50, c51);
    tsr_gemm_s8_store_staged(td, td->common->rows16, staged, 16, m);
}

#endif
