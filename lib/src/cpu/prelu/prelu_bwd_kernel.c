/* The portable PReLU backward row kernel (see prelu_bwd_kernel.h). */
#include "cpu/prelu/prelu_bwd_kernel.h"
#include "common/data_type.h"
#include "cpu/prelu/prelu_common.h"

void prelu_bwd_rows_c(const prelu_bwd_kernel_t *k, const void *src,
                      const void *wei, const void *dd, void *ds, float *acc,
                      int64_t rows, int64_t n) {
    for (int64_t r = 0; r < rows; r++) {
        const int64_t off = r * k->ld, woff = r * k->wei_ld;
        float row_sum = 0.f;
        for (int64_t i = 0; i < n; i++) {
            const float s = tsr_load_f32_inline(k->src_dt, src, off + i);
            const float g = tsr_load_f32_inline(k->dd_dt, dd, off + i);
            const float w = tsr_load_f32_inline(k->wei_dt, wei,
                                                woff + (k->wei_bcast ? 0 : i));
            tsr_store_f32_inline(k->ds_dt, ds, off + i, prelu_bwd_data(s, w, g),
                                 k->round_mode);
            const float term = prelu_bwd_weights_term(s, g);
            if (k->wei_bcast)
                row_sum += term;
            else
                acc[woff + i] += term;
        }
        if (k->wei_bcast)
            acc[woff] += row_sum;
    }
}
