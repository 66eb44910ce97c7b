/* Primitive descriptors, implementation lists and execution contexts.
 *
 * An implementation is a (name, init, execute) triple. `init` checks the
 * problem in `pd` (op desc, attributes, memory descriptors), resolves "any"
 * layouts in pd->md[], books its scratchpad in pd->scratchpad_size and
 * returns tsr_success, or returns tsr_unimplemented to let the next
 * implementation try. `execute` runs with the arguments gathered in `ctx`. */
#ifndef TSR_COMMON_PRIMITIVE_H
#define TSR_COMMON_PRIMITIVE_H

#include "attr.h"
#include "isa.h"
#include "tessera.h"

struct tsr_engine {
    tsr_engine_kind_t kind;
};
static inline int tsr_engine_is_cpu(tsr_engine_t engine) {
    return engine && engine->kind == tsr_cpu;
}
struct tsr_stream {
    tsr_engine_t engine;
};
struct tsr_memory {
    tsr_memory_desc_t md;
    tsr_engine_t engine;
    void *data;
    int owned; /* the library allocated data */
};

/* Indices into pd->md[]: one slot per execution argument a primitive can
 * take (tsr_arg_slot maps TSR_ARG_* ids to them). */
typedef enum {
    TSR_MD_SRC = 0,
    TSR_MD_WEIGHTS,
    TSR_MD_BIAS,
    TSR_MD_DST,
    TSR_MD_SRC_1,
    TSR_MD_SRC_2,
    TSR_MD_MEAN,
    TSR_MD_VARIANCE,
    TSR_MD_SCALE,
    TSR_MD_SHIFT,
    TSR_MD_WORKSPACE,
    TSR_MD_DIFF_SRC,
    TSR_MD_DIFF_SRC_1,
    TSR_MD_DIFF_DST,
    TSR_MD_DIFF_WEIGHTS,
    TSR_MD_DIFF_BIAS,
    TSR_MD_DIFF_SCALE,
    TSR_MD_DIFF_SHIFT,
    /* TSR_ARG_MULTIPLE_SRC + i is slot TSR_MD_MULTIPLE_SRC + i. */
    TSR_MD_MULTIPLE_SRC,
    TSR_MD_COUNT = TSR_MD_MULTIPLE_SRC + TSR_MAX_MULTIPLE_SRC,
} tsr_md_slot_t;

/* The slot of execution argument `arg`, or -1 when no primitive takes it
 * as a data argument. */
int tsr_arg_slot(int arg);
/* The execution argument id of `slot`. */
int tsr_slot_arg(int slot);

/* Sum and concat: a list of sources. */
typedef struct {
    tsr_primitive_kind_t kind; /* tsr_sum or tsr_concat */
    int n;
    float scales[TSR_MAX_MULTIPLE_SRC]; /* sum */
    int concat_dimension;               /* concat */
    tsr_memory_desc_t src_descs[TSR_MAX_MULTIPLE_SRC];
    tsr_memory_desc_t dst_desc;
} tsr_multi_src_desc_t;

typedef union {
    tsr_primitive_kind_t kind;
    tsr_convolution_desc_t conv;
    tsr_inner_product_desc_t ip;
    tsr_matmul_desc_t matmul;
    struct {
        tsr_primitive_kind_t kind;
        tsr_memory_desc_t src_desc;
        tsr_memory_desc_t dst_desc;
    } reorder;
    tsr_eltwise_desc_t eltwise;
    tsr_binary_desc_t binary;
    tsr_prelu_desc_t prelu;
    tsr_shuffle_desc_t shuffle;
    tsr_multi_src_desc_t multi;
} tsr_op_desc_t;

struct tsr_primitive_desc;
struct tsr_exec_ctx;

typedef struct tsr_impl {
    const char *name;
    /* The lowest ISA this implementation needs (tsr_cpu_isa_generic for
     * portable C). The dispatcher skips it when the effective ISA is lower. */
    tsr_cpu_isa_t isa;
    tsr_status_t (*init)(struct tsr_primitive_desc *pd);
    tsr_status_t (*execute)(const struct tsr_primitive_desc *pd,
                            const struct tsr_exec_ctx *ctx);
    /* Optional: frees pd->impl_data. */
    void (*fini)(struct tsr_primitive_desc *pd);
} tsr_impl_t;

struct tsr_primitive_desc {
    tsr_op_desc_t op;
    struct tsr_primitive_attr attr;
    tsr_engine_t engine;
    /* NULL-terminated list, best first, reference last. */
    const tsr_impl_t *const *impl_list;
    int impl_index;
    const tsr_impl_t *impl;
    /* The arguments' memory descriptors with "any" resolved, and whether
     * each is read or written. Slots a primitive does not have stay zero
     * (format_kind undef, tsr_arg_unused). */
    tsr_memory_desc_t md[TSR_MD_COUNT];
    tsr_arg_usage_t arg_usage[TSR_MD_COUNT];
    /* The op descriptor left the slot's layout to the primitive. */
    unsigned char user_asked_any[TSR_MD_COUNT];
    /* The forward pd a backward one was created with (an owned clone), or
     * NULL. */
    struct tsr_primitive_desc *hint_fwd;
    tsr_memory_desc_t scratchpad_md;
    size_t scratchpad_size;
    /* Implementation-private, created by init (freed by impl->fini). */
    void *impl_data;
    /* Short info string for verbose: layouts, attributes, problem. */
    char info[512];
};

/* Execution context: arguments by id, and the scratchpad. */
#define TSR_MAX_EXEC_ARGS 128
typedef struct tsr_exec_ctx {
    int nargs;
    tsr_exec_arg_t args[TSR_MAX_EXEC_ARGS];
    /* scratchpad_size bytes, 64-byte aligned; never NULL when the pd booked
     * any (execution refuses a missing user scratchpad), else NULL. */
    void *scratchpad;
} tsr_exec_ctx_t;

/* The memory passed for `arg`, or NULL. */
tsr_memory_t tsr_ctx_memory(const tsr_exec_ctx_t *ctx, int arg);
/* Its data pointer, or NULL. */
void *tsr_ctx_data(const tsr_exec_ctx_t *ctx, int arg);

/* What the core knows of a primitive kind: one entry per kind in
 * primitive_kinds.c, defined next to the kind's op descriptor code. */
typedef struct {
    tsr_primitive_kind_t kind;
    const char *name; /* "convolution", as verbose prints it */
    /* Size of the public op descriptor tsr_primitive_desc_create takes;
     * 0 for kinds created by calls of their own (reorder, sum, concat). */
    size_t op_desc_size;
    /* The op descriptor's own consistency (shapes, types, prop kind). */
    tsr_status_t (*validate)(const tsr_op_desc_t *op);
    /* pd->md[] and pd->arg_usage[] as the op descriptor states them,
     * "any" unresolved (the core cleared both before). */
    void (*set_args)(struct tsr_primitive_desc *pd);
    /* The implementation list for the op's propagation kind; NULL when
     * the library has none (tsr_unimplemented). */
    const tsr_impl_t *const *(*impl_list)(const tsr_op_desc_t *op);
    /* The op's propagation kind (forward inference for kinds without). */
    tsr_prop_kind_t (*prop_kind)(const tsr_op_desc_t *op);
    /* Writes the problem part of the verbose line. */
    void (*verbose_problem)(const struct tsr_primitive_desc *pd, char *buf,
                            size_t len);
} tsr_prim_kind_info_t;

/* The entry of `kind`, or NULL. */
const tsr_prim_kind_info_t *tsr_prim_kind_info(tsr_primitive_kind_t kind);

/* Sets slot `slot` of pd from `md` with `usage`, when md is set (format
 * kind not undef). */
void tsr_pd_set_arg(struct tsr_primitive_desc *pd, int slot,
                    const tsr_memory_desc_t *md, tsr_arg_usage_t usage);
/* Forward kinds' set_args for the common "src, weights, bias, dst" form. */
void tsr_pd_set_args_fwd(struct tsr_primitive_desc *pd,
                         const tsr_memory_desc_t *src,
                         const tsr_memory_desc_t *weights,
                         const tsr_memory_desc_t *bias,
                         const tsr_memory_desc_t *dst);
/* 1 for forward training and inference. */
int tsr_prop_kind_is_forward(tsr_prop_kind_t prop_kind);

/* Validates `op` by its kind's entry, then creates its pd with the kind's
 * implementation list; `hint_fwd` (may be NULL) is cloned into the pd. */
tsr_status_t tsr_pd_create(struct tsr_primitive_desc **pd_out,
                           const tsr_op_desc_t *op,
                           const struct tsr_primitive_attr *attr,
                           tsr_engine_t engine,
                           const struct tsr_primitive_desc *hint_fwd);

/* Resolves every "any" memory descriptor of a convolution, inner product
 * or matmul pd (src, weights, bias, dst) to a dense plain layout in
 * logical dim order (abcd, goihw, ...). Layouts already set are kept. */
tsr_status_t tsr_pd_resolve_any_plain(struct tsr_primitive_desc *pd);

#endif
