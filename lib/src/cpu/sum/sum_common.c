/* What every sum implementation shares: the "any" choice and the dense
 * layout test. */
#include "common/dense_layout.h"
#include "common/memory_desc.h"
#include "sum.h"

tsr_status_t sum_init_common(struct tsr_primitive_desc *pd) {
    if (!tsr_attr_has_default_values(&pd->attr))
        return tsr_unimplemented;
    tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (md_is_any(dst))
        return md_init_dense_like(dst, &pd->md[TSR_MD_MULTIPLE_SRC], dst->dims,
                                  dst->data_type, 1);
    return tsr_success;
}

/* Dense: the padded points fill [offset0, offset0 + product) exactly. */
static int md_is_dense(const tsr_memory_desc_t *md) {
    tsr_dim_t product = 1;
    for (int d = 0; d < md->ndims; d++)
        product *= md->padded_dims[d];
    return md_nelems_padded(md) - md->offset0 == product;
}

int sum_is_dense(const struct tsr_primitive_desc *pd, int f32_only) {
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (!md_is_dense(dst) || (f32_only && dst->data_type != tsr_f32))
        return 0;
    for (int i = 0; i < pd->op.multi.n; i++) {
        const tsr_memory_desc_t *src = &pd->md[TSR_MD_MULTIPLE_SRC + i];
        if (!md_same_layout(src, dst) || !md_is_dense(src) ||
            (f32_only && src->data_type != tsr_f32))
            return 0;
    }
    return 1;
}

tsr_dim_t sum_dense_nelems(const struct tsr_primitive_desc *pd) {
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    return md_nelems_padded(dst) - dst->offset0;
}
