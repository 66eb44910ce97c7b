/* AVX-512F micro-kernel: 6 rows x 32 columns in 12 zmm accumulators, the
 * AVX2 6x16 kernel widened to 16 lanes (same step, same tail handling with
 * lane masks instead of maskload/maskstore). */
#include <immintrin.h>

#include "cpu/gemm/gemm_f32_impl.h"

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

/* Mask with the first `n` (0..16) lanes set. */
static inline __mmask16 lane_mask(int64_t n) {
    return (__mmask16)((1u << n) - 1u);
}

/* What every row update of one tile shares. */
typedef struct {
    __m512 alpha, beta;
    __mmask16 mask0, mask1;
    int beta_zero;
    const float *bias_row; /* NULL: none */
    int with_bias_col;
    __m512 bias_col0, bias_col1;
} tile_store_t;

/* Row i: c[0..n) := alpha * acc + beta * c[0..n) [+ bias]; masked lanes of
 * C are neither read nor written (a full row has all lanes set). */
static inline void update_row(const tile_store_t *t, float *c, int i,
                              __m512 acc0, __m512 acc1) {
    __m512 r0 = _mm512_mul_ps(t->alpha, acc0);
    __m512 r1 = _mm512_mul_ps(t->alpha, acc1);
    if (!t->beta_zero) {
        r0 = _mm512_fmadd_ps(t->beta, _mm512_maskz_loadu_ps(t->mask0, c), r0);
        r1 = _mm512_fmadd_ps(t->beta, _mm512_maskz_loadu_ps(t->mask1, c + 16),
                             r1);
    }
    if (t->bias_row) {
        const __m512 b = _mm512_set1_ps(t->bias_row[i]);
        r0 = _mm512_add_ps(r0, b);
        r1 = _mm512_add_ps(r1, b);
    } else if (t->with_bias_col) {
        r0 = _mm512_add_ps(r0, t->bias_col0);
        r1 = _mm512_add_ps(r1, t->bias_col1);
    }
    _mm512_mask_storeu_ps(c, t->mask0, r0);
    _mm512_mask_storeu_ps(c + 16, t->mask1, r1);
}

static inline tile_store_t tile_store_init(float alpha, float beta, int64_t n,
                                           const float *bias_row,
                                           const float *bias_col) {
    tile_store_t t;
    t.alpha = _mm512_set1_ps(alpha);
    t.beta = _mm512_set1_ps(beta);
    t.mask0 = lane_mask(n < 16 ? n : 16);
    t.mask1 = lane_mask(n > 16 ? n - 16 : 0);
    t.beta_zero = beta == 0.f;
    t.bias_row = bias_row;
    t.with_bias_col = bias_row == NULL && bias_col != NULL;
    t.bias_col0 = t.bias_col1 = _mm512_setzero_ps();
    if (t.with_bias_col) {
        t.bias_col0 = _mm512_maskz_loadu_ps(t.mask0, bias_col);
        t.bias_col1 = _mm512_maskz_loadu_ps(t.mask1, bias_col + 16);
    }
    return t;
}

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

void tsr_gemm_f32_ukr_6x32_taps_avx512(int64_t ntaps, const int32_t *taps,
                                       const void *const *rows, int64_t k_tap,
                                       const float *b, float alpha, float beta,
                                       float *const *c_rows, int64_t m,
                                       int64_t n, const float *bias_row,
                                       const float *bias_col) {
#define TSR_TAPS(ROWS)                                                         \
    taps_body(ROWS, ntaps, taps, rows, k_tap, b, alpha, beta, c_rows, m, n,    \
              bias_row, bias_col)
    switch (m) {
    case 1:
        TSR_TAPS(1);
        break;
    case 2:
        TSR_TAPS(2);
        break;
    case 3:
    case 4:
        TSR_TAPS(4);
        break;
    default:
        TSR_TAPS(MR);
        break;
    }
#undef TSR_TAPS
}
