#include "ref_post_ops.h"

#include "common/attr.h"
#include "common/attr_mask.h"
#include "common/data_type.h"
#include "common/memory_desc.h"

float tsr_ref_post_ops_apply(const struct tsr_post_ops *po, float v,
                             const tsr_dim_t *pos,
                             const tsr_memory_desc_t *dst_md, const void *dst,
                             tsr_dim_t dst_off, const void *const *bin_src1,
                             const float *const *prelu_weights) {
    for (int i = 0; i < po->len; i++) {
        const tsr_post_op_t *e = &po->entry[i];
        switch (e->kind) {
        case tsr_post_op_sum: {
            const tsr_data_type_t dt = e->sum.dt != tsr_data_type_undef
                                               ? e->sum.dt
                                               : dst_md->data_type;
            const float old = tsr_load_f32_inline(dt, dst, dst_off);
            v = e->sum.scale * (old - (float)e->sum.zero_point) + v;
            break;
        }
        case tsr_post_op_eltwise:
            v = e->eltwise.scale * tsr_eltwise_fwd(e->eltwise.alg, v,
                                                   e->eltwise.alpha,
                                                   e->eltwise.beta);
            break;
        case tsr_post_op_binary: {
            const tsr_memory_desc_t *md = &e->binary.src1_desc;
            tsr_dim_t bpos[TSR_MAX_NDIMS];
            for (int d = 0; d < md->ndims; d++)
                bpos[d] = md->dims[d] == 1 ? 0 : pos[d];
            const float b = tsr_load_f32_inline(md->data_type, bin_src1[i],
                                                md_off_v(md, bpos));
            v = tsr_binary_fwd(e->binary.alg, v, b);
            break;
        }
        case tsr_post_op_prelu:
            if (prelu_weights)
                v = tsr_prelu_post_op(v, prelu_weights[i][tsr_mask_index(
                                                 e->prelu.mask, dst_md->ndims,
                                                 dst_md->dims, pos)]);
            break;
        default:
            break;
        }
    }
    return v;
}
