/* AVX2+FMA micro-kernel: 6 rows x 16 columns held in 12 ymm accumulators.
 * Each K step loads two vectors of B, broadcasts six values of A and issues
 * 12 independent FMAs, enough to cover the FMA latency on two pipes. */
#include <immintrin.h>

#include "cpu/common/lane_mask_avx2.h"
#include "cpu/gemm/gemm_f32_impl.h"

#define MR 6
#define NR 16

/* Row i of the tile += *AT(i) * (b0, b1) (b0 only with half); AT(i)
 * points at row i's A value of the step. */
#define TSR_UKR_ROW(i, acc0, acc1, AT, half)                                   \
    do {                                                                       \
        const __m256 av = _mm256_broadcast_ss(AT(i));                          \
        acc0 = _mm256_fmadd_ps(av, b0, acc0);                                  \
        if (!half)                                                             \
            acc1 = _mm256_fmadd_ps(av, b1, acc1);                              \
    } while (0)

/* One K step over the first `rows` rows of all 16 columns or (half) the
 * first 8 (constants where inlined). */
#define TSR_UKR_STEP(AT, b, rows, half)                                        \
    do {                                                                       \
        const __m256 b0 = _mm256_loadu_ps(b);                                  \
        const __m256 b1 = half ? b0 : _mm256_loadu_ps((b) + 8);                \
        TSR_UKR_ROW(0, c00, c01, AT, half);                                    \
        if ((rows) > 1)                                                        \
            TSR_UKR_ROW(1, c10, c11, AT, half);                                \
        if ((rows) > 2)                                                        \
            TSR_UKR_ROW(2, c20, c21, AT, half);                                \
        if ((rows) > 3)                                                        \
            TSR_UKR_ROW(3, c30, c31, AT, half);                                \
        if ((rows) > 4)                                                        \
            TSR_UKR_ROW(4, c40, c41, AT, half);                                \
        if ((rows) > 5)                                                        \
            TSR_UKR_ROW(5, c50, c51, AT, half);                                \
    } while (0)

#define TSR_UKR_ZERO_ACCS                                                      \
    __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();               \
    __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();               \
    __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();               \
    __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();               \
    __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();               \
    __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps()

/* What every row update of one tile shares. */
typedef struct {
    __m256 alpha, beta;
    __m256i mask0, mask1;
    int full, beta_zero;
    const float *bias_row; /* NULL: none */
    int with_bias_col;
    __m256 bias_col0, bias_col1;
} tile_store_t;

/* Row i: c[0..n) := alpha * acc + beta * c[0..n) [+ bias]. Full rows and
 * tails share this arithmetic; only the memory access differs. */
static inline void update_row(const tile_store_t *t, float *c, int i,
                              __m256 acc0, __m256 acc1) {
    __m256 r0 = _mm256_mul_ps(t->alpha, acc0);
    __m256 r1 = _mm256_mul_ps(t->alpha, acc1);
    if (!t->beta_zero) {
        const __m256 c0 =
                t->full ? _mm256_loadu_ps(c) : _mm256_maskload_ps(c, t->mask0);
        const __m256 c1 = t->full ? _mm256_loadu_ps(c + 8)
                                  : _mm256_maskload_ps(c + 8, t->mask1);
        r0 = _mm256_fmadd_ps(t->beta, c0, r0);
        r1 = _mm256_fmadd_ps(t->beta, c1, r1);
    }
    if (t->bias_row) {
        const __m256 b = _mm256_broadcast_ss(t->bias_row + i);
        r0 = _mm256_add_ps(r0, b);
        r1 = _mm256_add_ps(r1, b);
    } else if (t->with_bias_col) {
        r0 = _mm256_add_ps(r0, t->bias_col0);
        r1 = _mm256_add_ps(r1, t->bias_col1);
    }
    if (t->full) {
        _mm256_storeu_ps(c, r0);
        _mm256_storeu_ps(c + 8, r1);
    } else {
        _mm256_maskstore_ps(c, t->mask0, r0);
        _mm256_maskstore_ps(c + 8, t->mask1, r1);
    }
}

static inline tile_store_t tile_store_init(float alpha, float beta, int64_t n,
                                           const float *bias_row,
                                           const float *bias_col) {
    tile_store_t t;
    t.alpha = _mm256_set1_ps(alpha);
    t.beta = _mm256_set1_ps(beta);
    t.full = n == NR;
    t.mask0 = tsr_lane_mask_avx2(n < 8 ? n : 8);
    t.mask1 = tsr_lane_mask_avx2(n > 8 ? n - 8 : 0);
    t.beta_zero = beta == 0.f;
    t.bias_row = bias_row;
    t.with_bias_col = bias_row == NULL && bias_col != NULL;
    t.bias_col0 = t.bias_col1 = _mm256_setzero_ps();
    if (t.with_bias_col) {
        t.bias_col0 = _mm256_maskload_ps(bias_col, t.mask0);
        t.bias_col1 = _mm256_maskload_ps(bias_col + 8, t.mask1);
    }
    return t;
}

/* The m rows of the tile (row i at ROW(i); m >= 1), row by row
 * (gemm_f32_ukr_body.h), but for the common store (a convolution's or a
 * matmul's first and only K block), which needs no masks and no C reads,
 * at most a column bias: the same arithmetic as update_row, as 1 * acc
 * [+ bias] is acc [+ bias]. */
#define TSR_UKR_STORE(ROW)                                                     \
    do {                                                                       \
        if (m == MR && n == NR && alpha == 1.f && beta == 0.f && !bias_row) {  \
            if (bias_col) {                                                    \
                const __m256 b0 = _mm256_loadu_ps(bias_col);                   \
                const __m256 b1 = _mm256_loadu_ps(bias_col + 8);               \
                c00 = _mm256_add_ps(c00, b0), c01 = _mm256_add_ps(c01, b1);    \
                c10 = _mm256_add_ps(c10, b0), c11 = _mm256_add_ps(c11, b1);    \
                c20 = _mm256_add_ps(c20, b0), c21 = _mm256_add_ps(c21, b1);    \
                c30 = _mm256_add_ps(c30, b0), c31 = _mm256_add_ps(c31, b1);    \
                c40 = _mm256_add_ps(c40, b0), c41 = _mm256_add_ps(c41, b1);    \
                c50 = _mm256_add_ps(c50, b0), c51 = _mm256_add_ps(c51, b1);    \
            }                                                                  \
            _mm256_storeu_ps(ROW(0), c00), _mm256_storeu_ps(ROW(0) + 8, c01);  \
            _mm256_storeu_ps(ROW(1), c10), _mm256_storeu_ps(ROW(1) + 8, c11);  \
            _mm256_storeu_ps(ROW(2), c20), _mm256_storeu_ps(ROW(2) + 8, c21);  \
            _mm256_storeu_ps(ROW(3), c30), _mm256_storeu_ps(ROW(3) + 8, c31);  \
            _mm256_storeu_ps(ROW(4), c40), _mm256_storeu_ps(ROW(4) + 8, c41);  \
            _mm256_storeu_ps(ROW(5), c50), _mm256_storeu_ps(ROW(5) + 8, c51);  \
            break;                                                             \
        }                                                                      \
        TSR_UKR_UPDATE_ROWS(ROW);                                              \
    } while (0)

#include "cpu/gemm/ukr/gemm_f32_ukr_body.h"

/* Packed tail tiles of m < 6 rows (the rows past m are zero padding), out
 * of line so that the full tile's loop keeps its registers. */
static __attribute__((noinline)) void
ukr_packed_tail(int64_t k, float alpha, const float *a, const float *b,
                int64_t b_stride, const float *ahead, int64_t ahead_ld,
                float beta, float *c, int64_t ldc, int64_t m, int64_t n,
                const float *bias_row, const float *bias_col) {
    if (m > 3)
        ukr_body(5, 0, k, alpha, a, 1, MR, b, b_stride, ahead, ahead_ld, beta,
                 c, ldc, m, n, bias_row, bias_col);
    else if (m > 1)
        ukr_body(3, 0, k, alpha, a, 1, MR, b, b_stride, ahead, ahead_ld, beta,
                 c, ldc, m, n, bias_row, bias_col);
    else
        ukr_body(1, 0, k, alpha, a, 1, MR, b, b_stride, ahead, ahead_ld, beta,
                 c, ldc, m, n, bias_row, bias_col);
}

/* The full-row body with A at a[i * A_RS + p * A_CS], for both widths: a
 * panel's last columns (n <= 8) run half the FMAs. */
#define TSR_UKR_WIDTHS(A_RS, A_CS)                                             \
    do {                                                                       \
        if (n > NR / 2)                                                        \
            ukr_body(MR, 0, k, alpha, a, A_RS, A_CS, b, b_stride, ahead,       \
                     ahead_ld, beta, c, ldc, m, n, bias_row, bias_col);        \
        else                                                                   \
            ukr_body(MR, 1, k, alpha, a, A_RS, A_CS, b, b_stride, ahead,       \
                     ahead_ld, beta, c, ldc, m, n, bias_row, bias_col);        \
    } while (0)

void tsr_gemm_f32_ukr_6x16_avx2(int64_t k, float alpha, const float *a,
                                int64_t a_ld, const float *b, int64_t b_stride,
                                const float *ahead, int64_t ahead_ld,
                                float beta, float *c, int64_t ldc, int64_t m,
                                int64_t n, const float *bias_row,
                                const float *bias_col) {
    if (a_ld != 0)
        TSR_UKR_WIDTHS(a_ld, 1);
    else if (m == MR)
        TSR_UKR_WIDTHS(1, MR);
    else
        ukr_packed_tail(k, alpha, a, b, b_stride, ahead, ahead_ld, beta, c, ldc,
                        m, n, bias_row, bias_col);
}

void tsr_gemm_f32_ukr_6x16_taps_avx2(int64_t ntaps, const int32_t *taps,
                                     const void *const *rows, int64_t k_tap,
                                     const float *b, float alpha, float beta,
                                     float *const *c_rows, int64_t m, int64_t n,
                                     const float *bias_row,
                                     const float *bias_col) {
#define TSR_TAPS(ROWS)                                                         \
    taps_body(ROWS, ntaps, taps, rows, k_tap, b, alpha, beta, c_rows, m, n,    \
              bias_row, bias_col)
    if (m > 5)
        TSR_TAPS(MR);
    else if (m > 3)
        TSR_TAPS(5);
    else if (m > 1)
        TSR_TAPS(3);
    else
        TSR_TAPS(1);
#undef TSR_TAPS
}
