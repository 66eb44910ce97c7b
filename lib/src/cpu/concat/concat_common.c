/* What every concat implementation shares: the "any" choice and the
 * element copy with conversion. */
#include <string.h>

#include "common/data_type.h"
#include "common/dense_layout.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "concat.h"

/* Elements converted at a time: the f32 staging stays in L1. */
enum { STAGE_LEN = 512 };

int concat_same_inner_blocks(const tsr_memory_desc_t *a,
                             const tsr_memory_desc_t *b) {
    if (a->blocking.inner_nblks != b->blocking.inner_nblks)
        return 0;
    for (int k = 0; k < a->blocking.inner_nblks; k++)
        if (a->blocking.inner_blks[k] != b->blocking.inner_blks[k] ||
            a->blocking.inner_idxs[k] != b->blocking.inner_idxs[k])
            return 0;
    return 1;
}

static int all_sources_dense_like(const struct tsr_primitive_desc *pd,
                                  const tsr_memory_desc_t *src0) {
    int order[TSR_MAX_NDIMS];
    md_outer_order(src0, order);
    for (int i = 0; i < pd->op.multi.n; i++) {
        const tsr_memory_desc_t *src = &pd->md[TSR_MD_MULTIPLE_SRC + i];
        if (!concat_same_inner_blocks(src, src0) ||
            !md_is_dense_in_order(src, order))
            return 0;
    }
    return 1;
}

tsr_status_t concat_init_common(struct tsr_primitive_desc *pd) {
    if (!tsr_attr_has_default_values(&pd->attr))
        return tsr_unimplemented;
    tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (!md_is_any(dst))
        return tsr_success;
    const tsr_memory_desc_t *src0 = &pd->md[TSR_MD_MULTIPLE_SRC];
    if (src0->blocking.inner_nblks == 0)
        return md_init_dense_like(dst, src0, dst->dims, dst->data_type, 0);
    /* Blocked sources all in one layout: dst in it too (as oneDNN picks),
     * so the concat is a copy of blocks rather than a reorder. */
    if (all_sources_dense_like(pd, src0))
        return md_init_dense_like(dst, src0, dst->dims, dst->data_type, 1);
    int order[TSR_MAX_NDIMS];
    for (int d = 0; d < dst->ndims; d++)
        order[d] = d;
    return md_init_blocked(dst, dst->ndims, dst->dims, dst->data_type, order, 0,
                           NULL, NULL);
}

void concat_copy_elems(tsr_data_type_t src_dt, const void *src,
                       tsr_data_type_t dst_dt, void *dst, tsr_dim_t n) {
    if (src_dt == dst_dt) {
        memcpy(dst, src, (size_t)n * tsr_data_type_size(src_dt));
        return;
    }
    const size_t src_esize = tsr_data_type_size(src_dt);
    const size_t dst_esize = tsr_data_type_size(dst_dt);
    float buf[STAGE_LEN];
    for (tsr_dim_t start = 0; start < n; start += STAGE_LEN) {
        const tsr_dim_t len = TSR_MIN(STAGE_LEN, n - start);
        tsr_cvt_to_f32_strided(src_dt,
                               (const char *)src + (size_t)start * src_esize, 1,
                               buf, 1, len);
        tsr_cvt_from_f32_strided(dst_dt, buf, 1,
                                 (char *)dst + (size_t)start * dst_esize, 1,
                                 len, tsr_round_nearest);
    }
}
