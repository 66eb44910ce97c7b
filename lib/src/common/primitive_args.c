/* Execution arguments by id: the slot of each TSR_ARG_* in pd->md[], and
 * the helpers kinds use to state their arguments. */
#include <string.h>

#include "primitive.h"

static const int arg_of_slot[TSR_MD_MULTIPLE_SRC] = {
        [TSR_MD_SRC] = TSR_ARG_SRC,
        [TSR_MD_WEIGHTS] = TSR_ARG_WEIGHTS,
        [TSR_MD_BIAS] = TSR_ARG_BIAS,
        [TSR_MD_DST] = TSR_ARG_DST,
        [TSR_MD_SRC_1] = TSR_ARG_SRC_1,
        [TSR_MD_SRC_2] = TSR_ARG_SRC_2,
        [TSR_MD_MEAN] = TSR_ARG_MEAN,
        [TSR_MD_VARIANCE] = TSR_ARG_VARIANCE,
        [TSR_MD_SCALE] = TSR_ARG_SCALE,
        [TSR_MD_SHIFT] = TSR_ARG_SHIFT,
        [TSR_MD_WORKSPACE] = TSR_ARG_WORKSPACE,
        [TSR_MD_DIFF_SRC] = TSR_ARG_DIFF_SRC,
        [TSR_MD_DIFF_SRC_1] = TSR_ARG_DIFF_SRC_1,
        [TSR_MD_DIFF_DST] = TSR_ARG_DIFF_DST,
        [TSR_MD_DIFF_WEIGHTS] = TSR_ARG_DIFF_WEIGHTS,
        [TSR_MD_DIFF_BIAS] = TSR_ARG_DIFF_BIAS,
        [TSR_MD_DIFF_SCALE] = TSR_ARG_DIFF_SCALE,
        [TSR_MD_DIFF_SHIFT] = TSR_ARG_DIFF_SHIFT,
};

int tsr_arg_slot(int arg) {
    if (arg >= TSR_ARG_MULTIPLE_SRC &&
        arg < TSR_ARG_MULTIPLE_SRC + TSR_MAX_MULTIPLE_SRC)
        return TSR_MD_MULTIPLE_SRC + (arg - TSR_ARG_MULTIPLE_SRC);
    for (int slot = 0; slot < TSR_MD_MULTIPLE_SRC; slot++)
        if (arg_of_slot[slot] == arg)
            return slot;
    return -1;
}

int tsr_slot_arg(int slot) {
    if (slot >= TSR_MD_MULTIPLE_SRC)
        return TSR_ARG_MULTIPLE_SRC + (slot - TSR_MD_MULTIPLE_SRC);
    return slot >= 0 ? arg_of_slot[slot] : -1;
}

void tsr_pd_set_arg(struct tsr_primitive_desc *pd, int slot,
                    const tsr_memory_desc_t *md, tsr_arg_usage_t usage) {
    if (!md || md->format_kind == tsr_format_kind_undef || md->ndims == 0)
        return;
    pd->md[slot] = *md;
    pd->arg_usage[slot] = usage;
}

void tsr_pd_set_args_fwd(struct tsr_primitive_desc *pd,
                         const tsr_memory_desc_t *src,
                         const tsr_memory_desc_t *weights,
                         const tsr_memory_desc_t *bias,
                         const tsr_memory_desc_t *dst) {
    tsr_pd_set_arg(pd, TSR_MD_SRC, src, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_WEIGHTS, weights, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_BIAS, bias, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DST, dst, tsr_arg_output);
}

int tsr_prop_kind_is_forward(tsr_prop_kind_t prop_kind) {
    return prop_kind == tsr_forward_training ||
           prop_kind == tsr_forward_inference;
}
