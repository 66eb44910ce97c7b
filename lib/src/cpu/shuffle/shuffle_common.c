/* What every shuffle implementation shares: the direction's arguments and
 * group, and the "any" choice. */
#include "common/dense_layout.h"
#include "common/memory_desc.h"
#include "shuffle.h"

void shuffle_conf_init(shuffle_conf_t *conf,
                       const struct tsr_primitive_desc *pd) {
    const tsr_shuffle_desc_t *desc = &pd->op.shuffle;
    const int forward = tsr_prop_kind_is_forward(desc->prop_kind);
    conf->in_slot = forward ? TSR_MD_SRC : TSR_MD_DIFF_DST;
    conf->out_slot = forward ? TSR_MD_DST : TSR_MD_DIFF_SRC;
    conf->in_arg = tsr_slot_arg(conf->in_slot);
    conf->out_arg = tsr_slot_arg(conf->out_slot);
    conf->axis = desc->axis;
    conf->axis_size = pd->md[conf->in_slot].dims[desc->axis];
    conf->group =
            forward ? desc->group_size : conf->axis_size / desc->group_size;
}

tsr_status_t shuffle_init_common(struct tsr_primitive_desc *pd) {
    if (!tsr_attr_has_default_values(&pd->attr))
        return tsr_unimplemented;
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    tsr_memory_desc_t *out = &pd->md[conf.out_slot];
    if (md_is_any(out))
        return md_init_dense_like(out, &pd->md[conf.in_slot], out->dims,
                                  out->data_type, 1);
    return tsr_success;
}

int shuffle_shape_init(shuffle_shape_t *sh, const shuffle_conf_t *conf,
                       const struct tsr_primitive_desc *pd) {
    const tsr_memory_desc_t *in = &pd->md[conf->in_slot];
    const tsr_memory_desc_t *out = &pd->md[conf->out_slot];
    int order[TSR_MAX_NDIMS];
    md_outer_order(in, order);
    if (!md_same_layout(in, out) || !md_is_dense_in_order(in, order))
        return 0;
    const tsr_blocking_desc_t *b = &in->blocking;
    if (b->inner_nblks > 1 ||
        (b->inner_nblks == 1 && b->inner_idxs[0] != conf->axis))
        return 0;
    sh->blk = b->inner_nblks ? b->inner_blks[0] : 1;
    sh->esize = tsr_data_type_size(in->data_type);
    int axis_pos = 0;
    while (order[axis_pos] != conf->axis)
        axis_pos++;
    sh->outer = 1;
    sh->points = 1;
    for (int j = 0; j < in->ndims; j++) {
        if (j < axis_pos)
            sh->outer *= md_outer_extent(in, order[j]);
        else if (j > axis_pos)
            sh->points *= md_outer_extent(in, order[j]);
    }
    sh->blocks = md_outer_extent(in, conf->axis);
    return 1;
}
