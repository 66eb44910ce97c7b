/* The store of the AVX2 int8 micro-kernels: one row of 16 s32 results
 * (two ymm) added to the old C row, the column init or zero, with lane
 * masks for column tails. Included by the AVX2 kernel files only. */
#ifndef TSR_CPU_GEMM_UKR_GEMM_S8_STORE_AVX2_H
#define TSR_CPU_GEMM_UKR_GEMM_S8_STORE_AVX2_H

#include <immintrin.h>
#include <stdint.h>

/* Lane mask with the first `n` (0..8) lanes set, for maskload/maskstore. */
static inline __m256i lane_mask(int64_t n) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes);
}

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
    const row_update_t u = {accumulate, n == 16, init, lane_mask(n < 8 ? n : 8),
                            lane_mask(n > 8 ? n - 8 : 0)};
    return u;
}

#endif
