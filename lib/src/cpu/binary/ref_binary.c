/* The reference binary, "ref:any": any layouts and data types of the three
 * tensors, either source broadcast along any dims, every binary attribute.
 * One dst point at a time through the generic offset function; rows of the
 * innermost logical dim are spread over the threads. */
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "cpu/binary/binary_common.h"
#include "cpu/binary/binary_impls.h"
#include "cpu/common/ref_post_ops.h"

static tsr_status_t ref_binary_init(struct tsr_primitive_desc *pd) {
    if (!binary_attr_ok(&pd->attr))
        return tsr_unimplemented;
    return binary_resolve_any(pd);
}

static tsr_status_t ref_binary_execute(const struct tsr_primitive_desc *pd,
                                       const tsr_exec_ctx_t *ctx) {
    const tsr_memory_desc_t *src0_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *src1_md = &pd->md[TSR_MD_SRC_1];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    const struct tsr_primitive_attr *attr = &pd->attr;
    const tsr_alg_kind_t alg = pd->op.binary.alg_kind;
    binary_rt_t rt;
    binary_rt_init(&rt, pd, ctx);

    const int ndims = dst_md->ndims;
    const tsr_dim_t row_len = dst_md->dims[ndims - 1];
    const tsr_dim_t rows = tsr_memory_desc_nelems(dst_md) / row_len;
#pragma omp parallel for schedule(static) if (rows * row_len >= 4096)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS], spos[TSR_MAX_NDIMS];
        md_l2pos(dst_md, row * row_len, pos);
        for (tsr_dim_t i = 0; i < row_len; i++) {
            pos[ndims - 1] = i;
            binary_bcast_pos(src0_md, pos, spos);
            const float a = tsr_load_f32_inline(src0_md->data_type, rt.src0,
                                                md_off_v(src0_md, spos));
            binary_bcast_pos(src1_md, pos, spos);
            const float b = tsr_load_f32_inline(src1_md->data_type, rt.src1,
                                                md_off_v(src1_md, spos));
            const tsr_dim_t dst_off = md_off_v(dst_md, pos);
            float v = tsr_binary_fwd(alg, rt.scale0 * a, rt.scale1 * b);
            v = tsr_ref_post_ops_apply(&attr->post_ops, v, pos, dst_md, rt.dst,
                                       dst_off, rt.po_src1, NULL);
            tsr_store_f32_inline(dst_md->data_type, rt.dst, dst_off, v,
                                 attr->round_mode);
        }
    }
    md_zero_pad(dst_md, rt.dst);
    return tsr_success;
}

const tsr_impl_t tsr_ref_binary_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_binary_init,
        .execute = ref_binary_execute,
        .fini = NULL,
};
