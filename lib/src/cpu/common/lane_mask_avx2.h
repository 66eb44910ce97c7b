/* The lane mask AVX2 kernels use for row tails. Only for files built with
 * AVX2. */
#ifndef TSR_CPU_COMMON_LANE_MASK_AVX2_H
#define TSR_CPU_COMMON_LANE_MASK_AVX2_H

#include <immintrin.h>
#include <stdint.h>

/* The first `n` (0..8) 32-bit lanes set, for maskload / maskstore. */
static inline __m256i tsr_lane_mask_avx2(int64_t n) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes);
}

#endif
