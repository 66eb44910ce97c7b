/* Shuffle implementations and what they share.
 *
 * Both directions are one permutation: out[f(a)] = in[a] along the axis,
 * f(a) = (a % g) * (A / g) + a / g, with in = src, out = dst and g the
 * group size forward; backward in = diff_dst, out = diff_src and g = A / G,
 * which gives the inverse of the forward permutation. */
#ifndef TSR_CPU_SHUFFLE_SHUFFLE_H
#define TSR_CPU_SHUFFLE_SHUFFLE_H

#include "common/primitive.h"

extern const tsr_impl_t tsr_ref_shuffle_impl;
extern const tsr_impl_t tsr_simple_shuffle_impl;
extern const tsr_impl_t tsr_gather_shuffle_impl;
extern const tsr_impl_t tsr_permute_shuffle_impl;

/* Below this many elements one thread does the whole shuffle. */
enum { SHUFFLE_PARALLEL_MIN = 1 << 15 };

typedef struct {
    int in_slot, out_slot; /* TSR_MD_* */
    int in_arg, out_arg;   /* TSR_ARG_* */
    int axis;
    tsr_dim_t axis_size; /* A */
    tsr_dim_t group;     /* g */
} shuffle_conf_t;

void shuffle_conf_init(shuffle_conf_t *conf,
                       const struct tsr_primitive_desc *pd);

/* The checks and choices every shuffle implementation makes first:
 * default attributes (scratchpad mode aside); an "any" output resolved to
 * the input's layout. */
tsr_status_t shuffle_init_common(struct tsr_primitive_desc *pd);

/* Input and output in one dense layout in which the axis has no inner
 * block or is the only blocked dim: an element sits at
 *   o * blocks * P * blk + (a / blk) * P * blk + s * blk + a % blk
 * (o the dims before the axis in the layout's order, s the P points of the
 * dims after it). */
typedef struct {
    tsr_dim_t outer;  /* indices of the dims before the axis */
    tsr_dim_t points; /* P: indices of the dims after the axis */
    tsr_dim_t blk;    /* the axis' inner block, 1 when not blocked */
    tsr_dim_t blocks; /* padded axis / blk */
    size_t esize;
} shuffle_shape_t;

/* The problem's shape, or 0 when its layouts are not of that kind. */
int shuffle_shape_init(shuffle_shape_t *sh, const shuffle_conf_t *conf,
                       const struct tsr_primitive_desc *pd);

/* The input channel output channel b reads. */
static inline tsr_dim_t shuffle_source(const shuffle_conf_t *conf,
                                       tsr_dim_t b) {
    const tsr_dim_t per_group = conf->axis_size / conf->group;
    return (b % per_group) * conf->group + b / per_group;
}

#endif
