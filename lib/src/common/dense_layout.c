/* Dense layouts as outer orders plus inner blocks (see dense_layout.h). */
#include "dense_layout.h"
#include "memory_desc.h"

int md_is_usable_blocked(const tsr_memory_desc_t *md) {
    return md->format_kind == tsr_format_kind_blocked && md_is_valid(md);
}

tsr_dim_t md_outer_extent(const tsr_memory_desc_t *md, int d) {
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(md, blocks);
    return md->padded_dims[d] / blocks[d];
}

tsr_dim_t md_inner_block_elems(const tsr_memory_desc_t *md) {
    tsr_dim_t elems = 1;
    for (int k = 0; k < md->blocking.inner_nblks; k++)
        elems *= md->blocking.inner_blks[k];
    return elems;
}

void md_outer_order(const tsr_memory_desc_t *md, int *order) {
    tsr_dim_t extent[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++) {
        order[d] = d;
        extent[d] = md_outer_extent(md, d);
    }
    for (int i = 1; i < md->ndims; i++)
        for (int j = i; j > 0; j--) {
            const int x = order[j - 1], y = order[j];
            const tsr_dim_t sx = md->blocking.strides[x];
            const tsr_dim_t sy = md->blocking.strides[y];
            if (!(sy > sx || (sy == sx && extent[y] > extent[x])))
                break;
            order[j - 1] = y;
            order[j] = x;
        }
}

static tsr_status_t init_in_order(tsr_memory_desc_t *md,
                                  const tsr_memory_desc_t *like,
                                  const int *order, const tsr_dim_t *dims,
                                  tsr_data_type_t dt, int keep_blocks) {
    const tsr_blocking_desc_t *blk = &like->blocking;
    int idxs[TSR_MAX_NDIMS];
    const int nblks = keep_blocks ? blk->inner_nblks : 0;
    for (int k = 0; k < nblks; k++)
        idxs[k] = (int)blk->inner_idxs[k];
    return md_init_blocked(md, like->ndims, dims, dt, order, nblks,
                           blk->inner_blks, idxs);
}

int md_is_dense_in_order(const tsr_memory_desc_t *md, const int *order) {
    if (md->format_kind != tsr_format_kind_blocked)
        return 0;
    tsr_memory_desc_t dense;
    if (init_in_order(&dense, md, order, md->dims, md->data_type, 1) !=
        tsr_success)
        return 0;
    return md_same_layout(md, &dense);
}

tsr_status_t md_init_dense_like(tsr_memory_desc_t *md,
                                const tsr_memory_desc_t *like,
                                const tsr_dim_t *dims, tsr_data_type_t dt,
                                int keep_blocks) {
    int order[TSR_MAX_NDIMS];
    md_outer_order(like, order);
    return init_in_order(md, like, order, dims, dt, keep_blocks);
}
