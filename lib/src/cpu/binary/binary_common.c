/* The binary implementations' shared pieces (see binary_common.h). */
#include <string.h>

#include "common/data_type.h"
#include "common/memory_desc.h"
#include "cpu/binary/bcast_plan.h"
#include "cpu/binary/binary_common.h"

int binary_attr_ok(const struct tsr_primitive_attr *attr) {
    if (attr->output_scales.set)
        return 0;
    for (int q = 0; q < TSR_QARG_COUNT; q++) {
        if (attr->zero_points[q].set)
            return 0;
        if (attr->scales[q].set &&
            ((q != TSR_QARG_SRC && q != TSR_QARG_SRC_1) ||
             attr->scales[q].mask != 0))
            return 0;
    }
    for (int i = 0; i < attr->post_ops.len; i++) {
        const tsr_post_op_kind_t kind = attr->post_ops.entry[i].kind;
        if (kind != tsr_post_op_sum && kind != tsr_post_op_eltwise &&
            kind != tsr_post_op_binary)
            return 0;
    }
    return 1;
}

tsr_status_t binary_md_like(tsr_memory_desc_t *md,
                            const tsr_memory_desc_t *like,
                            const tsr_dim_t *dims, tsr_data_type_t dt,
                            int keep_blocks) {
    const int nd = like->ndims;
    int order[TSR_MAX_NDIMS];
    for (int d = 0; d < nd; d++)
        order[d] = d;
    /* Outer dims from the largest stride down; ties keep logical order. */
    for (int i = 1; i < nd; i++)
        for (int j = i; j > 0; j--) {
            const tsr_dim_t a = like->blocking.strides[order[j - 1]];
            const tsr_dim_t b = like->blocking.strides[order[j]];
            if (a >= b)
                break;
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    const tsr_blocking_desc_t *blk = &like->blocking;
    const int nblks = keep_blocks ? blk->inner_nblks : 0;
    int idxs[TSR_MAX_NDIMS];
    for (int k = 0; k < nblks; k++)
        idxs[k] = (int)blk->inner_idxs[k];
    return md_init_blocked(md, nd, dims, dt, order, nblks, blk->inner_blks,
                           idxs);
}

tsr_status_t binary_md_resolve_plain(tsr_memory_desc_t *md) {
    if (!md_is_any(md))
        return tsr_success;
    int order[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++)
        order[d] = d;
    tsr_memory_desc_t built;
    const tsr_status_t st = md_init_blocked(
            &built, md->ndims, md->dims, md->data_type, order, 0, NULL, NULL);
    if (st == tsr_success)
        *md = built;
    return st;
}

tsr_status_t binary_resolve_any(struct tsr_primitive_desc *pd) {
    tsr_memory_desc_t *src0 = &pd->md[TSR_MD_SRC];
    tsr_memory_desc_t *src1 = &pd->md[TSR_MD_SRC_1];
    tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    tsr_memory_desc_t md;
    tsr_status_t st = binary_md_resolve_plain(src0);
    if (st != tsr_success)
        return st;
    if (md_is_any(src1)) {
        st = binary_md_like(&md, src0, src1->dims, src1->data_type,
                            bcast_same_dims(src0, src1));
        if (st != tsr_success)
            return st;
        *src1 = md;
    }
    if (md_is_any(dst)) {
        st = binary_md_like(&md, src0, dst->dims, dst->data_type,
                            bcast_same_dims(src0, dst));
        if (st != tsr_success)
            return st;
        *dst = md;
    }
    return st;
}

void binary_rt_init(binary_rt_t *rt, const struct tsr_primitive_desc *pd,
                    const tsr_exec_ctx_t *ctx) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    memset(rt, 0, sizeof(*rt));
    rt->src0 = tsr_ctx_data(ctx, TSR_ARG_SRC_0);
    rt->src1 = tsr_ctx_data(ctx, TSR_ARG_SRC_1);
    rt->dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    rt->scale0 = 1.f;
    rt->scale1 = 1.f;
    if (attr->scales[TSR_QARG_SRC].set)
        rt->scale0 = *(const float *)tsr_ctx_data(ctx, TSR_ARG_ATTR_SCALES |
                                                               TSR_ARG_SRC_0);
    if (attr->scales[TSR_QARG_SRC_1].set)
        rt->scale1 = *(const float *)tsr_ctx_data(ctx, TSR_ARG_ATTR_SCALES |
                                                               TSR_ARG_SRC_1);
    for (int i = 0; i < attr->post_ops.len; i++)
        if (attr->post_ops.entry[i].kind == tsr_post_op_binary)
            rt->po_src1[i] = tsr_ctx_data(
                    ctx, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_SRC_1);
}
