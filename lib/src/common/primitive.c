/* Primitives: creation from a pd, and execution with every argument checked
 * before the implementation runs, so a bad call writes nothing.
 *
 * Scratchpad: in library mode the primitive allocates its scratchpad once,
 * at creation, and every execution uses that buffer; concurrent executions
 * of one primitive are therefore only safe in user mode, where each call
 * brings its own buffer and the library allocates nothing. */
#include <stdlib.h>
#include <string.h>

#include "attr_mask.h"
#include "memory_desc.h"
#include "primitive.h"
#include "utils.h"
#include "verbose.h"

struct tsr_primitive {
    struct tsr_primitive_desc *pd; /* owned clone */
    void *scratchpad;              /* library mode only */
};

tsr_memory_t tsr_ctx_memory(const tsr_exec_ctx_t *ctx, int arg) {
    for (int i = 0; i < ctx->nargs; i++)
        if (ctx->args[i].arg == arg)
            return ctx->args[i].memory;
    return NULL;
}

void *tsr_ctx_data(const tsr_exec_ctx_t *ctx, int arg) {
    tsr_memory_t mem = tsr_ctx_memory(ctx, arg);
    return mem ? mem->data : NULL;
}

tsr_status_t tsr_primitive_create(tsr_primitive_t *primitive,
                                  const_tsr_primitive_desc_t primitive_desc) {
    if (!primitive || !primitive_desc)
        return tsr_invalid_arguments;
    const double start = tsr_time_ms();
    struct tsr_primitive *p = calloc(1, sizeof(*p));
    if (!p)
        return tsr_out_of_memory;
    tsr_status_t st = tsr_primitive_desc_clone(&p->pd, primitive_desc);
    if (st != tsr_success) {
        free(p);
        return st;
    }
    if (p->pd->attr.scratchpad_mode == tsr_scratchpad_mode_library &&
        p->pd->scratchpad_size > 0) {
        p->scratchpad = tsr_malloc(p->pd->scratchpad_size);
        if (!p->scratchpad) {
            tsr_primitive_desc_destroy(p->pd);
            free(p);
            return tsr_out_of_memory;
        }
    }
    if (tsr_verbose_level() >= 2)
        tsr_verbose_print("create", p->pd, tsr_time_ms() - start);
    *primitive = p;
    return tsr_success;
}

tsr_status_t
tsr_primitive_get_primitive_desc(const_tsr_primitive_t primitive,
                                 const_tsr_primitive_desc_t *primitive_desc) {
    if (!primitive || !primitive_desc)
        return tsr_invalid_arguments;
    *primitive_desc = primitive->pd;
    return tsr_success;
}

tsr_status_t tsr_primitive_destroy(tsr_primitive_t primitive) {
    if (primitive) {
        tsr_free(primitive->scratchpad);
        tsr_primitive_desc_destroy(primitive->pd);
        free(primitive);
    }
    return tsr_success;
}

/* A data argument: present, with a buffer, described exactly as the pd
 * says. */
static int data_arg_ok(const tsr_exec_ctx_t *ctx, int arg,
                       const tsr_memory_desc_t *expected) {
    tsr_memory_t mem = tsr_ctx_memory(ctx, arg);
    return mem && mem->data && tsr_memory_desc_equal(&mem->md, expected);
}

/* Scale and zero-point values are read as a dense array of `count`
 * elements of type `dt`. */
static int values_arg_ok(const tsr_exec_ctx_t *ctx, int arg, tsr_dim_t count,
                         tsr_data_type_t dt) {
    tsr_memory_t mem = tsr_ctx_memory(ctx, arg);
    if (!mem || !mem->data)
        return 0;
    const tsr_memory_desc_t *md = &mem->md;
    return md->ndims == 1 && md->dims[0] == count && md->data_type == dt &&
           md->format_kind == tsr_format_kind_blocked && md->offset0 == 0 &&
           md->blocking.inner_nblks == 0 && md->blocking.strides[0] == 1;
}

/* Prelu post-op weights: `count` f32 values, dense and row-major over
 * their dims (any rank, e.g. 1D or dst's rank with 1s where the mask has
 * no bit), which is how the epilogue indexes them. */
static int prelu_weights_arg_ok(const tsr_exec_ctx_t *ctx, int arg,
                                tsr_dim_t count) {
    tsr_memory_t mem = tsr_ctx_memory(ctx, arg);
    if (!mem || !mem->data)
        return 0;
    const tsr_memory_desc_t *md = &mem->md;
    if (md->data_type != tsr_f32 ||
        md->format_kind != tsr_format_kind_blocked || md->offset0 != 0 ||
        md->blocking.inner_nblks != 0)
        return 0;
    tsr_dim_t row_major_stride = 1;
    for (int d = md->ndims - 1; d >= 0; d--) {
        if (md->dims[d] != 1 && md->blocking.strides[d] != row_major_stride)
            return 0;
        row_major_stride *= md->dims[d];
    }
    return row_major_stride == count;
}

static int attr_args_ok(const struct tsr_primitive_desc *pd,
                        const tsr_exec_ctx_t *ctx) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    for (int q = 0; q < TSR_QARG_COUNT; q++) {
        const int arg = tsr_qarg_arg(q);
        const tsr_memory_desc_t *md = &pd->md[tsr_arg_slot(arg)];
        if (attr->scales[q].set) {
            tsr_dim_t n =
                    tsr_mask_nelems(attr->scales[q].mask, md->ndims, md->dims);
            if (!values_arg_ok(ctx, TSR_ARG_ATTR_SCALES | arg, n, tsr_f32))
                return 0;
        }
        if (attr->zero_points[q].set) {
            tsr_dim_t n = tsr_mask_nelems(attr->zero_points[q].mask, md->ndims,
                                          md->dims);
            if (!values_arg_ok(ctx, TSR_ARG_ATTR_ZERO_POINTS | arg, n, tsr_s32))
                return 0;
        }
    }
    for (int i = 0; i < attr->post_ops.len; i++) {
        const tsr_post_op_t *e = &attr->post_ops.entry[i];
        if (e->kind == tsr_post_op_prelu) {
            const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
            if (!prelu_weights_arg_ok(
                        ctx, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_WEIGHTS,
                        tsr_mask_nelems(e->prelu.mask, dst->ndims, dst->dims)))
                return 0;
            continue;
        }
        if (e->kind != tsr_post_op_binary)
            continue;
        int arg = TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_SRC_1;
        if (!data_arg_ok(ctx, arg, &e->binary.src1_desc))
            return 0;
    }
    return 1;
}

/* Finds the scratchpad for this execution; 0 when the user's is missing,
 * of the wrong kind or too small. */
static int bind_scratchpad(const struct tsr_primitive *p, tsr_exec_ctx_t *ctx) {
    const struct tsr_primitive_desc *pd = p->pd;
    if (pd->attr.scratchpad_mode == tsr_scratchpad_mode_library) {
        ctx->scratchpad = p->scratchpad;
        return 1;
    }
    tsr_memory_t mem = tsr_ctx_memory(ctx, TSR_ARG_SCRATCHPAD);
    ctx->scratchpad = NULL;
    if (!mem)
        return pd->scratchpad_size == 0;
    const tsr_memory_desc_t *md = &mem->md;
    if (md->ndims != 1 || md->data_type != tsr_u8 ||
        md->format_kind != tsr_format_kind_blocked)
        return 0;
    if (pd->scratchpad_size == 0)
        return 1;
    if (!mem->data || tsr_memory_desc_get_size(md) < pd->scratchpad_size)
        return 0;
    ctx->scratchpad = mem->data;
    return 1;
}

/* Every argument the pd reads or writes, present and described as the pd
 * says. */
static int required_args_ok(const struct tsr_primitive_desc *pd,
                            const tsr_exec_ctx_t *ctx) {
    for (int slot = 0; slot < TSR_MD_COUNT; slot++)
        if (pd->arg_usage[slot] != tsr_arg_unused &&
            !data_arg_ok(ctx, tsr_slot_arg(slot), &pd->md[slot]))
            return 0;
    return 1;
}

/* Copies the argument list, refusing NULL memories and repeated ids. */
static int gather_args(tsr_exec_ctx_t *ctx, int nargs,
                       const tsr_exec_arg_t *args) {
    if (nargs < 0 || nargs > TSR_MAX_EXEC_ARGS || (nargs > 0 && !args))
        return 0;
    ctx->nargs = 0;
    for (int i = 0; i < nargs; i++) {
        if (!args[i].memory || tsr_ctx_memory(ctx, args[i].arg))
            return 0;
        ctx->args[ctx->nargs++] = args[i];
    }
    return 1;
}

tsr_status_t tsr_primitive_execute(const_tsr_primitive_t primitive,
                                   tsr_stream_t stream, int nargs,
                                   const tsr_exec_arg_t *args) {
    if (!primitive || !stream)
        return tsr_invalid_arguments;
    const struct tsr_primitive_desc *pd = primitive->pd;
    tsr_exec_ctx_t ctx;
    memset(&ctx, 0, sizeof(ctx));
    if (!gather_args(&ctx, nargs, args) || !required_args_ok(pd, &ctx) ||
        !attr_args_ok(pd, &ctx) || !bind_scratchpad(primitive, &ctx))
        return tsr_invalid_arguments;

    const int verbose = tsr_verbose_level() >= 1;
    const double start = verbose ? tsr_time_ms() : 0.0;
    tsr_status_t st = pd->impl->execute(pd, &ctx);
    /* A reorder into weights with extra data also writes that data, the
     * same way after every implementation. */
    if (st == tsr_success && pd->op.kind == tsr_reorder)
        md_extra_compute(&pd->md[TSR_MD_DST], tsr_ctx_data(&ctx, TSR_ARG_TO));
    if (verbose && st == tsr_success)
        tsr_verbose_print("exec", pd, tsr_time_ms() - start);
    return st;
}
