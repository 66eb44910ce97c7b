/* AVX-512F micro-kernel: 6 rows x 32 columns in 12 zmm accumulators, the
 * AVX2 6x16 kernel widened to 16 lanes (same step, same tail handling with
 * lane masks instead of maskload/maskstore). */
#include <immintrin.h>

#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/ukr/gemm_f32_store_avx512.h"

#define MR 6
#define NR 32

/* Row i of the tile += *AT(i) * (b0, b1), for i < rows (a literal at
 * every use); AT(i) points at row i's A value of the step. */
#define TSR_UKR_ROW(i, AT, rows, acc0, acc1)                                   \
    if ((rows) > (i)) {                                                        \
        const __m512 av = _mm512_set1_ps(*AT(i));                              \
        acc0 = _mm512_fmadd_ps(av, b0, acc0);                                  \
        acc1 = _mm512_fmadd_ps(av, b1, acc1);                                  \
    }

/* One K step over the first `rows` rows: row i of the tile += *AT(i) *
 * b[0..31]. */
#define TSR_UKR_STEP(AT, b, rows)                                              \
    do {                                                                       \
        const __m512 b0 = _mm512_loadu_ps(b);                                  \
        const __m512 b1 = _mm512_loadu_ps((b) + 16);                           \
        TSR_UKR_ROW(0, AT, rows, c00, c01)                                     \
        TSR_UKR_ROW(1, AT, rows, c10, c11)                                     \
        TSR_UKR_ROW(2, AT, rows, c20, c21)                                     \
        TSR_UKR_ROW(3, AT, rows, c30, c31)                                     \
        TSR_UKR_ROW(4, AT, rows, c40, c41)                                     \
        TSR_UKR_ROW(5, AT, rows, c50, c51)                                     \
    } while (0)

#define TSR_UKR_ZERO_ACCS                                                      \
    __m512 c00 = _mm512_setzero_ps(), c01 = _mm512_setzero_ps();               \
    __m512 c10 = _mm512_setzero_ps(), c11 = _mm512_setzero_ps();               \
    __m512 c20 = _mm512_setzero_ps(), c21 = _mm512_setzero_ps();               \
    __m512 c30 = _mm512_setzero_ps(), c31 = _mm512_setzero_ps();               \
    __m512 c40 = _mm512_setzero_ps(), c41 = _mm512_setzero_ps();               \
    __m512 c50 = _mm512_setzero_ps(), c51 = _mm512_setzero_ps()

/* Every tile stores row by row (gemm_f32_ukr_body.h). */
#define TSR_UKR_STORE(ROW) TSR_UKR_UPDATE_ROWS(ROW)

#include "cpu/gemm/ukr/gemm_f32_ukr_body.h"

/* ukr_body for both layouts of A with the literal row count ROWS. */
#define TSR_UKR_LAYOUTS(ROWS)                                                  \
    do {                                                                       \
        if (a_ld == 0)                                                         \
            ukr_body(ROWS, k, alpha, a, 1, MR, b, b_stride, beta, c, ldc, m,   \
                     n, bias_row, bias_col);                                   \
        else                                                                   \
            ukr_body(ROWS, k, alpha, a, a_ld, 1, b, b_stride, beta, c, ldc, m, \
                     n, bias_row, bias_col);                                   \
    } while (0)

void tsr_gemm_f32_ukr_6x32_avx512(int64_t k, float alpha, const float *a,
                                  int64_t a_ld, const float *b,
                                  int64_t b_stride, float beta, float *c,
                                  int64_t ldc, int64_t m, int64_t n,
                                  const float *bias_row,
                                  const float *bias_col) {
    switch (m) {
    case 1:
        TSR_UKR_LAYOUTS(1);
        break;
    case 2:
        TSR_UKR_LAYOUTS(2);
        break;
    case 3:
    case 4:
        TSR_UKR_LAYOUTS(4);
        break;
    default:
        TSR_UKR_LAYOUTS(MR);
        break;
    }
}
