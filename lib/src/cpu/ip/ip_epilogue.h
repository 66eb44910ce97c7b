/* The epilogue setup both inner product implementations share: dst dim 1
 * (OC) is the channel; weights scales are common or per OC (mask 1). */
#ifndef TSR_CPU_IP_IP_EPILOGUE_H
#define TSR_CPU_IP_IP_EPILOGUE_H

#include "common/inner_product_pd.h"
#include "cpu/common/epilogue_f32.h"

static inline tsr_status_t ip_epilogue_init(const struct tsr_primitive_desc *pd,
                                            tsr_epilogue_t *ep) {
    const tsr_runtime_q_t *ws = &pd->attr.scales[TSR_QARG_WEIGHTS];
    const int64_t wei_mod = !ws->set || ws->mask == 0 ? 1
                            : ws->mask == 1           ? ip_OC(pd)
                                                      : 0;
    return tsr_epilogue_init(ep, &pd->attr, &pd->md[TSR_MD_DST],
                             ip_with_bias(pd) ? &pd->md[TSR_MD_BIAS] : NULL, 1,
                             1, wei_mod);
}

#endif
