/* The PReLU implementations' shared pieces (see prelu_common.h). */
#include "cpu/prelu/prelu_common.h"
#include "common/memory_desc.h"
#include "common/op_md.h"
#include "cpu/binary/binary_common.h"

int prelu_attr_ok(const struct tsr_primitive_attr *attr) {
    if (attr->output_scales.set || attr->post_ops.len != 0)
        return 0;
    for (int q = 0; q < TSR_QARG_COUNT; q++)
        if (attr->scales[q].set || attr->zero_points[q].set)
            return 0;
    return 1;
}

int prelu_data_types_ok(const struct tsr_primitive_desc *pd) {
    if (!prelu_is_bwd(pd))
        return 1;
    static const tsr_md_slot_t slots[] = {TSR_MD_SRC, TSR_MD_WEIGHTS,
                                          TSR_MD_DIFF_DST, TSR_MD_DIFF_SRC,
                                          TSR_MD_DIFF_WEIGHTS};
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
        if (!op_dt_is_float(pd->md[slots[i]].data_type))
            return 0;
    return 1;
}

/* "any" at `slot` takes the layout of the descriptor at `like_slot`
 * (blocks included). */
static tsr_status_t resolve_like(struct tsr_primitive_desc *pd, int slot,
                                 int like_slot) {
    tsr_memory_desc_t *md = &pd->md[slot];
    if (md_is_zero(md) || !md_is_any(md))
        return tsr_success;
    tsr_memory_desc_t built;
    const tsr_status_t st = binary_md_like(&built, &pd->md[like_slot], md->dims,
                                           md->data_type, 1);
    if (st == tsr_success)
        *md = built;
    return st;
}

tsr_status_t prelu_resolve_any(struct tsr_primitive_desc *pd) {
    tsr_status_t st = binary_md_resolve_plain(&pd->md[TSR_MD_SRC]);
    if (st == tsr_success)
        st = binary_md_resolve_plain(&pd->md[TSR_MD_WEIGHTS]);
    if (st == tsr_success)
        st = resolve_like(pd, TSR_MD_DST, TSR_MD_SRC);
    if (st == tsr_success)
        st = resolve_like(pd, TSR_MD_DIFF_DST, TSR_MD_SRC);
    if (st == tsr_success)
        st = resolve_like(pd, TSR_MD_DIFF_SRC, TSR_MD_SRC);
    if (st == tsr_success)
        st = resolve_like(pd, TSR_MD_DIFF_WEIGHTS, TSR_MD_WEIGHTS);
    return st;
}
