/* AVX-512F taps micro-kernel (tsr_gemm_f32_ukr_taps_fn): 12 rows x 32
 * columns in 24 zmm accumulators. Against 6 rows it loads B once per 12
 * rows and spends fewer loads and loop uops per FMA (ResNet-50 and
 * AlexNet 3x3 layers, 2 threads: 5-10% faster). Each element's sum runs
 * over the listed taps and their values in order, one FMA at a time, and
 * is stored through the 6x32 kernel's row update: the arithmetic of the
 * AVX2 taps kernel. */
#include <immintrin.h>

#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/ukr/gemm_f32_store_avx512.h"

#define MR 12
#define NR 32

/* The rows' accumulators, in one list so every use names all of them. */
/* clang-format off */
#define TSR_ROWS12(X)                                                          \
    X(0, c00, c01) X(1, c10, c11) X(2, c20, c21) X(3, c30, c31)                \
    X(4, c40, c41) X(5, c50, c51) X(6, c60, c61) X(7, c70, c71)                \
    X(8, c80, c81) X(9, c90, c91) X(10, ca0, ca1) X(11, cb0, cb1)
/* clang-format on */

#define TSR_ZERO(i, a0, a1)                                                    \
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
/* This tap's row i pointer (row 0's for rows not computed). */
#define TSR_ROW_PTR(i, a0, a1) const float *r##i = r[rows > (i) ? (i) : 0];
#define TSR_FMA(i, a0, a1)                                                     \
    if (rows > (i)) {                                                          \
        const __m512 av = _mm512_set1_ps(r##i[p]);                             \
        a0 = _mm512_fmadd_ps(av, b0, a0);                                      \
        if (!half)                                                             \
            a1 = _mm512_fmadd_ps(av, b1, a1);                                  \
    }
#define TSR_STORE(i, a0, a1)                                                   \
    if (m > (i))                                                               \
        update_row(&t, c_rows[i], i, a0, a1);
#define TSR_PREFETCH(i, a0, a1)                                                \
    if (m > (i)) {                                                             \
        _mm_prefetch((const char *)c_rows[i], _MM_HINT_T0);                    \
        _mm_prefetch((const char *)(c_rows[i] + NR - 1), _MM_HINT_T0);         \
    }

/* What the store after the K loop reads, in memory: as arguments they
 * stay live across the loop, and with the rows' 12 pointers taking the
 * general registers GCC parks them in vector ones and spills a B vector
 * inside the loop (12 rows: a fifth slower). */
typedef struct {
    float alpha, beta;
    float *const *c_rows;
    int64_t m, n;
    const float *bias_row, *bias_col;
} taps_store_t;

/* The kernel with a literal row count `rows` (>= m): rows past it cost no
 * FMAs; with `half` (literal; n <= 16) neither do the columns past 16. */
static inline __attribute__((always_inline)) void
taps12(const int rows, const int half, int64_t ntaps, const int32_t *taps,
       const void *const *rows_, int64_t k_tap, const float *b_,
       const taps_store_t *s) {
    float *const *c_rows = s->c_rows;
    const int64_t m = s->m;
    TSR_ROWS12(TSR_ZERO)
    TSR_ROWS12(TSR_PREFETCH)
    for (int64_t tap = 0; tap < ntaps; ++tap) {
        const float *const *r = (const float *const *)(rows_ + tap * MR);
        TSR_ROWS12(TSR_ROW_PTR)
        const float *b = b_ + taps[tap] * k_tap * NR;
        for (int64_t p = 0; p < k_tap; ++p, b += NR) {
            const __m512 b0 = _mm512_loadu_ps(b);
            const __m512 b1 = half ? b0 : _mm512_loadu_ps(b + 16);
            TSR_ROWS12(TSR_FMA)
        }
    }
    const tile_store_t t =
            tile_store_init(s->alpha, s->beta, s->n, s->bias_row, s->bias_col);
    TSR_ROWS12(TSR_STORE)
}

/* The kernel with a literal row count, full or half width as n asks. */
static inline __attribute__((always_inline)) void
taps_tile(const int rows, int64_t ntaps, const int32_t *taps,
          const void *const *rows_, int64_t k_tap, const float *b,
          const taps_store_t *s) {
    if (s->n > NR / 2)
        taps12(rows, 0, ntaps, taps, rows_, k_tap, b, s);
    else
        taps12(rows, 1, ntaps, taps, rows_, k_tap, b, s);
}

/* One function per short row count, each its own register allocation
 * (in one function GCC spilled a B vector in the 11- and 12-row loops).
 * Every count has its instance: the frame cuts row tiles of any height,
 * e.g. a 7x7 image's output rows of 7 points. */
#define TSR_TAPS_ROWS(ROWS)                                                    \
    static __attribute__((noinline)) void taps_rows##ROWS(                     \
            int64_t ntaps, const int32_t *taps, const void *const *rows,       \
            int64_t k_tap, const float *b, const taps_store_t *s) {            \
        taps_tile(ROWS, ntaps, taps, rows, k_tap, b, s);                       \
    }
TSR_TAPS_ROWS(1)
TSR_TAPS_ROWS(2)
TSR_TAPS_ROWS(3)
TSR_TAPS_ROWS(4)
TSR_TAPS_ROWS(5)
TSR_TAPS_ROWS(6)
TSR_TAPS_ROWS(7)
TSR_TAPS_ROWS(8)
TSR_TAPS_ROWS(9)
TSR_TAPS_ROWS(10)
TSR_TAPS_ROWS(11)
#undef TSR_TAPS_ROWS

typedef void (*taps_rows_fn)(int64_t ntaps, const int32_t *taps,
                             const void *const *rows, int64_t k_tap,
                             const float *b, const taps_store_t *s);

void tsr_gemm_f32_ukr_12x32_taps_avx512(int64_t ntaps, const int32_t *taps,
                                        const void *const *rows, int64_t k_tap,
                                        const float *b, float alpha, float beta,
                                        float *const *c_rows, int64_t m,
                                        int64_t n, const float *bias_row,
                                        const float *bias_col) {
    static const taps_rows_fn short_rows[MR - 1] = {
            taps_rows1, taps_rows2,  taps_rows3, taps_rows4,
            taps_rows5, taps_rows6,  taps_rows7, taps_rows8,
            taps_rows9, taps_rows10, taps_rows11};
    const taps_store_t s = {alpha, beta, c_rows, m, n, bias_row, bias_col};
    if (m < MR) {
        short_rows[(m < 1 ? 1 : m) - 1](ntaps, taps, rows, k_tap, b, &s);
        return;
    }
    /* The full tile here: through a call of its own it ran 1-2% slower
     * (AlexNet conv1 and ResNet-50 res3a_branch2b nhwc mb32, 2 threads). */
    taps_tile(MR, ntaps, taps, rows, k_tap, b, &s);
}
