/* AVX2 int8 micro-kernel: 6 rows x 16 columns of s32 in 12 ymm
 * accumulators, on the s16 pair layout (both operands widened to s16 when
 * packed).
 *
 * The engine's choice for B blocks that could saturate vpmaddubsw: it
 * multiplies u8 x s8 and adds each pair of products with signed 16-bit
 * SATURATION, so 255 * 127 + 255 * 127 = 64770 comes out as 32767 and
 * results would go wrong (the quad kernel, gemm_s8_ukr_6x16_u8s8_avx2.c,
 * takes only the blocks where that cannot happen). Here each K pair of A
 * (two s16) is broadcast as one 32-bit value and vpmaddwd multiplies it
 * with two s16 values of B per column, adding the two products into 32
 * bits: the operands lie in [-128, 255], so a pair sum is at most
 * 2 * 255 * 128 = 65280 in magnitude, far inside s32, and vpmaddwd's one
 * overflow case (both pairs -32768 * -32768) cannot occur. The 32-bit
 * accumulation (vpaddd) wraps modulo 2^32 like the portable kernel. The
 * cost is the same number of multiply instructions per product as the
 * vpmaddubsw + vpmaddwd sequence; packed panels are twice as large.
 *
 * Also the few-rows variant (tsr_gemm_s8_small_m_avx2): the same step on B
 * as stored, widened in registers, for products too short in M to repay
 * packing B. */
#include <immintrin.h>
#include <string.h>

#include "cpu/gemm/gemm_s8_impl.h"
#include "cpu/gemm/ukr/gemm_s8_store_avx2.h"

#define MR 6
#define NR 16

/* The 32-bit word holding K pair `i` of a packed A column group. */
static inline __m256i broadcast_pair(const int16_t *a, int i) {
    int32_t v;
    memcpy(&v, a + 2 * i, sizeof(v));
    return _mm256_set1_epi32(v);
}

/* One K pair: row i of the tile += a pair i . b pairs of columns 0..15. */
#define TSR_UKR_STEP(a, b)                                                     \
    do {                                                                       \
        const __m256i b0 = _mm256_loadu_si256((const __m256i *)(b));           \
        const __m256i b1 = _mm256_loadu_si256((const __m256i *)((b) + 16));    \
        __m256i av = broadcast_pair(a, 0);                                     \
        c00 = _mm256_add_epi32(c00, _mm256_madd_epi16(av, b0));                \
        c01 = _mm256_add_epi32(c01, _mm256_madd_epi16(av, b1));                \
        av = broadcast_pair(a, 1);                                             \
        c10 = _mm256_add_epi32(c10, _mm256_madd_epi16(av, b0));                \
        c11 = _mm256_add_epi32(c11, _mm256_madd_epi16(av, b1));                \
        av = broadcast_pair(a, 2);                                             \
        c20 = _mm256_add_epi32(c20, _mm256_madd_epi16(av, b0));                \
        c21 = _mm256_add_epi32(c21, _mm256_madd_epi16(av, b1));                \
        av = broadcast_pair(a, 3);                                             \
        c30 = _mm256_add_epi32(c30, _mm256_madd_epi16(av, b0));                \
        c31 = _mm256_add_epi32(c31, _mm256_madd_epi16(av, b1));                \
        av = broadcast_pair(a, 4);                                             \
        c40 = _mm256_add_epi32(c40, _mm256_madd_epi16(av, b0));                \
        c41 = _mm256_add_epi32(c41, _mm256_madd_epi16(av, b1));                \
        av = broadcast_pair(a, 5);                                             \
        c50 = _mm256_add_epi32(c50, _mm256_madd_epi16(av, b0));                \
        c51 = _mm256_add_epi32(c51, _mm256_madd_epi16(av, b1));                \
    } while (0)

void tsr_gemm_s8_ukr_6x16_avx2(int64_t kgroups, const void *a_, const void *b_,
                               int accumulate, const int32_t *init, int32_t *c,
                               int64_t ldc, int64_t m, int64_t n) {
    const int16_t *a = a_, *b = b_;
    __m256i c00 = _mm256_setzero_si256(), c01 = _mm256_setzero_si256();
    __m256i c10 = _mm256_setzero_si256(), c11 = _mm256_setzero_si256();
    __m256i c20 = _mm256_setzero_si256(), c21 = _mm256_setzero_si256();
    __m256i c30 = _mm256_setzero_si256(), c31 = _mm256_setzero_si256();
    __m256i c40 = _mm256_setzero_si256(), c41 = _mm256_setzero_si256();
    __m256i c50 = _mm256_setzero_si256(), c51 = _mm256_setzero_si256();

    for (int64_t p = 0; p < kgroups; ++p) {
        TSR_UKR_STEP(a, b);
        a += MR * 2;
        b += NR * 2;
    }

    /* n >= 1 and m >= 1 always; rows past m are skipped. */
    store_tile_6x16(accumulate, init, c, ldc, m, n, c00, c01, c10, c11, c20,
                    c21, c30, c31, c40, c41, c50, c51);
}

/* The two K rows of 16 columns a few-rows step reads, as s16 pairs per
 * column (the interleave the packing would have done); the second row is
 * zero past K, columns past n are zero. */
static inline void load_b_pairs(const int8_t *b, int64_t ldb, int second,
                                int64_t n, __m256i *lo, __m256i *hi) {
    __m128i r0, r1 = _mm_setzero_si128();
    if (n == NR) {
        r0 = _mm_loadu_si128((const __m128i *)b);
        if (second)
            r1 = _mm_loadu_si128((const __m128i *)(b + ldb));
    } else {
        int8_t t0[NR] = {0}, t1[NR] = {0};
        memcpy(t0, b, (size_t)n);
        if (second)
            memcpy(t1, b + ldb, (size_t)n);
        r0 = _mm_loadu_si128((const __m128i *)t0);
        r1 = _mm_loadu_si128((const __m128i *)t1);
    }
    *lo = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(r0, r1));
    *hi = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(r0, r1));
}

void tsr_gemm_s8_small_m_avx2(int64_t k, const void *a_, const int8_t *b,
                              int64_t ldb, int accumulate, const int32_t *init,
                              int32_t *c, int64_t ldc, int64_t m, int64_t n) {
    const int16_t *a = a_;
    enum { rows = TSR_GEMM_S8_SMALL_M };
    __m256i acc[rows][2];
    for (int i = 0; i < rows; ++i)
        acc[i][0] = acc[i][1] = _mm256_setzero_si256();
    for (int64_t p = 0; p < k; p += 2) {
        __m256i lo, hi;
        load_b_pairs(b + p * ldb, ldb, p + 1 < k, n, &lo, &hi);
        for (int i = 0; i < rows; ++i) {
            const __m256i av = broadcast_pair(a, i);
            acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(av, lo));
            acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(av, hi));
        }
        a += rows * 2;
    }
    const row_update_t u = row_update_init(accumulate, init, n);
    for (int64_t i = 0; i < m; ++i)
        update_row(&u, c + i * ldc, acc[i][0], acc[i][1]);
}
