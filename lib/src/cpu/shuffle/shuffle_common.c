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
