/* Internal layout of attributes and post-ops, and the scalar math that
 * applies them. Implementations read these structs directly. */
#ifndef TSR_COMMON_ATTR_H
#define TSR_COMMON_ATTR_H

#include "tessera.h"

#define TSR_MAX_POST_OPS 32

typedef struct {
    tsr_post_op_kind_t kind;
    union {
        struct {
            float scale;
            int32_t zero_point;
            tsr_data_type_t dt;
        } sum;
        struct {
            tsr_alg_kind_t alg;
            float alpha, beta, scale;
        } eltwise;
        struct {
            tsr_alg_kind_t alg;
            tsr_memory_desc_t src1_desc;
        } binary;
    };
} tsr_post_op_t;

struct tsr_post_ops {
    int len;
    tsr_post_op_t entry[TSR_MAX_POST_OPS];
};

/* Arguments that can carry scales or zero points. */
typedef enum {
    TSR_QARG_SRC = 0,
    TSR_QARG_WEIGHTS,
    TSR_QARG_DST,
    TSR_QARG_COUNT,
} tsr_qarg_t;

/* Maps TSR_ARG_SRC/WEIGHTS/DST to a tsr_qarg_t; -1 for others. */
int tsr_qarg_from_arg(int arg);

typedef struct {
    int set; /* the user asked for this argument's scales / zero points */
    int mask;
} tsr_runtime_q_t;

struct tsr_primitive_attr {
    tsr_scratchpad_mode_t scratchpad_mode;
    tsr_round_mode_t round_mode;
    /* Legacy output scales, values known at creation. */
    struct {
        int set;
        int mask;
        tsr_dim_t count;
        float *values; /* owned, count entries */
    } output_scales;
    tsr_runtime_q_t scales[TSR_QARG_COUNT];
    tsr_runtime_q_t zero_points[TSR_QARG_COUNT];
    struct tsr_post_ops post_ops;
};

/* Fills `attr` with defaults (used for a NULL user attr). */
void tsr_attr_init_default(struct tsr_primitive_attr *attr);
/* Deep copy into an already allocated struct. */
tsr_status_t tsr_attr_copy(struct tsr_primitive_attr *dst,
                           const struct tsr_primitive_attr *src);
/* Frees what tsr_attr_copy allocated (not the struct itself). */
void tsr_attr_fini(struct tsr_primitive_attr *attr);
/* 1 when no scales, zero points, post-ops or round mode other than the
 * default are set (scratchpad mode is not counted). */
int tsr_attr_has_default_values(const struct tsr_primitive_attr *attr);

/* y = eltwise(alg, x; alpha, beta), unscaled. Shared by every
 * implementation's scalar path. */
float tsr_eltwise_fwd(tsr_alg_kind_t alg, float x, float alpha, float beta);
/* dst = alg(a, b). */
float tsr_binary_fwd(tsr_alg_kind_t alg, float a, float b);
/* 1 when alg is a supported eltwise / binary algorithm. */
int tsr_is_eltwise_alg(tsr_alg_kind_t alg);
int tsr_is_binary_alg(tsr_alg_kind_t alg);

#endif
