/* The epilogue setup both matmul implementations share: the last dst dim
 * (N) is the channel; weights scales are common or per N. */
#ifndef TSR_CPU_MATMUL_MATMUL_EPILOGUE_H
#define TSR_CPU_MATMUL_MATMUL_EPILOGUE_H

#include "common/matmul_pd.h"
#include "cpu/common/epilogue_f32.h"

static inline tsr_status_t
matmul_epilogue_init(const struct tsr_primitive_desc *pd, tsr_epilogue_t *ep) {
    const int nd = matmul_ndims(pd);
    const tsr_runtime_q_t *ws = &pd->attr.scales[TSR_QARG_WEIGHTS];
    const int64_t wei_mod = !ws->set || ws->mask == 0   ? 1
                            : ws->mask == 1 << (nd - 1) ? matmul_N(pd)
                                                        : 0;
    return tsr_epilogue_init(ep, &pd->attr, &pd->md[TSR_MD_DST],
                             matmul_with_bias(pd) ? &pd->md[TSR_MD_BIAS] : NULL,
                             nd - 1, 1, wei_mod);
}

#endif
