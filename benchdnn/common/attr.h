/* benchdnn attributes: parsing of --attr-* options in both syntaxes, repro
 * strings, conversion to the library's attributes, and the reference math
 * that applies them (independent of the library's code).
 *
 *   --attr-scratchpad=library|user
 *   --attr-oscale=POLICY:SCALE[*]            (v2.x; * = runtime)
 *   --attr-scales=ARG:POLICY[:SCALE[*]][+...] (v3.x; ARG src|src:0|wei|dst)
 *   --attr-zero-points=ARG:POLICY[:ZP[*]][+...]
 *   --attr-post-ops=sum[:SCALE[:ZP[:DT]]]+ELTWISE[:ALPHA[:BETA[:SCALE]]]
 *                   +BINALG:DT[:POLICY[:TAG]]+prelu[:POLICY][+...]
 *                   ('' or none: empty)
 *   --attr-round-mode=nearest|down                   (Tessera's own)
 * POLICY: common, per_oc, per_dim_0, per_dim_1, per_dim_01, per_dim_2,
 * per_dim_3, per_dim_23, per_dim_023, per_dim_03, per_tensor. */
#ifndef BENCHDNN_COMMON_ATTR_H
#define BENCHDNN_COMMON_ATTR_H

#include <stddef.h>
#include <stdint.h>

#include "tessera.h"

typedef enum {
    POLICY_COMMON = 0,
    POLICY_PER_OC,
    POLICY_PER_DIM_0,
    POLICY_PER_DIM_1,
    POLICY_PER_DIM_01,
    POLICY_PER_TENSOR,
    POLICY_PER_DIM_2,
    POLICY_PER_DIM_3,
    POLICY_PER_DIM_23,
    POLICY_PER_DIM_023,
    POLICY_PER_DIM_03,
} bench_policy_t;

const char *policy2str(bench_policy_t p);

typedef enum { QARG_SRC = 0, QARG_WEI, QARG_DST, QARG_COUNT } bench_qarg_t;

typedef struct {
    int set;
    bench_policy_t policy;
    float scale; /* the value for common; per-channel values derive from it */
    int runtime; /* '*' given (accepted, values passed at execution) */
} bench_scale_t;

typedef struct {
    int set;
    bench_policy_t policy;
    int32_t value;
    int runtime;
} bench_zp_t;

#define BENCH_MAX_POST_OPS 8

typedef struct {
    tsr_post_op_kind_t kind;
    tsr_alg_kind_t alg;    /* eltwise or binary algorithm */
    float scale;           /* sum scale or eltwise output scale (default 1) */
    float alpha, beta;     /* eltwise */
    int32_t zero_point;    /* sum */
    tsr_data_type_t dt;    /* sum: dst reinterpretation; binary: src1 type */
    bench_policy_t policy; /* binary broadcast, prelu weights' dims */
    char tag[16];          /* binary src1 tag, "any" = plain */
    /* kind tsr_post_op_undef: a valid oneDNN post-op Tessera lacks (dw_*,
     * *_dst eltwise), kept as written so the problem can be
     * reported SKIPPED instead of failing the whole batch. */
    char text[48];
} bench_post_op_t;

typedef struct {
    int scratchpad_user;
    tsr_round_mode_t round_mode;
    bench_scale_t oscale; /* legacy output scales */
    bench_scale_t scales[QARG_COUNT];
    bench_zp_t zero_points[QARG_COUNT];
    int n_post_ops;
    bench_post_op_t post_ops[BENCH_MAX_POST_OPS];
} bench_attr_t;

void bench_attr_init(bench_attr_t *attr);

/* Each returns 1 and fills `attr` field(s) on success; on bad text prints
 * "benchdnn: ERROR: ..." naming the text and exits 2. */
void attr_parse_scratchpad(bench_attr_t *attr, const char *value);
void attr_parse_oscale(bench_attr_t *attr, const char *value);
void attr_parse_scales(bench_attr_t *attr, const char *value);
void attr_parse_zero_points(bench_attr_t *attr, const char *value);
void attr_parse_post_ops(bench_attr_t *attr, const char *value);
void attr_parse_round_mode(bench_attr_t *attr, const char *value);

/* The same without exiting: 0 on success, -1 with a message in `err`
 * (BENCH_ERR_LEN bytes) naming the text; `attr` is untouched on error. */
int attr_try_parse_scratchpad(bench_attr_t *attr, const char *value, char *err);
int attr_try_parse_oscale(bench_attr_t *attr, const char *value, char *err);
int attr_try_parse_scales(bench_attr_t *attr, const char *value, char *err);
int attr_try_parse_zero_points(bench_attr_t *attr, const char *value,
                               char *err);
int attr_try_parse_post_ops(bench_attr_t *attr, const char *value, char *err);
int attr_try_parse_round_mode(bench_attr_t *attr, const char *value, char *err);

/* NULL when Tessera can run every attribute of `attr`; otherwise the
 * reason ("post-op 'dw_k3s1p1' is not supported"), for a SKIPPED line. */
const char *attr_unsupported(const bench_attr_t *attr);

/* Lists of raw option values (comma lists multiply): a driver keeps one of
 * these, fills it from tokens and iterates over the cross product. */
#define BENCH_MAX_LIST 32
typedef struct {
    int n[6];
    char *values[6][BENCH_MAX_LIST]; /* scratchpad, oscale, scales, zp,
                                        post_ops, round_mode */
} bench_attr_lists_t;

/* Start from a zeroed struct ({0}); reset frees what the lists hold and
 * returns them to the defaults (also the way to release them). */
void attr_lists_reset(bench_attr_lists_t *lists);
/* 1 when `tok` is an --attr-* option (validated and stored). Post-op
 * chains contain no commas except as list separators. */
int attr_lists_parse(bench_attr_lists_t *lists, const char *tok);
/* 1 consumed, 0 not an --attr-* option, -1 bad value (message in err). */
int attr_lists_try_parse(bench_attr_lists_t *lists, const char *tok, char *err);
/* Number of combinations (>= 1) and the attr of combination `i`. */
int attr_lists_count(const bench_attr_lists_t *lists);
void attr_lists_get(const bench_attr_lists_t *lists, int i, bench_attr_t *attr);

/* Appends the non-default attribute options, space separated, each with a
 * leading space: " --attr-oscale=per_oc:0.5 --attr-post-ops=relu". With
 * canonical, the defaults too. */
void attr_to_repro(const bench_attr_t *attr, int canonical, char *buf,
                   size_t len);

/* Per-channel values derived from the option's value, deterministic:
 * scale[i] = base * 2^((i % 5) - 2)  (exact powers of two keep the
 * reference exact); zero point[i] = base + (i % 3) - 1, saturated to
 * int32. Common: base. */
float attr_scale_value(const bench_scale_t *s, int64_t i);
int32_t attr_zp_value(const bench_zp_t *z, int64_t i);

/* The mask (bit d = dim d) of a scales / zero-points policy for `arg` of
 * `ndims` dims: per_oc is `wei_oc_mask` for the weights; for data tensors
 * it is their channel dim, dim 1 (convolution, inner product), or their
 * last dim when `data_oc_last` (matmul, whose output channels are N). */
int attr_policy_mask(bench_policy_t policy, bench_qarg_t arg, int ndims,
                     int wei_oc_mask, int data_oc_last);
/* Number of values a mask selects: product of dims[d] over its bits,
 * INT64_MAX when that overflows. */
int64_t attr_mask_count(int mask, int ndims, const int64_t *dims);
/* Row-major index over the dims a mask selects, for a point `pos` of an
 * argument with `ndims` leading dims `dims`. */
int64_t attr_mask_index(int mask, int ndims, const int64_t *dims,
                        const int64_t *pos);
/* TSR_ARG_SRC, TSR_ARG_WEIGHTS or TSR_ARG_DST. */
int attr_qarg2tsr(bench_qarg_t arg);

/* Binary post-op src1 dims (and prelu post-op weights dims) for a dst of
 * `ndims` dims by policy (data_oc_last as attr_policy_mask). */
void attr_binary_src1_dims(bench_policy_t policy, int ndims, int data_oc_last,
                           const int64_t *dst_dims, int64_t *src1_dims);

/* Prelu post-op weights, as the prelu driver fills its weights: 2^k / 8
 * (k 0..6), one in ten negative; exact factors for an f32 reference. */
float attr_prelu_weight_value(int64_t i);
/* The library memory descriptor of prelu post-op weights with `mask` over
 * a dst of `ndims` dims: f32, dst's rank with 1 where the mask has no bit,
 * dense row-major. */
tsr_status_t attr_prelu_weights_md(int mask, int ndims, const int64_t *dst_dims,
                                   tsr_memory_desc_t *md);

/* Builds the library attributes. `dst_ndims`/`dst_dims` size the legacy
 * output scales and binary src1; `wei_oc_mask` is the weights mask for
 * per_oc weight scales (1, or 3 with groups), `data_oc_last` places
 * per_oc of data tensors (attr_policy_mask); `qarg_ndims` (QARG_COUNT
 * ranks, NULL: all dst_ndims) gives each argument's own rank for its scale
 * and zero point masks (an inner product's src has more dims than its
 * dst). Returns tsr status. */
tsr_status_t attr_create_tsr(const bench_attr_t *attr, int dst_ndims,
                             const int64_t *dst_dims, int wei_oc_mask,
                             int data_oc_last, const int *qarg_ndims,
                             tsr_primitive_attr_t *out);

/* Reference math (no library code): */
float ref_eltwise(tsr_alg_kind_t alg, float x, float alpha, float beta);
float ref_binary(tsr_alg_kind_t alg, float a, float b);
/* Applies the post-op chain to `v` at dst logical point `pos`. `dst_old`
 * is the f32 value dst held before execution (for sum, already decoded
 * with the sum data type). `bin_src1[i]` are dense row-major f32 arrays of
 * each binary post-op's src1 dims, or of each prelu post-op's weights
 * dims (NULL for other entries); data_oc_last as attr_policy_mask. */
float ref_post_ops(const bench_attr_t *attr, float v, float dst_old, int ndims,
                   const int64_t *dst_dims, const int64_t *pos,
                   float *const *bin_src1, int data_oc_last);

/* eltwise algorithm names as benchdnn spells them ("relu", "gelu_erf",
 * "bounded_relu", "clip", ...) and binary ones ("add", "mul", ...). */
tsr_alg_kind_t str2eltwise_alg(const char *s);
tsr_alg_kind_t str2binary_alg(const char *s);
/* Appends to the message in `err` the closest name to the unknown
 * algorithm `word` among the eltwise names, the binary names, or both
 * with the other post-op kinds (sum, prelu), else the list of them. */
enum { ALG_HINT_ELTWISE = 1, ALG_HINT_BINARY = 2, ALG_HINT_POST_OPS = 7 };
void attr_append_alg_hint(char *err, const char *word, int which);

#endif
