/* Primitive descriptors: dispatch over an implementation list, the checks
 * of attributes against the problem, queries, iteration and cloning.
 *
 * A pd owns a deep copy of the op descriptor and attributes. Its
 * implementation-dependent state (resolved mds, scratchpad, impl_data,
 * info) is rebuilt from those copies each time an implementation is
 * tried, so next_impl and clone simply re-run an init. */
#include <stdlib.h>
#include <string.h>

#include "attr_mask.h"
#include "memory_desc.h"
#include "primitive.h"
#include "verbose.h"

/* pd->md[] as the op descriptor states them, "any" unresolved; everything
 * an implementation fills cleared. */
static void reset_impl_state(struct tsr_primitive_desc *pd) {
    memset(pd->md, 0, sizeof(pd->md));
    memset(pd->arg_usage, 0, sizeof(pd->arg_usage));
    const tsr_prim_kind_info_t *kind = tsr_prim_kind_info(pd->op.kind);
    if (kind)
        kind->set_args(pd);
    for (int slot = 0; slot < TSR_MD_COUNT; slot++)
        pd->user_asked_any[slot] = md_is_any(&pd->md[slot]);
    memset(&pd->scratchpad_md, 0, sizeof(pd->scratchpad_md));
    pd->scratchpad_size = 0;
    pd->impl = NULL;
    pd->impl_data = NULL;
    pd->info[0] = '\0';
}

static void release_impl_data(struct tsr_primitive_desc *pd) {
    if (pd->impl && pd->impl->fini && pd->impl_data)
        pd->impl->fini(pd);
    pd->impl_data = NULL;
}

/* In user mode the scratchpad is described to the caller as a 1D u8
 * buffer; in library mode (or when none is needed) as a zero md. */
static tsr_status_t describe_scratchpad(struct tsr_primitive_desc *pd) {
    memset(&pd->scratchpad_md, 0, sizeof(pd->scratchpad_md));
    if (pd->attr.scratchpad_mode != tsr_scratchpad_mode_user ||
        pd->scratchpad_size == 0)
        return tsr_success;
    const tsr_dim_t dims[1] = {(tsr_dim_t)pd->scratchpad_size};
    const int order[1] = {0};
    return md_init_blocked(&pd->scratchpad_md, 1, dims, tsr_u8, order, 0, NULL,
                           NULL);
}

/* Runs implementation `index` of the list on `pd`. On success the pd
 * holds it; otherwise its implementation state is cleared. */
static tsr_status_t try_impl(struct tsr_primitive_desc *pd, int index) {
    const tsr_impl_t *impl = pd->impl_list[index];
    reset_impl_state(pd);
    pd->impl = impl;
    tsr_status_t st = impl->init(pd);
    if (st == tsr_success)
        st = describe_scratchpad(pd);
    if (st != tsr_success) {
        release_impl_data(pd);
        reset_impl_state(pd);
        return st;
    }
    pd->impl_index = index;
    tsr_verbose_fill_info(pd);
    return tsr_success;
}

/* The first implementation from `start` on that the ISA allows and that
 * accepts the problem. tsr_unimplemented means "none"; other errors stop
 * the walk. */
static tsr_status_t find_impl(struct tsr_primitive_desc *pd, int start) {
    for (int i = start; pd->impl_list[i]; i++) {
        if (!tsr_mayiuse(pd->impl_list[i]->isa))
            continue;
        tsr_status_t st = try_impl(pd, i);
        if (st != tsr_unimplemented)
            return st;
    }
    return tsr_unimplemented;
}

/* The memory descriptor a scale or zero-point argument refers to, or NULL
 * when the primitive has no such argument. */
static const tsr_memory_desc_t *qarg_md(const struct tsr_primitive_desc *pd,
                                        int qarg) {
    const tsr_memory_desc_t *md = &pd->md[tsr_arg_slot(tsr_qarg_arg(qarg))];
    return md_is_zero(md) ? NULL : md;
}

static int q_mask_fits(const struct tsr_primitive_desc *pd, int qarg,
                       const tsr_runtime_q_t *q) {
    if (!q->set)
        return 1;
    const tsr_memory_desc_t *md = qarg_md(pd, qarg);
    return md && tsr_mask_nelems(q->mask, md->ndims, md->dims) > 0;
}

static int post_op_fits(const tsr_post_op_t *e, const tsr_memory_desc_t *dst) {
    switch (e->kind) {
    case tsr_post_op_sum:
        return e->sum.dt == tsr_data_type_undef ||
               tsr_data_type_size(e->sum.dt) ==
                       tsr_data_type_size(dst->data_type);
    case tsr_post_op_eltwise:
        return tsr_is_eltwise_alg(e->eltwise.alg);
    case tsr_post_op_binary: {
        const tsr_memory_desc_t *src1 = &e->binary.src1_desc;
        if (src1->ndims != dst->ndims)
            return 0;
        for (int d = 0; d < dst->ndims; d++)
            if (src1->dims[d] != dst->dims[d] && src1->dims[d] != 1)
                return 0;
        return 1;
    }
    case tsr_post_op_prelu:
        return e->prelu.mask >= 0 && (e->prelu.mask >> dst->ndims) == 0;
    default:
        return 0;
    }
}

/* Attribute values that contradict the problem's shapes. Expects pd->md[]
 * filled from the op descriptor. */
static tsr_status_t
check_attr_against_problem(const struct tsr_primitive_desc *pd) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (attr->output_scales.set &&
        tsr_mask_nelems(attr->output_scales.mask, dst->ndims, dst->dims) !=
                attr->output_scales.count)
        return tsr_invalid_arguments;
    for (int q = 0; q < TSR_QARG_COUNT; q++)
        if (!q_mask_fits(pd, q, &attr->scales[q]) ||
            !q_mask_fits(pd, q, &attr->zero_points[q]))
            return tsr_invalid_arguments;
    if (attr->post_ops.len < 0 || attr->post_ops.len > TSR_MAX_POST_OPS)
        return tsr_invalid_arguments;
    for (int i = 0; i < attr->post_ops.len; i++)
        if (!post_op_fits(&attr->post_ops.entry[i], dst))
            return tsr_invalid_arguments;
    return tsr_success;
}

static void pd_free(struct tsr_primitive_desc *pd) {
    release_impl_data(pd);
    tsr_attr_fini(&pd->attr);
    if (pd->hint_fwd)
        pd_free(pd->hint_fwd);
    free(pd);
}

/* A pd with copies of `op` and `attr` (defaults for NULL) and no
 * implementation yet. */
static tsr_status_t pd_alloc(struct tsr_primitive_desc **pd_out,
                             const tsr_op_desc_t *op,
                             const struct tsr_primitive_attr *attr,
                             tsr_engine_t engine,
                             const tsr_impl_t *const *list) {
    struct tsr_primitive_desc *pd = calloc(1, sizeof(*pd));
    if (!pd)
        return tsr_out_of_memory;
    pd->op = *op;
    if (attr) {
        tsr_status_t st = tsr_attr_copy(&pd->attr, attr);
        if (st != tsr_success) {
            free(pd);
            return st;
        }
    } else {
        tsr_attr_init_default(&pd->attr);
    }
    pd->engine = engine;
    pd->impl_list = list;
    reset_impl_state(pd);
    *pd_out = pd;
    return tsr_success;
}

tsr_status_t tsr_pd_create(struct tsr_primitive_desc **pd_out,
                           const tsr_op_desc_t *op,
                           const struct tsr_primitive_attr *attr,
                           tsr_engine_t engine,
                           const struct tsr_primitive_desc *hint_fwd) {
    const tsr_prim_kind_info_t *kind = tsr_prim_kind_info(op->kind);
    if (!kind)
        return tsr_invalid_arguments;
    tsr_status_t st = kind->validate(op);
    if (st != tsr_success)
        return st;
    const tsr_impl_t *const *list = kind->impl_list(op);
    if (!list)
        return tsr_unimplemented;
    struct tsr_primitive_desc *hint = NULL;
    if (hint_fwd) {
        if (hint_fwd->op.kind != op->kind ||
            !tsr_prop_kind_is_forward(kind->prop_kind(&hint_fwd->op)))
            return tsr_invalid_arguments;
        st = tsr_primitive_desc_clone(&hint, hint_fwd);
        if (st != tsr_success)
            return st;
    }
    struct tsr_primitive_desc *pd = NULL;
    st = pd_alloc(&pd, op, attr, engine, list);
    if (st != tsr_success) {
        if (hint)
            pd_free(hint);
        return st;
    }
    pd->hint_fwd = hint;
    st = check_attr_against_problem(pd);
    for (int i = 0; i < TSR_MD_COUNT && st == tsr_success; i++)
        if (!md_extra_ok(&pd->md[i]))
            st = tsr_invalid_arguments;
    if (st == tsr_success)
        st = find_impl(pd, 0);
    if (st != tsr_success) {
        pd_free(pd);
        return st;
    }
    *pd_out = pd;
    return tsr_success;
}

/* The op descriptor the user passed, copied by its kind's size. */
static tsr_status_t copy_user_op(tsr_op_desc_t *op, const void *op_desc) {
    memset(op, 0, sizeof(*op));
    const tsr_prim_kind_info_t *kind =
            tsr_prim_kind_info(*(const tsr_primitive_kind_t *)op_desc);
    if (!kind || kind->op_desc_size == 0)
        return tsr_invalid_arguments;
    memcpy(op, op_desc, kind->op_desc_size);
    return tsr_success;
}

tsr_status_t tsr_primitive_desc_create_with_hint(
        tsr_primitive_desc_t *primitive_desc, const void *op_desc,
        const_tsr_primitive_attr_t attr, tsr_engine_t engine,
        const_tsr_primitive_desc_t hint_fwd_pd) {
    if (!primitive_desc || !op_desc || !tsr_engine_is_cpu(engine))
        return tsr_invalid_arguments;
    /* Large (sum and concat hold up to 64 descriptors): not on the stack. */
    tsr_op_desc_t *op = malloc(sizeof(*op));
    if (!op)
        return tsr_out_of_memory;
    tsr_status_t st = copy_user_op(op, op_desc);
    if (st == tsr_success)
        st = tsr_pd_create(primitive_desc, op, attr, engine, hint_fwd_pd);
    free(op);
    return st;
}

tsr_status_t tsr_primitive_desc_create(tsr_primitive_desc_t *primitive_desc,
                                       const void *op_desc,
                                       const_tsr_primitive_attr_t attr,
                                       tsr_engine_t engine) {
    return tsr_primitive_desc_create_with_hint(primitive_desc, op_desc, attr,
                                               engine, NULL);
}

tsr_status_t tsr_primitive_desc_next_impl(tsr_primitive_desc_t primitive_desc) {
    if (!primitive_desc)
        return tsr_invalid_arguments;
    /* Work on a shallow copy so the pd stays as it was when nothing else
     * accepts. The copy shares the attr's heap data; only one of the two
     * is ever released. */
    struct tsr_primitive_desc *next = malloc(sizeof(*next));
    if (!next)
        return tsr_out_of_memory;
    *next = *primitive_desc;
    tsr_status_t st = find_impl(next, primitive_desc->impl_index + 1);
    if (st == tsr_success) {
        release_impl_data(primitive_desc);
        *primitive_desc = *next;
    }
    free(next);
    return st == tsr_unimplemented ? tsr_last_impl_reached : st;
}

tsr_status_t tsr_primitive_desc_clone(tsr_primitive_desc_t *primitive_desc,
                                      const_tsr_primitive_desc_t existing) {
    if (!primitive_desc || !existing || !existing->impl)
        return tsr_invalid_arguments;
    struct tsr_primitive_desc *pd = NULL;
    tsr_status_t st = pd_alloc(&pd, &existing->op, &existing->attr,
                               existing->engine, existing->impl_list);
    if (st != tsr_success)
        return st;
    if (existing->hint_fwd)
        st = tsr_primitive_desc_clone(&pd->hint_fwd, existing->hint_fwd);
    if (st == tsr_success)
        st = try_impl(pd, existing->impl_index);
    if (st != tsr_success) {
        pd_free(pd);
        return st == tsr_unimplemented ? tsr_runtime_error : st;
    }
    *primitive_desc = pd;
    return tsr_success;
}

tsr_status_t tsr_primitive_desc_destroy(tsr_primitive_desc_t primitive_desc) {
    if (primitive_desc)
        pd_free(primitive_desc);
    return tsr_success;
}

const tsr_memory_desc_t *
tsr_primitive_desc_query_arg_md(const_tsr_primitive_desc_t primitive_desc,
                                int arg) {
    if (!primitive_desc)
        return NULL;
    if (arg == TSR_ARG_SCRATCHPAD)
        return &primitive_desc->scratchpad_md;
    const int slot = tsr_arg_slot(arg);
    if (slot < 0 || primitive_desc->arg_usage[slot] == tsr_arg_unused)
        return NULL;
    return &primitive_desc->md[slot];
}

tsr_arg_usage_t
tsr_primitive_desc_query_arg_usage(const_tsr_primitive_desc_t primitive_desc,
                                   int arg) {
    if (!primitive_desc)
        return tsr_arg_unused;
    const int slot = tsr_arg_slot(arg);
    return slot < 0 ? tsr_arg_unused : primitive_desc->arg_usage[slot];
}

const tsr_memory_desc_t *
tsr_primitive_desc_query_md(const_tsr_primitive_desc_t primitive_desc,
                            tsr_query_t what) {
    static const int arg_of_query[] = {
            [tsr_query_src_md] = TSR_ARG_SRC,
            [tsr_query_weights_md] = TSR_ARG_WEIGHTS,
            [tsr_query_bias_md] = TSR_ARG_BIAS,
            [tsr_query_dst_md] = TSR_ARG_DST,
            [tsr_query_scratchpad_md] = TSR_ARG_SCRATCHPAD,
            [tsr_query_diff_src_md] = TSR_ARG_DIFF_SRC,
            [tsr_query_diff_weights_md] = TSR_ARG_DIFF_WEIGHTS,
            [tsr_query_diff_bias_md] = TSR_ARG_DIFF_BIAS,
            [tsr_query_diff_dst_md] = TSR_ARG_DIFF_DST,
            [tsr_query_workspace_md] = TSR_ARG_WORKSPACE,
    };
    if ((int)what <= 0 ||
        (size_t)what >= sizeof(arg_of_query) / sizeof(arg_of_query[0]))
        return NULL;
    return tsr_primitive_desc_query_arg_md(primitive_desc, arg_of_query[what]);
}

const char *
tsr_primitive_desc_impl_name(const_tsr_primitive_desc_t primitive_desc) {
    if (!primitive_desc || !primitive_desc->impl)
        return NULL;
    return primitive_desc->impl->name;
}

tsr_status_t tsr_primitive_desc_query_scratchpad_size(
        const_tsr_primitive_desc_t primitive_desc, size_t *size) {
    if (!primitive_desc || !size)
        return tsr_invalid_arguments;
    *size = primitive_desc->scratchpad_size;
    return tsr_success;
}

tsr_primitive_kind_t
tsr_primitive_desc_kind(const_tsr_primitive_desc_t primitive_desc) {
    return primitive_desc ? primitive_desc->op.kind : tsr_undefined_primitive;
}
