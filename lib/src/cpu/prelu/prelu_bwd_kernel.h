/* Row kernels of the dense PReLU backward path, over `rows` rows of n
 * elements (src, diff_dst and diff_src rows `ld` elements apart, weights
 * rows `wei_ld` apart, the weights contiguous along a row or one value
 * per row):
 *   diff_src[r][i] = src > 0 ? diff_dst : diff_dst * w     (stored)
 *   acc[r * wei_ld + i] += diff_dst * (src > 0 ? 0 : src)  (contiguous)
 *   acc[r * wei_ld] += the row's sum of those terms       (wei_bcast)
 * acc holds f32 partial sums of the weights' gradient. A kernel's sums
 * depend only on its arguments, so a fixed cut of the work gives the same
 * bits on any number of threads. */
#ifndef TSR_CPU_PRELU_PRELU_BWD_KERNEL_H
#define TSR_CPU_PRELU_PRELU_BWD_KERNEL_H

#include <stdint.h>

#include "tessera.h"

typedef struct {
    tsr_data_type_t src_dt, wei_dt, dd_dt, ds_dt;
    tsr_round_mode_t round_mode;
    int64_t ld, wei_ld;
    int wei_bcast;
} prelu_bwd_kernel_t;

typedef void (*prelu_bwd_kernel_fn)(const prelu_bwd_kernel_t *k,
                                    const void *src, const void *wei,
                                    const void *dd, void *ds, float *acc,
                                    int64_t rows, int64_t n);

/* Portable C: every floating data type. */
void prelu_bwd_rows_c(const prelu_bwd_kernel_t *k, const void *src,
                      const void *wei, const void *dd, void *ds, float *acc,
                      int64_t rows, int64_t n);
/* f32 tensors only; only called when the CPU has the ISA. */
void prelu_bwd_rows_avx2(const prelu_bwd_kernel_t *k, const void *src,
                         const void *wei, const void *dd, void *ds, float *acc,
                         int64_t rows, int64_t n);
void prelu_bwd_rows_avx512(const prelu_bwd_kernel_t *k, const void *src,
                           const void *wei, const void *dd, void *ds,
                           float *acc, int64_t rows, int64_t n);

#endif
