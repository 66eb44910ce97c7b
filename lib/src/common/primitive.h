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
struct tsr_stream {
    tsr_engine_t engine;
};
struct tsr_memory {
    tsr_memory_desc_t md;
    tsr_engine_t engine;
    void *data;
    int owned; /* the library allocated data */
};

/* Indices into pd->md[]. */
typedef enum {
    TSR_MD_SRC = 0,
    TSR_MD_WEIGHTS,
    TSR_MD_BIAS,
    TSR_MD_DST,
    TSR_MD_COUNT,
} tsr_md_slot_t;

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
    /* The op descriptors' memory descriptors with "any" resolved. Slots a
     * primitive does not have stay zero (format_kind undef). */
    tsr_memory_desc_t md[TSR_MD_COUNT];
    tsr_memory_desc_t scratchpad_md;
    size_t scratchpad_size;
    /* Implementation-private, created by init (freed by impl->fini). */
    void *impl_data;
    /* Short info string for verbose: layouts, attributes, problem. */
    char info[512];
};

/* Execution context: arguments by id, and the scratchpad. */
#define TSR_MAX_EXEC_ARGS 64
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

/* Per-primitive implementation lists (each in cpu/<primitive>/). */
extern const tsr_impl_t *const tsr_reorder_impl_list[];
extern const tsr_impl_t *const tsr_convolution_impl_list[];
extern const tsr_impl_t *const tsr_inner_product_impl_list[];
extern const tsr_impl_t *const tsr_matmul_impl_list[];

/* Shared dispatch: copies op desc and attr into a new pd and walks
 * `list` from `start` for the first implementation that accepts. */
tsr_status_t tsr_pd_create_from_list(struct tsr_primitive_desc **pd_out,
                                     const tsr_op_desc_t *op,
                                     const struct tsr_primitive_attr *attr,
                                     tsr_engine_t engine,
                                     const tsr_impl_t *const *list);

/* Resolves every "any" memory descriptor of a convolution, inner product
 * or matmul pd (src, weights, bias, dst) to a dense plain layout in
 * logical dim order (abcd, goihw, ...). Layouts already set are kept. */
tsr_status_t tsr_pd_resolve_any_plain(struct tsr_primitive_desc *pd);

#endif
