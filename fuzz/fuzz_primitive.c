/* Primitives through the public API: an op descriptor of every kind the
 * library has (prim_ops.c) with attributes (post-ops, scales, zero points,
 * output scales, scratchpad and round modes) from the bytes, the primitive
 * descriptor, its queries and, when its memories total at most 1 MiB, the
 * primitive executed on memories filled from the bytes (a user scratchpad
 * when the attributes ask). Everything is destroyed (LeakSanitizer counts).
 * Checked: an execution given every argument the pd asks for succeeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prim_ops.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EXEC_BYTES ((size_t)1 << 20)
#define MAX_POST_OPS 3
#define MAX_QARGS 4
#define MAX_ARGS 64

static tsr_engine_t engine;
static tsr_stream_t stream;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "fuzz_primitive: %s\n", what);
        abort();
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    check(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success, "engine");
    check(tsr_stream_create(&stream, engine) == tsr_success, "stream");
    return 0;
}

/* What the attributes ask at execution. */
typedef struct {
    int n_scales, n_zero_points;
    int scale_arg[MAX_QARGS], scale_mask[MAX_QARGS];
    int zp_arg[MAX_QARGS], zp_mask[MAX_QARGS];
    int n_post_ops;
    tsr_post_op_kind_t post_op[MAX_POST_OPS];
    tsr_memory_desc_t binary_src1[MAX_POST_OPS];
    int prelu_mask[MAX_POST_OPS];
    fuzz_dst_t dst;
} attr_info_t;

static int fuzz_mask(fuzz_bytes_t *b) {
    static const int masks[] = {0, 0, 2, 1, 3, 1 << 1 | 1 << 2, 1 << 4, -1};
    const uint8_t v = fuzz_u8(b);
    return v < 250 ? masks[v % 8] : (int)fuzz_u32(b);
}

static int fuzz_qarg(fuzz_bytes_t *b) {
    static const int args[] = {TSR_ARG_SRC,          TSR_ARG_WEIGHTS,
                               TSR_ARG_DST,          TSR_ARG_SRC_1,
                               TSR_ARG_MULTIPLE_SRC, TSR_ARG_BIAS};
    return args[fuzz_u8(b) % 6];
}

static int32_t fuzz_zero_point(fuzz_bytes_t *b) {
    static const int32_t edges[] = {INT32_MIN, INT32_MAX, -1000000, 255, -128};
    const uint8_t v = fuzz_u8(b);
    return v < 240 ? (int32_t)(v % 9) - 4 : edges[v % 5];
}

static void append_post_op(fuzz_bytes_t *b, tsr_post_ops_t ops,
                           attr_info_t *info) {
    const int i = info->n_post_ops;
    tsr_status_t st = tsr_invalid_arguments;
    tsr_post_op_kind_t kind = (tsr_post_op_kind_t)(1 + fuzz_u8(b) % 4);
    switch (kind) {
    case tsr_post_op_sum:
        st = tsr_post_ops_append_sum(ops, fuzz_float(b), fuzz_zero_point(b),
                                     fuzz_u8(b) & 1 ? tsr_data_type_undef
                                                    : fuzz_data_type(b));
        break;
    case tsr_post_op_eltwise: {
        const int n = tsr_eltwise_alg_last - tsr_eltwise_relu;
        st = tsr_post_ops_append_eltwise(
                ops, fuzz_float(b),
                (tsr_alg_kind_t)(tsr_eltwise_relu + fuzz_int(b, 0, n)),
                fuzz_float(b), fuzz_float(b));
        break;
    }
    case tsr_post_op_binary: {
        tsr_dims_t dims;
        const uint8_t bcast = fuzz_u8(b);
        for (int d = 0; d < info->dst.ndims; d++)
            dims[d] = bcast >> (d % 8) & 1 ? 1 : info->dst.dims[d];
        tsr_memory_desc_t *md = &info->binary_src1[i];
        const int n = tsr_binary_alg_last - tsr_binary_add - 1;
        if (fuzz_md(b, md, info->dst.ndims, dims, fuzz_data_type(b)) ==
            tsr_success)
            st = tsr_post_ops_append_binary(
                    ops, (tsr_alg_kind_t)(tsr_binary_add + fuzz_int(b, 0, n)),
                    md);
        break;
    }
    default:
        info->prelu_mask[i] = fuzz_mask(b);
        st = tsr_post_ops_append_prelu(ops, info->prelu_mask[i]);
        break;
    }
    if (st == tsr_success)
        info->post_op[info->n_post_ops++] = kind;
}

static tsr_dim_t mask_count(int mask, const fuzz_dst_t *dst) {
    tsr_dim_t n = 1;
    for (int d = 0; d < dst->ndims; d++)
        if ((mask >> d & 1) && __builtin_mul_overflow(n, dst->dims[d], &n))
            return -1;
    return n;
}

/* fuzz_attr_fn: the attributes, what they ask in *(attr_info_t *)ctx. */
static tsr_primitive_attr_t make_attr(fuzz_bytes_t *b, const fuzz_dst_t *dst,
                                      void *ctx) {
    attr_info_t *info = ctx;
    memset(info, 0, sizeof(*info));
    info->dst = *dst;
    const uint8_t flags = fuzz_u8(b);
    if (flags == 0)
        return NULL;
    tsr_primitive_attr_t attr;
    check(tsr_primitive_attr_create(&attr) == tsr_success, "attr");
    if (flags & 1) {
        tsr_post_ops_t ops;
        check(tsr_post_ops_create(&ops) == tsr_success, "post-ops");
        const int n = fuzz_int(b, 1, MAX_POST_OPS);
        for (int i = 0; i < n; i++)
            append_post_op(b, ops, info);
        tsr_primitive_attr_set_post_ops(attr, ops);
        tsr_post_ops_destroy(ops);
    }
    for (int k = 0; k < ((flags >> 1) & 3); k++) {
        const int arg = fuzz_qarg(b), mask = fuzz_mask(b);
        if (tsr_primitive_attr_set_scales_mask(attr, arg, mask) != tsr_success)
            continue;
        /* Setting an argument's scales again replaces its mask. */
        int i = 0;
        while (i < info->n_scales && info->scale_arg[i] != arg)
            i++;
        if (i == MAX_QARGS)
            continue;
        info->scale_arg[i] = arg;
        info->scale_mask[i] = mask;
        if (i == info->n_scales)
            info->n_scales++;
    }
    if (flags & 8) {
        const int arg = fuzz_qarg(b), mask = fuzz_mask(b);
        if (tsr_primitive_attr_set_zero_points_mask(attr, arg, mask) ==
            tsr_success) {
            info->zp_arg[info->n_zero_points] = arg;
            info->zp_mask[info->n_zero_points++] = mask;
        }
    }
    if (flags & 16) { /* legacy output scales, known at creation */
        enum { MAX_SCALES = 64 };
        float scales[MAX_SCALES];
        const int mask = fuzz_mask(b);
        tsr_dim_t count = mask_count(mask, dst);
        if (fuzz_u8(b) >= 240)
            count = fuzz_int(b, 0, MAX_SCALES);
        if (count >= 0 && count <= MAX_SCALES) {
            for (int i = 0; i < count; i++)
                scales[i] = fuzz_float(b);
            tsr_primitive_attr_set_output_scales(attr, count, mask, scales);
        }
    }
    if (flags & 32)
        tsr_primitive_attr_set_scratchpad_mode(attr, tsr_scratchpad_mode_user);
    if (flags & 64)
        tsr_primitive_attr_set_round_mode(attr, tsr_round_down);
    return attr;
}

/* The execution's memories and their arguments. */
typedef struct {
    int n;
    tsr_exec_arg_t args[MAX_ARGS];
    size_t bytes;
} exec_args_t;

/* Adds a memory for `arg` with descriptor `md`, when the total stays
 * small; 0 when it does not. */
static int add_arg(exec_args_t *e, int arg, const tsr_memory_desc_t *md) {
    const size_t size = tsr_memory_desc_get_size(md);
    if (e->n == MAX_ARGS || size > MAX_EXEC_BYTES - e->bytes)
        return 0;
    tsr_memory_t mem;
    if (tsr_memory_create(&mem, md, engine, TSR_MEMORY_ALLOCATE) != tsr_success)
        return 0;
    e->bytes += size;
    e->args[e->n].arg = arg;
    e->args[e->n++].memory = mem;
    return 1;
}

/* A dense 1D memory of `count` values of `dt` (scales, zero points,
 * prelu weights). */
static int add_values(exec_args_t *e, int arg, tsr_dim_t count,
                      tsr_data_type_t dt) {
    tsr_memory_desc_t md;
    const tsr_dim_t dims[1] = {count};
    return count > 0 &&
           tsr_memory_desc_init_by_tag(&md, 1, dims, dt, "a") == tsr_success &&
           add_arg(e, arg, &md);
}

static tsr_dim_t arg_mask_count(const_tsr_primitive_desc_t pd, int arg,
                                int mask) {
    const tsr_memory_desc_t *md = tsr_primitive_desc_query_arg_md(pd, arg);
    if (!md)
        return -1;
    fuzz_dst_t dims = {.ndims = md->ndims};
    memcpy(dims.dims, md->dims, sizeof(dims.dims));
    return mask_count(mask, &dims);
}

static const int data_args[] = {
        TSR_ARG_SRC,        TSR_ARG_SRC_1,      TSR_ARG_SRC_2,
        TSR_ARG_DST,        TSR_ARG_WEIGHTS,    TSR_ARG_BIAS,
        TSR_ARG_MEAN,       TSR_ARG_VARIANCE,   TSR_ARG_SCALE,
        TSR_ARG_SHIFT,      TSR_ARG_WORKSPACE,  TSR_ARG_DIFF_SRC,
        TSR_ARG_DIFF_SRC_1, TSR_ARG_DIFF_DST,   TSR_ARG_DIFF_WEIGHTS,
        TSR_ARG_DIFF_BIAS,  TSR_ARG_DIFF_SCALE, TSR_ARG_DIFF_SHIFT,
};

/* Every argument the pd and the attributes ask for; 0 when they would
 * not fit in MAX_EXEC_BYTES. */
static int gather(const_tsr_primitive_desc_t pd, const attr_info_t *info,
                  int n_src, exec_args_t *e) {
    for (size_t i = 0; i < sizeof(data_args) / sizeof(data_args[0]); i++) {
        const int arg = data_args[i];
        if (tsr_primitive_desc_query_arg_usage(pd, arg) != tsr_arg_unused &&
            !add_arg(e, arg, tsr_primitive_desc_query_arg_md(pd, arg)))
            return 0;
    }
    for (int i = 0; i < n_src && i < TSR_MAX_MULTIPLE_SRC; i++) {
        const int arg = TSR_ARG_MULTIPLE_SRC + i;
        if (!add_arg(e, arg, tsr_primitive_desc_query_arg_md(pd, arg)))
            return 0;
    }
    for (int i = 0; i < info->n_scales; i++) {
        const int arg = info->scale_arg[i];
        if (!add_values(e, TSR_ARG_ATTR_SCALES | arg,
                        arg_mask_count(pd, arg, info->scale_mask[i]), tsr_f32))
            return 0;
    }
    for (int i = 0; i < info->n_zero_points; i++) {
        const int arg = info->zp_arg[i];
        if (!add_values(e, TSR_ARG_ATTR_ZERO_POINTS | arg,
                        arg_mask_count(pd, arg, info->zp_mask[i]), tsr_s32))
            return 0;
    }
    for (int i = 0; i < info->n_post_ops; i++) {
        const int base = TSR_ARG_ATTR_MULTIPLE_POST_OP(i);
        if (info->post_op[i] == tsr_post_op_binary &&
            !add_arg(e, base | TSR_ARG_SRC_1, &info->binary_src1[i]))
            return 0;
        if (info->post_op[i] == tsr_post_op_prelu &&
            !add_values(e, base | TSR_ARG_WEIGHTS,
                        mask_count(info->prelu_mask[i], &info->dst), tsr_f32))
            return 0;
    }
    size_t scratchpad = 0;
    const tsr_memory_desc_t *md =
            tsr_primitive_desc_query_md(pd, tsr_query_scratchpad_md);
    tsr_primitive_desc_query_scratchpad_size(pd, &scratchpad);
    if (md && md->ndims == 1 && md->dims[0] > 0)
        return add_arg(e, TSR_ARG_SCRATCHPAD, md);
    return 1;
}

/* The bytes left, over and over, into every memory. */
static void fill(fuzz_bytes_t *b, const exec_args_t *e) {
    for (int i = 0; i < e->n; i++) {
        const tsr_memory_desc_t *md;
        void *data;
        tsr_memory_get_desc(e->args[i].memory, &md);
        tsr_memory_get_data_handle(e->args[i].memory, &data);
        const size_t size = tsr_memory_desc_get_size(md);
        unsigned char *p = data;
        for (size_t k = 0; k < size; k++)
            p[k] = b->n ? b->p[k % b->n] : (unsigned char)k;
    }
}

static void execute(fuzz_bytes_t *b, const_tsr_primitive_desc_t pd,
                    const attr_info_t *info, int n_src) {
    exec_args_t e = {0};
    if (gather(pd, info, n_src, &e)) {
        fill(b, &e);
        tsr_primitive_t prim;
        if (tsr_primitive_create(&prim, pd) == tsr_success) {
            const tsr_status_t st =
                    tsr_primitive_execute(prim, stream, e.n, e.args);
            check(st == tsr_success, "execution with every argument failed");
            tsr_primitive_destroy(prim);
        }
    }
    for (int i = 0; i < e.n; i++)
        tsr_memory_destroy(e.args[i].memory);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_bytes_t b = {data, size};
    attr_info_t info = {0};
    fuzz_op_ctx_t ctx = {.b = &b,
                         .engine = engine,
                         .make_attr = make_attr,
                         .attr_ctx = &info};
    const int kind = fuzz_u8(&b) % FUZZ_OP_KINDS;
    int n_src = 0;
    tsr_primitive_desc_t pd = fuzz_op_pd(&ctx, kind, &n_src);
    if (!pd)
        return 0;
    tsr_primitive_desc_impl_name(pd);
    tsr_primitive_desc_kind(pd);
    tsr_primitive_desc_t copy;
    if (tsr_primitive_desc_clone(&copy, pd) == tsr_success) {
        while (tsr_primitive_desc_next_impl(copy) == tsr_success)
            ;
        tsr_primitive_desc_destroy(copy);
    }
    if (kind != FUZZ_OP_KINDS - 1)
        execute(&b, pd, &info, n_src);
    tsr_primitive_desc_destroy(pd);
    return 0;
}
