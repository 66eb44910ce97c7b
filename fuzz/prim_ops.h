/* fuzz_primitive's problems: one op descriptor (and its primitive
 * descriptor) per primitive kind, from the input bytes. */
#ifndef TSR_FUZZ_PRIM_OPS_H
#define TSR_FUZZ_PRIM_OPS_H

#include "fuzz_util.h"

/* What the attributes are built for: the dst's dims (binary and prelu
 * post-ops, output scales). */
typedef struct {
    int ndims;
    tsr_dims_t dims;
} fuzz_dst_t;

/* Attributes built once the dst is known. */
typedef tsr_primitive_attr_t (*fuzz_attr_fn)(fuzz_bytes_t *b,
                                             const fuzz_dst_t *dst, void *ctx);

typedef struct {
    fuzz_bytes_t *b;
    tsr_engine_t engine;
    fuzz_attr_fn make_attr;
    void *attr_ctx;
} fuzz_op_ctx_t;

/* The number of kinds fuzz_op_pd builds. */
#define FUZZ_OP_KINDS 14

/* Builds problem `kind` (0 .. FUZZ_OP_KINDS - 1: conv, ip, matmul,
 * eltwise forward and backward, binary, prelu forward and backward,
 * shuffle forward and backward, sum, concat, reorder, the descriptor
 * calls alone for huge dims) and creates its primitive descriptor: NULL
 * when a call refuses it. *n_src: the number of TSR_ARG_MULTIPLE_SRC
 * sources (sum, concat). */
tsr_primitive_desc_t fuzz_op_pd(fuzz_op_ctx_t *c, int kind, int *n_src);

#endif
