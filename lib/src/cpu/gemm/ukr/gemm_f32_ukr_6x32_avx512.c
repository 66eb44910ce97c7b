/* AVX-512F micro-kernel: 6 rows x 32 columns in 12 zmm accumulators, the
 * AVX2 6x16 kernel widened to 16 lanes (same step, same tail handling with
 * lane masks instead of maskload/maskstore). */
#include <immintrin.h>

#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/ukr/gemm_f32_store_avx512.h"

#define MR 6
#define NR 32

/* Row i of the tile += *AT(i) * (b0, b1), for i < rows (literals at
 * every use, as is half: b0 only); AT(i) points at row i's A value of the
 * step. */
#define TSR_UKR_ROW(i, AT, rows, half, acc0, acc1)                             \
    if ((rows) > (i)) {                                                        \
        const __m512 av = _mm512_set1_ps(*AT(i));                              \
        acc0 = _mm512_fmadd_ps(av, b0, acc0);                                  \
        if (!half)                                                             \
            acc1 = _mm512_fmadd_ps(av, b1, acc1);                              \
    }

/* One K step over the first `rows` rows: row i of the tile += *AT(i) *
 * b[0..31] (b[0..15] with half). */
#define TSR_UKR_STEP(AT, b, rows, half)                                        \
    do {                                                                       \
        const __m512 b0 = _mm512_loadu_ps(b);                                  \
        const __m512 b1 = half ? b0 : _mm512_loadu_ps((b) + 16);               \
        TSR_UKR_ROW(0, AT, rows, half, c00, c01)                               \
        TSR_UKR_ROW(1, AT, rows, half, c10, c11)                               \
        TSR_UKR_ROW(2, AT, rows, half, c20, c21)                               \
        TSR_UKR_ROW(3, AT, rows, half, c30, c31)                               \
        TSR_UKR_ROW(4, AT, rows, half, c40, c41)                               \
        TSR_UKR_ROW(5, AT, rows, half, c50, c51)                               \
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

/* ukr_body for both layouts of A and both widths with the literal row
 * count ROWS: a panel's last columns (n <= 16) run half the FMAs
 * (ResNet-50 res4b_branch2a nchw: 196 columns, 13% of the time in the
 * 4-column tail panels). */
#define TSR_UKR_LAYOUT(ROWS, HALF)                                             \
    do {                                                                       \
        if (a_ld == 0)                                                         \
            ukr_body(ROWS, HALF, k, alpha, a, 1, MR, b, b_stride, ahead,       \
                     ahead_ld, beta, c, ldc, m, n, bias_row, bias_col);        \
        else                                                                   \
            ukr_body(ROWS, HALF, k, alpha, a, a_ld, 1, b, b_stride, ahead,     \
                     ahead_ld, beta, c, ldc, m, n, bias_row, bias_col);        \
    } while (0)
#define TSR_UKR_LAYOUTS(ROWS)                                                  \
    do {                                                                       \
        if (n > NR / 2)                                                        \
            TSR_UKR_LAYOUT(ROWS, 0);                                           \
        else                                                                   \
            TSR_UKR_LAYOUT(ROWS, 1);                                           \
    } while (0)

void tsr_gemm_f32_ukr_6x32_avx512(int64_t k, float alpha, const float *a,
                                  int64_t a_ld, const float *b,
                                  int64_t b_stride, const float *ahead,
                                  int64_t ahead_ld, float beta, float *c,
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
