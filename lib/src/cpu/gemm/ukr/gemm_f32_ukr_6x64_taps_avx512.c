/* AVX-512F wide taps micro-kernel (tsr_gemm_f32_ukr_taps_wide_fn): 6 full
 * rows x two adjacent prepacked 32-column B panels in 24 zmm
 * accumulators. Where a layer's output channels fit the two panels, each
 * listed row is read once for all of them, where the 12x32 taps kernel
 * reads it once per panel. Each element's sum runs over the listed taps
 * and their values in order, one FMA at a time, and is stored through the
 * 6x32 kernel's row update: the arithmetic of the 12x32 taps kernel. */
#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/ukr/gemm_f32_ukr_6x64_body.h"

#define NR TSR_6X64_NR

#define TSR_A6(i) (r##i + p)
#define TSR_C6(i) (c_rows[i])
#define TSR_ROW_PTR(i, a0, a1, a2, a3) const float *r##i = r[i];

void tsr_gemm_f32_ukr_6x64_taps_avx512(
        int64_t ntaps, const int32_t *taps, const void *const *rows,
        int64_t rows_step, int64_t k_tap, const float *b_, int64_t b_next_panel,
        float alpha, float beta, float *const *c_rows, int64_t n,
        const float *bias_row, const float *bias_col) {
    enum { tile_rows = 6 };
    TSR_ROWS6(TSR_ZERO6)
    TSR_ROWS6(TSR_PREFETCH_C6)
    for (int64_t tap = 0; tap < ntaps; ++tap) {
        const float *const *r = (const float *const *)(rows + tap * rows_step);
        TSR_ROWS6(TSR_ROW_PTR)
        const float *b = b_ + taps[tap] * k_tap * NR;
        const float *b_hi = b + b_next_panel;
        for (int64_t p = 0; p < k_tap; ++p, b += NR, b_hi += NR) {
            TSR_6X64_STEP(b, b_hi);
        }
    }
    TSR_6X64_STORE();
}
