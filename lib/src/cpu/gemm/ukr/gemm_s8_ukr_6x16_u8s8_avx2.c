/* AVX2 int8 micro-kernel on the u8 x s8 quad layout: 6 rows x 16 columns
 * of s32 in 12 ymm accumulators. Per K quad, vpmaddubsw multiplies 32 u8
 * values of A with 32 s8 values of B and adds adjacent pairs into s16,
 * vpmaddwd with ones adds those pairs into s32 (the four products of the
 * quad), vpaddd accumulates: 3 instructions per 32 products, against 4 on
 * the s16 pair layout.
 *
 * vpmaddubsw SATURATES its pair sums to s16. This kernel is only given B
 * blocks whose every pair of adjacent K values (2i, 2i+1) in each column
 * has |b0| + |b1| <= 128 ("narrow" B, e.g. 7-bit weights), checked on the
 * packed block by tsr_gemm_s8_b_narrow_avx2. Then a pair sum is at most
 * 255 * 128 = 32640 < 32767 in magnitude and never saturates, so results
 * stay exact; any other block goes to the s16 pair kernel. s8 sources
 * reach the kernel shifted by +128 (the frame compensates with
 * -128 * colsum(B)), so A is always in [0, 255]. */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/gemm/gemm_s8_impl.h"
#include "cpu/gemm/ukr/gemm_s8_store_avx2.h"

#define MR 6
#define NR 16

/* The ones vpmaddwd adds s16 pairs with. */
static const int16_t ones16[16] __attribute__((aligned(32))) = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* The 32-bit word holding the K quad of row `i` of a packed A group. */
static inline __m256i broadcast_quad(const uint8_t *a, int i) {
    int32_t v;
    memcpy(&v, a + 4 * i, sizeof(v));
    return _mm256_set1_epi32(v);
}

/* acc += the four-product sums of quad a with the quads of b. The ones of
 * vpmaddwd are read from memory: a register for them would leave too few
 * for the 12 accumulators, 2 B vectors, the broadcast and the product, and
 * the compiler would spill accumulators in the loop instead. */
static inline __m256i dot_quads(__m256i acc, __m256i a, __m256i b,
                                const __m256i *ones) {
    __m256i pairs = _mm256_maddubs_epi16(a, b);
    __asm__("vpmaddwd %1, %0, %0" : "+x"(pairs) : "m"(*ones));
    return _mm256_add_epi32(acc, pairs);
}

/* Row i of the tile += a quad i . (b0, b1) quads; `av` is the step's
 * broadcast register. */
#define TSR_UKR_ROW(i, a, acc0, acc1)                                          \
    do {                                                                       \
        av = broadcast_quad(a, i);                                             \
        acc0 = dot_quads(acc0, av, b0, ones);                                  \
        acc1 = dot_quads(acc1, av, b1, ones);                                  \
    } while (0)

/* One K quad over the first `rows` rows (a literal at every use): row i
 * of the tile += a quad i . b quads of columns 0..15. */
#define TSR_UKR_STEP(a, b, rows)                                               \
    do {                                                                       \
        const __m256i b0 = _mm256_loadu_si256((const __m256i *)(b));           \
        const __m256i b1 = _mm256_loadu_si256((const __m256i *)((b) + 32));    \
        __m256i av;                                                            \
        TSR_UKR_ROW(0, a, c00, c01);                                           \
        if ((rows) > 1)                                                        \
            TSR_UKR_ROW(1, a, c10, c11);                                       \
        if ((rows) > 2)                                                        \
            TSR_UKR_ROW(2, a, c20, c21);                                       \
        if ((rows) > 3)                                                        \
            TSR_UKR_ROW(3, a, c30, c31);                                       \
        if ((rows) > 4)                                                        \
            TSR_UKR_ROW(4, a, c40, c41);                                       \
        if ((rows) > 5)                                                        \
            TSR_UKR_ROW(5, a, c50, c51);                                       \
    } while (0)

/* The 12 accumulators of a 6 x 16 tile, zero. */
#define TSR_UKR_ZERO_ACCS                                                      \
    __m256i c00 = _mm256_setzero_si256(), c01 = _mm256_setzero_si256();        \
    __m256i c10 = _mm256_setzero_si256(), c11 = _mm256_setzero_si256();        \
    __m256i c20 = _mm256_setzero_si256(), c21 = _mm256_setzero_si256();        \
    __m256i c30 = _mm256_setzero_si256(), c31 = _mm256_setzero_si256();        \
    __m256i c40 = _mm256_setzero_si256(), c41 = _mm256_setzero_si256();        \
    __m256i c50 = _mm256_setzero_si256(), c51 = _mm256_setzero_si256()

/* The kernel over its first `rows` rows (>= m; packed rows past m are
 * zero) of packed A; expanded with literal rows into each function below
 * so that the compiler sees each loop exactly as written. */
#define TSR_UKR_BODY(rows)                                                     \
    const uint8_t *a = a_;                                                     \
    const int8_t *b = b_;                                                      \
    const __m256i *ones = (const __m256i *)ones16;                             \
    TSR_UKR_ZERO_ACCS;                                                         \
                                                                               \
    for (int64_t p = 0; p < kgroups; ++p) {                                    \
        TSR_UKR_STEP(a, b, rows);                                              \
        a += MR * 4;                                                           \
        b += NR * 4;                                                           \
    }                                                                          \
                                                                               \
    /* n >= 1 and m >= 1 always; rows past m are skipped. */                   \
    store_tile_6x16(accumulate, init, c, ldc, m, n, c00, c01, c10, c11, c20,   \
                    c21, c30, c31, c40, c41, c50, c51);

/* Tail tiles of m < 6 rows: a separate entry (see gemm_s8_impl.h), as a
 * call from the full tile's function would make it spill accumulators. */
void tsr_gemm_s8_ukr_6x16_u8s8_tail_avx2(int64_t kgroups, const void *a_,
                                         const void *b_, int accumulate,
                                         const int32_t *init, int32_t *c,
                                         int64_t ldc, int64_t m, int64_t n) {
    if (m > 3) {
        TSR_UKR_BODY(5);
    } else if (m > 1) {
        TSR_UKR_BODY(3);
    } else {
        TSR_UKR_BODY(1);
    }
}

void tsr_gemm_s8_ukr_6x16_u8s8_avx2(int64_t kgroups, const void *a_,
                                    const void *b_, int accumulate,
                                    const int32_t *init, int32_t *c,
                                    int64_t ldc, int64_t m, int64_t n) {
    TSR_UKR_BODY(MR);
}

/* The assembly of one row of an in-place K step: the quad at `addr`
 * times (b0, b1) added to the accumulators named acc0, acc1. */
#define TSR_A_ROW_ASM(addr, acc0, acc1)                                        \
    "vpbroadcastd " addr ", %[av]\n\t"                                         \
    "vpmaddubsw %[b0], %[av], %[t]\n\t"                                        \
    "vpmaddwd %[ones], %[t], %[t]\n\t"                                         \
    "vpaddd %[t], %[" acc0 "], %[" acc0 "]\n\t"                                \
    "vpmaddubsw %[b1], %[av], %[t]\n\t"                                        \
    "vpmaddwd %[ones], %[t], %[t]\n\t"                                         \
    "vpaddd %[t], %[" acc1 "], %[" acc1 "]\n\t"

/* Three rows of one K step with A in place: row r (r < 3) at its own
 * pointer p<r> plus the step's offset k adds its quad's products with
 * (b0, b1) to (xr0, xr1). */
#define TSR_ROWS_STEP3(p0, p1, p2, x00, x01, x10, x11, x20, x21)               \
    __asm__(TSR_A_ROW_ASM("(%[q0],%[k],1)", "r00", "r01")                      \
                    TSR_A_ROW_ASM("(%[q1],%[k],1)", "r10", "r11")              \
                            TSR_A_ROW_ASM("(%[q2],%[k],1)", "r20", "r21")      \
            : [r00] "+x"(x00), [r01] "+x"(x01), [r10] "+x"(x10),               \
              [r11] "+x"(x11), [r20] "+x"(x20), [r21] "+x"(x21),               \
              [av] "=&x"(av), [t] "=&x"(t)                                     \
            : [q0] "r"(p0), [q1] "r"(p1), [q2] "r"(p2), [k] "r"(k),            \
              [b0] "x"(b0), [b1] "x"(b1),                                      \
              [ones] "m"(*(const __m256i *)ones16))

/* One row of one K step with A in place. */
#define TSR_ROW1(p0, x00, x01)                                                 \
    __asm__(TSR_A_ROW_ASM("(%[q0],%[k],1)", "r00", "r01")                      \
            : [r00] "+x"(x00), [r01] "+x"(x01), [av] "=&x"(av), [t] "=&x"(t)   \
            : [q0] "r"(p0), [k] "r"(k), [b0] "x"(b0), [b1] "x"(b1),            \
              [ones] "m"(*(const __m256i *)ones16))

/* One K step (offset k) of an in-place tile over its first `rows` rows
 * (1 to 6, a literal), row i of A at ROW(i). The step is written out in
 * assembly: with a row stride in a register GCC hoists the six broadcasts
 * or keeps half the accumulators in memory; here each row's broadcast
 * feeds its products straight away and the 12 accumulators, 2 B vectors,
 * the broadcast and one product use the 16 registers exactly. */
#define TSR_IN_PLACE_STEP(rows, ROW)                                           \
    do {                                                                       \
        const __m256i b0 = _mm256_loadu_si256((const __m256i *)b);             \
        const __m256i b1 = _mm256_loadu_si256((const __m256i *)(b + 32));      \
        __m256i av, t;                                                         \
        if ((rows) >= 3)                                                       \
            TSR_ROWS_STEP3(ROW(0), ROW(1), ROW(2), c00, c01, c10, c11, c20,    \
                           c21);                                               \
        else                                                                   \
            TSR_ROW1(ROW(0), c00, c01);                                        \
        if ((rows) == 2)                                                       \
            TSR_ROW1(ROW(1), c10, c11);                                        \
        if ((rows) == 6)                                                       \
            TSR_ROWS_STEP3(ROW(3), ROW(4), ROW(5), c30, c31, c40, c41, c50,    \
                           c51);                                               \
        else if ((rows) >= 4)                                                  \
            TSR_ROW1(ROW(3), c30, c31);                                        \
        if ((rows) == 5)                                                       \
            TSR_ROW1(ROW(4), c40, c41);                                        \
        b += NR * 4;                                                           \
    } while (0)

/* The store of an in-place tile: into td's dst when given (a single
 * pass over K), else C. */
#define TSR_IN_PLACE_STORE(accumulate)                                         \
    if (td)                                                                    \
        store_tile_dst_6x16(td, init, m, c00, c01, c10, c11, c20, c21, c30,    \
                            c31, c40, c41, c50, c51);                          \
    else                                                                       \
        store_tile_6x16(accumulate, init, c, ldc, m, n, c00, c01, c10, c11,    \
                        c20, c21, c30, c31, c40, c41, c50, c51);

/* A tile with A read in place over its first `rows` rows (a literal),
 * row r at a + r * lda: a tile of fewer than six rows computes only the
 * rows it has, with no packing. */
#define TSR_LDA_ROW(i) (a + (i)*lda)
#define TSR_A_ROWS_BODY(rows)                                                  \
    TSR_UKR_ZERO_ACCS;                                                         \
    for (int64_t k = 0; k < kgroups * 4; k += 4)                               \
        TSR_IN_PLACE_STEP(rows, TSR_LDA_ROW);                                  \
    TSR_IN_PLACE_STORE(accumulate)

void tsr_gemm_s8_ukr_6x16_u8s8_a_rows_avx2(int64_t kgroups, const void *a_,
                                           int64_t lda, const void *b_,
                                           int accumulate, const int32_t *init,
                                           int32_t *c_, int64_t ldc,
                                           int64_t rows, int64_t n,
                                           const tsr_gemm_s8_tile_dst_t *td_) {
    TSR_GEMM_S8_A_ROWS_TILES(TSR_A_ROWS_BODY)
}

/* The taps kernel over its first `rows` rows (1 to 6, a literal): a
 * tile of fewer rows than six computes only the rows it needs, so a
 * 49-point image (7 x 7) costs 49 rows of work, not 54. */
#define TSR_TAP_ROW(i) r[i]
#define TSR_TAPS_BODY(rows)                                                    \
    TSR_UKR_ZERO_ACCS;                                                         \
    for (int64_t tap = 0; tap < ntaps; ++tap) {                                \
        const void *const *r = rows_ + tap * MR;                               \
        const int8_t *b = (const int8_t *)b_ + taps[tap] * kgroups * NR * 4;   \
        for (int64_t k = 0; k < kgroups * 4; k += 4)                           \
            TSR_IN_PLACE_STEP(rows, TSR_TAP_ROW);                              \
    }                                                                          \
    TSR_IN_PLACE_STORE(0)

void tsr_gemm_s8_ukr_6x16_u8s8_taps_avx2(int64_t ntaps, const int32_t *taps,
                                         const void *const *rows_,
                                         int64_t kgroups, const void *b_,
                                         const int32_t *init, int32_t *c,
                                         int64_t ldc, int64_t m, int64_t n,
                                         const tsr_gemm_s8_tile_dst_t *td) {
    TSR_GEMM_S8_BY_ROWS(TSR_TAPS_BODY)
}

int tsr_gemm_s8_b_narrow_avx2(const int8_t *b, int64_t bytes) {
    /* |b| as u8 (|-128| = 128), pair sums via vpmaddubsw with ones (at most
     * 256, no saturation), compared against 128 a block at a time so a
     * wide block is rejected early. */
    const __m256i ones = _mm256_set1_epi8(1);
    const __m256i limit = _mm256_set1_epi16(128);
    int64_t i = 0;
    for (; i + 256 <= bytes; i += 256) {
        __m256i worst = _mm256_setzero_si256();
        for (int j = 0; j < 256; j += 32) {
            const __m256i v = _mm256_loadu_si256((const __m256i *)(b + i + j));
            worst = _mm256_max_epi16(
                    worst, _mm256_maddubs_epi16(_mm256_abs_epi8(v), ones));
        }
        if (!_mm256_testz_si256(_mm256_cmpgt_epi16(worst, limit),
                                _mm256_set1_epi8(-1)))
            return 0;
    }
    /* The tail, pair by pair (bytes is even: packed panels are). */
    for (; i + 1 < bytes; i += 2) {
        const int s = abs(b[i]) + abs(b[i + 1]);
        if (s > 128)
            return 0;
    }
    return 1;
}
