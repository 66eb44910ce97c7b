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
        struct {
            int mask; /* dst dims the weights vary along */
        } prelu;
    };
} tsr_post_op_t;

/* The prelu post-op on one value with its weight. */
static inline float tsr_prelu_post_op(float v, float w) {
    return v > 0.f ? v : w * v;
}

struct tsr_post_ops {
    int len;
    tsr_post_op_t entry[TSR_MAX_POST_OPS];
};

/* Arguments that can carry scales or zero points (SRC is also binary's
 * SRC_0). */
typedef enum {
    TSR_QARG_SRC = 0,
    TSR_QARG_WEIGHTS,
    TSR_QARG_DST,
    TSR_QARG_SRC_1,
    TSR_QARG_COUNT,
} tsr_qarg_t;

/* Maps TSR_ARG_SRC/WEIGHTS/DST/SRC_1 to a tsr_qarg_t; -1 for others. */
int tsr_qarg_from_arg(int arg);
/* The execution argument (TSR_ARG_*) of a tsr_qarg_t: the inverse. */
int tsr_qarg_arg(int qarg);

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
/* The algorithm a *_use_dst_for_bwd algorithm computes forward (others
 * unchanged), and whether alg's backward pass reads dst instead of src. */
tsr_alg_kind_t tsr_eltwise_fwd_alg(tsr_alg_kind_t alg);
int tsr_eltwise_bwd_uses_dst(tsr_alg_kind_t alg);
/* The alpha and beta the math uses: the v2.x meaning of a value v3.x
 * rejects (soft_relu alpha 0 is 1). hardswish with alpha = beta = 0 is
 * v2.x's x relu6(x + 3) / 6, computed as such by every implementation. */
void tsr_eltwise_resolve_params(tsr_alg_kind_t alg, float *alpha, float *beta);
/* diff_src = dd * f'(v) for eltwise alg, v being the source, or the
 * destination for the *_use_dst_for_bwd algorithms. NaN for round. */
float tsr_eltwise_bwd(tsr_alg_kind_t alg, float dd, float v, float alpha,
                      float beta);
/* dst = alg(a, b). */
float tsr_binary_fwd(tsr_alg_kind_t alg, float a, float b);
/* 1 when alg is a supported eltwise / binary algorithm. */
int tsr_is_eltwise_alg(tsr_alg_kind_t alg);
int tsr_is_binary_alg(tsr_alg_kind_t alg);

#endif
