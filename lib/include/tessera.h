/* Tessera: a CPU library of deep-learning primitives.
 *
 * The public C API. Every function returns a tsr_status_t (or documents why
 * it does not); on any error status the objects and buffers passed by the
 * caller are left exactly as they were. Names follow the oneDNN C API so that
 * a user of dnnl.h finds the same concepts under the `tsr_` prefix:
 * memory descriptors, memory objects, engines, streams, attributes, post-ops,
 * operation descriptors, primitive descriptors and primitives. */
#ifndef TESSERA_H
#define TESSERA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TSR_API
#else
#define TSR_API __attribute__((visibility("default")))
#endif

#define TSR_VERSION_MAJOR 0
#define TSR_VERSION_MINOR 1
#define TSR_VERSION_PATCH 0

typedef struct {
    int major, minor, patch;
} tsr_version_t;

/* The version the library was built as (its TSR_VERSION_* at build time),
 * to compare with the header a program was compiled against. */
TSR_API const tsr_version_t *tsr_version(void);

/* ------------------------------------------------------------------------ */
/* Status, data types, dims                                                  */

typedef enum {
    tsr_success = 0,
    tsr_out_of_memory = 1,
    tsr_invalid_arguments = 2,
    /* No implementation accepts the problem (or: try the next one). */
    tsr_unimplemented = 3,
    /* Returned by tsr_primitive_desc_next_impl when the list is exhausted. */
    tsr_last_impl_reached = 4,
    tsr_runtime_error = 5,
    tsr_not_required = 6,
} tsr_status_t;

/* Short printable name of a status ("success", "invalid_arguments", ...). */
TSR_API const char *tsr_status2str(tsr_status_t status);

typedef enum {
    tsr_data_type_undef = 0,
    tsr_f16 = 1,
    tsr_bf16 = 2,
    tsr_f32 = 3,
    tsr_s32 = 4,
    tsr_s8 = 5,
    tsr_u8 = 6,
} tsr_data_type_t;

/* Size in bytes of one element of `dt`; 0 for tsr_data_type_undef. */
TSR_API size_t tsr_data_type_size(tsr_data_type_t dt);
/* "f32", "bf16", ...; "undef" for anything else. */
TSR_API const char *tsr_data_type2str(tsr_data_type_t dt);
/* Parses "f32", "bf16", "f16", "s32", "s8", "u8"; tsr_data_type_undef
 * when the name is unknown or NULL. */
TSR_API tsr_data_type_t tsr_str2data_type(const char *name);

/* Maximum number of dimensions a memory descriptor can hold. Primitives
 * use up to 6 (grouped 3D weights); the rest is headroom. */
#define TSR_MAX_NDIMS 12

typedef int64_t tsr_dim_t;
typedef tsr_dim_t tsr_dims_t[TSR_MAX_NDIMS];

/* ------------------------------------------------------------------------ */
/* Memory descriptors                                                        */

typedef enum {
    tsr_format_kind_undef = 0,
    /* Let the primitive choose the layout (format tag "any"). */
    tsr_format_kind_any = 1,
    /* Strides over the outer (padded, divided by blocks) dims plus optional
     * inner blocks: covers plain, strided and blocked layouts. */
    tsr_format_kind_blocked = 2,
} tsr_format_kind_t;

/* The physical layout of a blocked memory descriptor.
 *
 * Logical index (i_0, ..., i_{n-1}) lives at element offset
 *   offset0 + sum_d (i_d / B_d) * strides[d] + inner offset,
 * where B_d is the product of inner blocks on dim d and the inner offset is
 * the row-major position of (i_d % block) within the inner blocks, in the
 * order inner_idxs lists them (outermost first). Example: nChw8c has
 * inner_nblks = 1, inner_blks = {8}, inner_idxs = {1}. */
typedef struct {
    tsr_dims_t strides;
    int inner_nblks;
    tsr_dims_t inner_blks;
    tsr_dims_t inner_idxs;
} tsr_blocking_desc_t;

/* Extra data stored after the values of an int8 weights memory, so that
 * what depends on the weights alone is computed once, by the reorder that
 * writes them, instead of at each execution of the primitive using them. */
typedef enum {
    tsr_memory_extra_flag_none = 0u,
    /* s32 sums of the weights over every dim outside compensation_mask
     * (wrapping modulo 2^32), one per point of the masked dims in row-major
     * order, stored from the first 64-byte boundary after the values. An
     * int8 convolution takes its compensation terms from them: -128 * sum
     * for an s8 source it shifts by +128, -zp * sum for a source zero point
     * zp. Only for s8 memories. One more s32 word follows the sums, for
     * the library's own use (a property of the values its kernels check
     * once here rather than at every execution). */
    tsr_memory_extra_flag_compensation = 1u,
} tsr_memory_extra_flags_t;

typedef struct {
    uint64_t flags; /* tsr_memory_extra_flags_t bits */
    /* Dims the compensation sums are per: (1 << 0) for weights
     * (O, I, ...), (1 << 0) | (1 << 1) for grouped weights (G, O, I, ...). */
    int compensation_mask;
} tsr_memory_extra_desc_t;

typedef struct {
    int ndims;
    /* Logical dims: data (N, C, [D,] [H,] W), weights ([G,] O, I, ...). */
    tsr_dims_t dims;
    tsr_data_type_t data_type;
    /* dims rounded up to the blocking; the padding is kept zero. */
    tsr_dims_t padded_dims;
    /* Always 0 for now: room for sub-memories. */
    tsr_dims_t padded_offsets;
    /* Element offset of the logical origin from the start of the buffer. */
    tsr_dim_t offset0;
    tsr_format_kind_t format_kind;
    tsr_blocking_desc_t blocking;
    /* Zero (no extra data) unless a primitive asks for it on a weights
     * descriptor it chooses for "any"; a reorder into such a descriptor
     * writes the extra data after the values. */
    tsr_memory_extra_desc_t extra;
} tsr_memory_desc_t;

/* A descriptor is valid when it has a rank of 1 to TSR_MAX_NDIMS, positive
 * dims whose product is at most 2^58, a known data type and supported
 * extra data; a blocked one also needs inner blocks on existing dims with
 * positive sizes, padded dims that cover the dims in whole blocks (padded
 * offsets zero), offset0 >= 0, strides that are never negative and never
 * make two logical points share an offset (a stride of 0 only on a dim
 * with a single outer index), and a buffer of at most 2^58 elements,
 * offset0 included. Negative strides are not supported: reverse a dim with
 * a reorder instead. Every call that takes a descriptor (memory creation,
 * operation descriptor and primitive descriptor creation, reorder, sum,
 * concat) returns tsr_invalid_arguments for one that is not valid,
 * however it was built. */

/* Initializes `md` from logical dims, a data type and a format tag string.
 *
 * Tags: oneDNN's letter form ("abcd", "acdb", "aBcd16b", "ABcd16b16a"; a
 * lower-case letter is an outer dim in order from outermost to innermost, an
 * upper-case letter is a blocked dim whose blocks follow as digits+letter),
 * the classic aliases ("nchw", "nhwc", "chwn", "ncdhw", "ndhwc", "nChw8c",
 * "nChw16c", "oihw", "hwio", "goihw", "OIhw16i16o", ...), the OpenVINO GPU
 * plugin names ("bfyx", "byxf", "yxfb", "b_fs_yx_fsv16", "b_fs_yx_fsv32",
 * "bfzyx", "b_fs_zyx_fsv16", ...) and "any". The tag's rank must equal
 * `ndims`. Returns tsr_invalid_arguments for an unknown tag, a rank mismatch,
 * a non-positive dim, dims whose product exceeds 2^58 or a NULL pointer;
 * `md` is untouched then. */
TSR_API tsr_status_t tsr_memory_desc_init_by_tag(tsr_memory_desc_t *md,
                                                 int ndims,
                                                 const tsr_dim_t *dims,
                                                 tsr_data_type_t data_type,
                                                 const char *tag);

/* Initializes a plain (unblocked) descriptor with explicit element strides.
 * `strides` NULL means dense row-major ("abc..."). Strides must be positive
 * and must not make two logical points overlap. */
TSR_API tsr_status_t tsr_memory_desc_init_by_strides(tsr_memory_desc_t *md,
                                                     int ndims,
                                                     const tsr_dim_t *dims,
                                                     tsr_data_type_t data_type,
                                                     const tsr_dim_t *strides);

/* Checks whether `md` has exactly the layout that `tag` describes for its
 * dims. Returns 1 on a match, 0 otherwise (also for an unknown tag). */
TSR_API int tsr_memory_desc_matches_tag(const tsr_memory_desc_t *md,
                                        const char *tag);

/* Bytes needed to hold the memory, padding and extra data included; 0 for
 * NULL, "any", an undefined or an invalid descriptor. */
TSR_API size_t tsr_memory_desc_get_size(const tsr_memory_desc_t *md);

/* Number of logical elements (product of dims, no padding); 0 for NULL or
 * dims that are not valid. */
TSR_API tsr_dim_t tsr_memory_desc_nelems(const tsr_memory_desc_t *md);

/* Element offset (not bytes) of the logical point `pos` (md->ndims entries),
 * offset0 included. Returns -1 for "any" descriptors, a NULL argument, a
 * point out of range or an offset the descriptor's strides overflow. */
TSR_API tsr_dim_t tsr_memory_desc_offset(const tsr_memory_desc_t *md,
                                         const tsr_dim_t *pos);

/* 1 when both descriptors describe the same memory (dims, type, layout),
 * 0 otherwise. */
TSR_API int tsr_memory_desc_equal(const tsr_memory_desc_t *a,
                                  const tsr_memory_desc_t *b);

/* Writes a short layout string such as "aBcd16b" (or "any", "undef") into
 * buf (always NUL-terminated when len > 0). */
TSR_API tsr_status_t tsr_memory_desc_layout_str(const tsr_memory_desc_t *md,
                                                char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Engine, stream, memory objects                                            */

typedef enum { tsr_engine_kind_any = 0, tsr_cpu = 1 } tsr_engine_kind_t;

typedef struct tsr_engine *tsr_engine_t;
typedef struct tsr_stream *tsr_stream_t;
typedef struct tsr_memory *tsr_memory_t;
typedef const struct tsr_memory *const_tsr_memory_t;

/* Only tsr_cpu with index 0 exists. */
TSR_API tsr_status_t tsr_engine_create(tsr_engine_t *engine,
                                       tsr_engine_kind_t kind, size_t index);
TSR_API tsr_status_t tsr_engine_destroy(tsr_engine_t engine);

/* Execution on the CPU stream is synchronous; tsr_stream_wait returns
 * at once. */
TSR_API tsr_status_t tsr_stream_create(tsr_stream_t *stream,
                                       tsr_engine_t engine);
TSR_API tsr_status_t tsr_stream_wait(tsr_stream_t stream);
TSR_API tsr_status_t tsr_stream_destroy(tsr_stream_t stream);

/* Passed as `handle` to tsr_memory_create: the library allocates the buffer
 * (64-byte aligned, zero-filled so blocked padding is zero). */
#define TSR_MEMORY_ALLOCATE ((void *)(intptr_t)-1)
/* Passed as `handle`: no buffer yet; set one with tsr_memory_set_data_handle.
 */
#define TSR_MEMORY_NONE ((void *)0)

/* Creates a memory object for `md` (valid, and not "any"). With a user
 * pointer the caller keeps ownership of the buffer. */
TSR_API tsr_status_t tsr_memory_create(tsr_memory_t *memory,
                                       const tsr_memory_desc_t *md,
                                       tsr_engine_t engine, void *handle);
TSR_API tsr_status_t tsr_memory_get_desc(const_tsr_memory_t memory,
                                         const tsr_memory_desc_t **md);
TSR_API tsr_status_t tsr_memory_get_data_handle(const_tsr_memory_t memory,
                                                void **handle);
TSR_API tsr_status_t tsr_memory_set_data_handle(tsr_memory_t memory,
                                                void *handle);
TSR_API tsr_status_t tsr_memory_destroy(tsr_memory_t memory);
/* Writes zeros into the padded area of a blocked layout (the elements
 * inside padded_dims but outside dims, which every primitive keeps zero);
 * logical elements are left as they are. Nothing to do for unpadded
 * layouts. tsr_invalid_arguments for a memory without a buffer. */
TSR_API tsr_status_t tsr_memory_zero_pad(tsr_memory_t memory);

/* ------------------------------------------------------------------------ */
/* Algorithms and propagation kinds                                          */

typedef enum {
    tsr_prop_kind_undef = 0,
    tsr_forward_training = 64,
    tsr_forward_inference = 96,
    tsr_backward_data = 160,
    tsr_backward_weights = 192,
    tsr_backward_bias = 193,
} tsr_prop_kind_t;

typedef enum {
    tsr_alg_kind_undef = 0,
    tsr_convolution_direct = 0x1,
    tsr_convolution_winograd = 0x2,
    tsr_convolution_auto = 0x3,
    /* Eltwise: y = f(x; alpha, beta), named as in oneDNN. */
    tsr_eltwise_relu = 0x20, /* x > 0 ? x : alpha * x */
    tsr_eltwise_tanh,
    tsr_eltwise_elu, /* x > 0 ? x : alpha * (e^x - 1) */
    tsr_eltwise_square,
    tsr_eltwise_abs,
    tsr_eltwise_sqrt,
    tsr_eltwise_linear,       /* alpha * x + beta */
    tsr_eltwise_bounded_relu, /* min(max(x, 0), alpha) */
    tsr_eltwise_soft_relu,    /* log(1 + e^x) */
    tsr_eltwise_logistic,     /* 1 / (1 + e^-x) */
    tsr_eltwise_exp,
    tsr_eltwise_gelu_tanh,
    tsr_eltwise_swish, /* x * logistic(alpha * x) */
    tsr_eltwise_log,
    tsr_eltwise_clip,    /* min(max(x, alpha), beta), alpha < x <= beta */
    tsr_eltwise_clip_v2, /* same as clip but alpha <= x <= beta */
    tsr_eltwise_pow,     /* alpha * x^beta */
    tsr_eltwise_gelu_erf,
    tsr_eltwise_round, /* nearest, ties to even */
    tsr_eltwise_logsigmoid,
    tsr_eltwise_mish,
    tsr_eltwise_hardswish,   /* x * min(max(alpha * x + beta, 0), 1) */
    tsr_eltwise_hardsigmoid, /* min(max(alpha * x + beta, 0), 1) */
    /* The same forward functions; their backward pass reads dst, not src. */
    tsr_eltwise_relu_use_dst_for_bwd,
    tsr_eltwise_tanh_use_dst_for_bwd,
    tsr_eltwise_elu_use_dst_for_bwd,
    tsr_eltwise_sqrt_use_dst_for_bwd,
    tsr_eltwise_logistic_use_dst_for_bwd,
    tsr_eltwise_exp_use_dst_for_bwd,
    tsr_eltwise_clip_v2_use_dst_for_bwd,
    tsr_eltwise_alg_last,
    /* Binary: dst = op(src0, src1). Comparisons give 1 or 0. */
    tsr_binary_add = 0x1fff0,
    tsr_binary_mul,
    tsr_binary_max,
    tsr_binary_min,
    tsr_binary_div,
    tsr_binary_sub,
    tsr_binary_ge,
    tsr_binary_gt,
    tsr_binary_le,
    tsr_binary_lt,
    tsr_binary_eq,
    tsr_binary_ne,
    tsr_binary_alg_last,
} tsr_alg_kind_t;

/* Name of an algorithm as benchdnn spells it ("relu", "gelu_erf", "add",
 * "direct"); "undef" for unknown values. */
TSR_API const char *tsr_alg_kind2str(tsr_alg_kind_t alg);

/* ------------------------------------------------------------------------ */
/* Post-ops                                                                  */

typedef enum {
    tsr_post_op_undef = 0,
    tsr_post_op_sum = 1,
    tsr_post_op_eltwise = 2,
    tsr_post_op_binary = 3,
    tsr_post_op_prelu = 4,
} tsr_post_op_kind_t;

typedef struct tsr_post_ops *tsr_post_ops_t;
typedef const struct tsr_post_ops *const_tsr_post_ops_t;

TSR_API tsr_status_t tsr_post_ops_create(tsr_post_ops_t *post_ops);
TSR_API tsr_status_t tsr_post_ops_destroy(tsr_post_ops_t post_ops);
TSR_API int tsr_post_ops_len(const_tsr_post_ops_t post_ops);
TSR_API tsr_post_op_kind_t tsr_post_ops_get_kind(const_tsr_post_ops_t post_ops,
                                                 int index);

/* dst = scale * (dst_old - zero_point) + result. `data_type` is how the old
 * dst is read (tsr_data_type_undef: the dst type itself; otherwise a type
 * of the same size, e.g. s8 over a u8 dst). */
TSR_API tsr_status_t tsr_post_ops_append_sum(tsr_post_ops_t post_ops,
                                             float scale, int32_t zero_point,
                                             tsr_data_type_t data_type);
/* result = scale * eltwise(alg, result, alpha, beta). */
TSR_API tsr_status_t tsr_post_ops_append_eltwise(tsr_post_ops_t post_ops,
                                                 float scale,
                                                 tsr_alg_kind_t alg,
                                                 float alpha, float beta);
/* result = binary(alg, result, src1) where src1 is passed at execution as
 * TSR_ARG_ATTR_MULTIPLE_POST_OP(index) | TSR_ARG_SRC_1. `src1_desc` has the
 * dst's rank, with each dim equal to the dst's or 1 (broadcast). */
TSR_API tsr_status_t
tsr_post_ops_append_binary(tsr_post_ops_t post_ops, tsr_alg_kind_t alg,
                           const tsr_memory_desc_t *src1_desc);

/* result = result > 0 ? result : w[idx] * result, where the f32 weights w
 * are passed at execution as TSR_ARG_ATTR_MULTIPLE_POST_OP(index) |
 * TSR_ARG_WEIGHTS: one value per index of the dst dims in `mask` (bit d =
 * dim d; 0: one value for all), dense, row-major over those dims. */
TSR_API tsr_status_t tsr_post_ops_append_prelu(tsr_post_ops_t post_ops,
                                               int mask);

TSR_API tsr_status_t tsr_post_ops_get_params_sum(const_tsr_post_ops_t post_ops,
                                                 int index, float *scale,
                                                 int32_t *zero_point,
                                                 tsr_data_type_t *data_type);
TSR_API tsr_status_t tsr_post_ops_get_params_eltwise(
        const_tsr_post_ops_t post_ops, int index, float *scale,
        tsr_alg_kind_t *alg, float *alpha, float *beta);
TSR_API tsr_status_t tsr_post_ops_get_params_binary(
        const_tsr_post_ops_t post_ops, int index, tsr_alg_kind_t *alg,
        const tsr_memory_desc_t **src1_desc);
TSR_API tsr_status_t tsr_post_ops_get_params_prelu(
        const_tsr_post_ops_t post_ops, int index, int *mask);

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

typedef enum {
    tsr_scratchpad_mode_library = 0,
    tsr_scratchpad_mode_user = 1,
} tsr_scratchpad_mode_t;

typedef enum {
    /* Round to nearest, ties to even (the default). */
    tsr_round_nearest = 0,
    /* Round toward minus infinity. */
    tsr_round_down = 1,
} tsr_round_mode_t;

typedef struct tsr_primitive_attr *tsr_primitive_attr_t;
typedef const struct tsr_primitive_attr *const_tsr_primitive_attr_t;

TSR_API tsr_status_t tsr_primitive_attr_create(tsr_primitive_attr_t *attr);
TSR_API tsr_status_t tsr_primitive_attr_clone(
        tsr_primitive_attr_t *attr, const_tsr_primitive_attr_t existing);
TSR_API tsr_status_t tsr_primitive_attr_destroy(tsr_primitive_attr_t attr);

TSR_API tsr_status_t tsr_primitive_attr_set_scratchpad_mode(
        tsr_primitive_attr_t attr, tsr_scratchpad_mode_t mode);
TSR_API tsr_status_t tsr_primitive_attr_get_scratchpad_mode(
        const_tsr_primitive_attr_t attr, tsr_scratchpad_mode_t *mode);

/* Legacy (v2.x) output scales, known at creation: dst = scales[m] * acc.
 * `mask` selects the dst dims the scales vary over (bit d = dim d, e.g.
 * 2 = per output channel); `count` must equal the product of those dims,
 * checked at primitive descriptor creation. A count outside 1..2^58 or a
 * NULL `scales` is tsr_invalid_arguments; the values are copied (out of
 * memory: tsr_out_of_memory, the attribute unchanged). Cannot be combined
 * with per-argument scales. */
TSR_API tsr_status_t
tsr_primitive_attr_set_output_scales(tsr_primitive_attr_t attr, tsr_dim_t count,
                                     int mask, const float *scales);

/* Per-argument (v3.x) scales: `arg` is TSR_ARG_SRC, TSR_ARG_WEIGHTS,
 * TSR_ARG_DST (TSR_ARG_FROM for reorder's source...) or TSR_ARG_SRC_1
 * (binary's second source; TSR_ARG_SRC_0 is TSR_ARG_SRC). The f32 values are
 * passed at execution as TSR_ARG_ATTR_SCALES | arg, one per index of the
 * dims in `mask` (dense, row-major over those dims). Convolution computes
 *   dst = post_ops(src_scale * wei_scale[oc] * acc + bias) / dst_scale. */
TSR_API tsr_status_t tsr_primitive_attr_set_scales_mask(
        tsr_primitive_attr_t attr, int arg, int mask);

/* Per-argument zero points (s32), passed at execution as
 * TSR_ARG_ATTR_ZERO_POINTS | arg. Mask 0 (common) or per channel. */
TSR_API tsr_status_t tsr_primitive_attr_set_zero_points_mask(
        tsr_primitive_attr_t attr, int arg, int mask);

/* Rounding of integer destinations (seed 004's round mode). */
TSR_API tsr_status_t tsr_primitive_attr_set_round_mode(
        tsr_primitive_attr_t attr, tsr_round_mode_t mode);
TSR_API tsr_status_t tsr_primitive_attr_get_round_mode(
        const_tsr_primitive_attr_t attr, tsr_round_mode_t *mode);

/* Copies `post_ops` into the attributes. */
TSR_API tsr_status_t tsr_primitive_attr_set_post_ops(
        tsr_primitive_attr_t attr, const_tsr_post_ops_t post_ops);
/* The attributes' own post-ops, valid while `attr` lives. */
TSR_API tsr_status_t tsr_primitive_attr_get_post_ops(
        const_tsr_primitive_attr_t attr, const_tsr_post_ops_t *post_ops);

/* ------------------------------------------------------------------------ */
/* Execution arguments                                                       */

#define TSR_ARG_SRC 1
#define TSR_ARG_SRC_0 1
#define TSR_ARG_FROM 1
#define TSR_ARG_SRC_1 2
#define TSR_ARG_SRC_2 3
#define TSR_ARG_DST 17
#define TSR_ARG_TO 17
#define TSR_ARG_WEIGHTS 33
#define TSR_ARG_BIAS 41
/* Normalization statistics, scale and shift. */
#define TSR_ARG_MEAN 49
#define TSR_ARG_VARIANCE 50
#define TSR_ARG_SCALE 51
#define TSR_ARG_SHIFT 52
/* What a forward training pass keeps for its backward pass (the position
 * of a pooling window's maximum, ...); described by the pd. */
#define TSR_ARG_WORKSPACE 64
#define TSR_ARG_SCRATCHPAD 80
#define TSR_ARG_DIFF_SRC 129
#define TSR_ARG_DIFF_SRC_0 129
#define TSR_ARG_DIFF_SRC_1 130
#define TSR_ARG_DIFF_DST 145
#define TSR_ARG_DIFF_WEIGHTS 161
#define TSR_ARG_DIFF_BIAS 169
#define TSR_ARG_DIFF_SCALE 255
#define TSR_ARG_DIFF_SHIFT 256
/* Source i of sum and concat: TSR_ARG_MULTIPLE_SRC + i, i below
 * TSR_MAX_MULTIPLE_SRC. */
#define TSR_ARG_MULTIPLE_SRC 1024
#define TSR_MAX_MULTIPLE_SRC 64
/* OR-ed with an argument: its scales (f32) or zero points (s32). */
#define TSR_ARG_ATTR_SCALES 4096
#define TSR_ARG_ATTR_ZERO_POINTS 8192
/* Legacy output scales passed at execution are not supported: they are set
 * with tsr_primitive_attr_set_output_scales. */
/* OR-ed with TSR_ARG_SRC_1 for the binary post-op at position `idx`. */
#define TSR_ARG_ATTR_MULTIPLE_POST_OP_BASE 16384
#define TSR_ARG_ATTR_MULTIPLE_POST_OP(idx)                                     \
    (TSR_ARG_ATTR_MULTIPLE_POST_OP_BASE * ((idx) + 1))

typedef struct {
    int arg;
    tsr_memory_t memory;
} tsr_exec_arg_t;

/* ------------------------------------------------------------------------ */
/* Operation descriptors                                                     */

typedef enum {
    tsr_undefined_primitive = 0,
    tsr_reorder = 1,
    tsr_convolution = 2,
    tsr_inner_product = 3,
    tsr_matmul = 4,
    tsr_eltwise = 5,
    tsr_binary = 6,
    tsr_prelu = 7,
    tsr_sum = 8,
    tsr_concat = 9,
    tsr_shuffle = 10,
    tsr_primitive_kind_max = 64,
} tsr_primitive_kind_t;

/* Printable name of a primitive kind ("convolution", "eltwise", ...). */
TSR_API const char *tsr_prim_kind2str(tsr_primitive_kind_t kind);

typedef struct {
    tsr_primitive_kind_t primitive_kind; /* tsr_convolution */
    tsr_prop_kind_t prop_kind;
    tsr_alg_kind_t alg_kind;
    tsr_memory_desc_t src_desc;
    tsr_memory_desc_t weights_desc;
    /* format_kind undef (zero) when there is no bias. */
    tsr_memory_desc_t bias_desc;
    tsr_memory_desc_t dst_desc;
    /* Spatial parameters, (ndims - 2) entries each: depth, height, width. */
    tsr_dims_t strides;
    /* Dilation counted from 0 (0 = dense kernel), as in oneDNN. */
    tsr_dims_t dilates;
    tsr_dims_t padding_l;
    tsr_dims_t padding_r;
    tsr_data_type_t accum_data_type;
} tsr_convolution_desc_t;

/* Initializes a forward convolution descriptor.
 *
 * src: N, C, [[D,] H,] W; weights: [G,] O, I, [[KD,] KH,] KW (groups when
 * the weights have one more dim than src; O and I per group); bias: (G*O)
 * or NULL; dst: N, G*O, spatial. Memory descriptors may be "any". The
 * output size must agree with the rest:
 *   out = (in + pad_l + pad_r - ((k - 1) * (dilate + 1) + 1)) / stride + 1.
 * Returns tsr_invalid_arguments for inconsistent shapes. */
TSR_API tsr_status_t tsr_convolution_forward_desc_init(
        tsr_convolution_desc_t *conv_desc, tsr_prop_kind_t prop_kind,
        tsr_alg_kind_t alg_kind, const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *weights_desc,
        const tsr_memory_desc_t *bias_desc, const tsr_memory_desc_t *dst_desc,
        const tsr_dim_t *strides, const tsr_dim_t *dilates,
        const tsr_dim_t *padding_l, const tsr_dim_t *padding_r);

typedef struct {
    tsr_primitive_kind_t primitive_kind; /* tsr_inner_product */
    tsr_prop_kind_t prop_kind;
    tsr_memory_desc_t src_desc;
    tsr_memory_desc_t weights_desc;
    /* format_kind undef (zero) when there is no bias. */
    tsr_memory_desc_t bias_desc;
    tsr_memory_desc_t dst_desc;
    tsr_data_type_t accum_data_type;
} tsr_inner_product_desc_t;

/* Initializes a forward inner product descriptor:
 *   dst[n, oc] = sum over ic and spatial points of
 *                src[n, ic, ...] * weights[oc, ic, ...]  + bias[oc].
 * src: N, IC [, [[D,] H,] W]; weights: OC, IC and the same spatial dims as
 * src; bias: (OC) or NULL; dst: N, OC. Memory descriptors may be "any".
 * Attributes are those of convolution (per-channel means OC, dst dim 1).
 * Returns tsr_invalid_arguments for inconsistent shapes and
 * tsr_unimplemented for backward propagation kinds. */
TSR_API tsr_status_t tsr_inner_product_forward_desc_init(
        tsr_inner_product_desc_t *ip_desc, tsr_prop_kind_t prop_kind,
        const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *weights_desc,
        const tsr_memory_desc_t *bias_desc, const tsr_memory_desc_t *dst_desc);

typedef struct {
    tsr_primitive_kind_t primitive_kind; /* tsr_matmul */
    tsr_memory_desc_t src_desc;
    tsr_memory_desc_t weights_desc;
    /* format_kind undef (zero) when there is no bias. */
    tsr_memory_desc_t bias_desc;
    tsr_memory_desc_t dst_desc;
    tsr_data_type_t accum_data_type;
} tsr_matmul_desc_t;

/* Initializes a matrix multiplication descriptor:
 *   dst[b.., m, n] = sum over k of src[b.., m, k] * weights[b.., k, n]
 *                    + bias[b.., m, n].
 * All tensors have the same rank, 2 to 6. A batch dim of src or weights
 * equal to 1 broadcasts; dst's batch dims are the larger of the two. Bias
 * dims are each dst's or 1 (broadcast). Transposed operands are strided
 * descriptors (tsr_memory_desc_init_by_strides, or tags such as "ba").
 * Attributes are those of convolution with the last dim (N) as the
 * channel: per-N weights scales have mask 1 << (ndims - 1). Scales and
 * zero points with masks over other dims follow the mask rule of
 * tsr_primitive_attr_set_scales_mask; src scales must be common. */
TSR_API tsr_status_t tsr_matmul_desc_init(tsr_matmul_desc_t *matmul_desc,
                                          const tsr_memory_desc_t *src_desc,
                                          const tsr_memory_desc_t *weights_desc,
                                          const tsr_memory_desc_t *bias_desc,
                                          const tsr_memory_desc_t *dst_desc);

typedef struct tsr_primitive_desc *tsr_primitive_desc_t;
typedef const struct tsr_primitive_desc *const_tsr_primitive_desc_t;

typedef struct {
    tsr_primitive_kind_t primitive_kind; /* tsr_eltwise */
    tsr_prop_kind_t prop_kind;
    tsr_alg_kind_t alg_kind;
    /* Forward: src and dst. Backward: the data the derivative reads, src,
     * or dst for the *_use_dst_for_bwd algorithms (the other stays zero). */
    tsr_memory_desc_t src_desc;
    tsr_memory_desc_t dst_desc;
    /* Backward only. */
    tsr_memory_desc_t diff_src_desc;
    tsr_memory_desc_t diff_dst_desc;
    float alpha, beta;
} tsr_eltwise_desc_t;

/* Element-wise dst = f(src; alpha, beta) (tsr_eltwise_* algorithms, as
 * oneDNN defines them). src and dst have the same dims; dst may be "any"
 * (then src's layout) and its data type may differ from src's. Integer data
 * types take relu and linear only. Runs in place when the same memory is
 * passed as TSR_ARG_SRC and TSR_ARG_DST. Post-ops apply after f. */
TSR_API tsr_status_t tsr_eltwise_forward_desc_init(
        tsr_eltwise_desc_t *eltwise_desc, tsr_prop_kind_t prop_kind,
        tsr_alg_kind_t alg_kind, const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *dst_desc, float alpha, float beta);
/* diff_src = diff_dst * f'(data): `data_desc` describes TSR_ARG_SRC, or
 * TSR_ARG_DST for the *_use_dst_for_bwd algorithms. diff_src may be "any"
 * (then diff_dst's layout). Floating-point data types only. */
TSR_API tsr_status_t tsr_eltwise_backward_desc_init(
        tsr_eltwise_desc_t *eltwise_desc, tsr_alg_kind_t alg_kind,
        const tsr_memory_desc_t *diff_src_desc,
        const tsr_memory_desc_t *diff_dst_desc,
        const tsr_memory_desc_t *data_desc, float alpha, float beta);

typedef struct {
    tsr_primitive_kind_t primitive_kind; /* tsr_binary */
    tsr_alg_kind_t alg_kind;
    tsr_memory_desc_t src_desc[2];
    tsr_memory_desc_t dst_desc;
} tsr_binary_desc_t;

/* dst = alg(src0, src1) (tsr_binary_*; comparisons give 1 or 0), where
 * each dim of src1 (and of src0) equals dst's or is 1 (broadcast); all
 * three have the same rank. Each tensor may have its own data type and
 * layout; src1 "any" takes src0's layout, dst "any" src0's layout with
 * dst's data type. Common scales (mask 0) on TSR_ARG_SRC_0 / TSR_ARG_SRC_1
 * multiply each source first; post-ops (sum, eltwise, binary) apply last;
 * integer dst is rounded per the round mode and saturated. In place when
 * dst is src0's memory (same type and layout). Returns
 * tsr_invalid_arguments for sources that do not broadcast to dst, ranks
 * that differ, or an algorithm that is not a binary one. */
TSR_API tsr_status_t tsr_binary_desc_init(tsr_binary_desc_t *binary_desc,
                                          tsr_alg_kind_t alg_kind,
                                          const tsr_memory_desc_t *src0_desc,
                                          const tsr_memory_desc_t *src1_desc,
                                          const tsr_memory_desc_t *dst_desc);

typedef struct {
    tsr_primitive_kind_t primitive_kind; /* tsr_prelu */
    tsr_prop_kind_t prop_kind;
    tsr_memory_desc_t src_desc;
    tsr_memory_desc_t weights_desc;
    tsr_memory_desc_t dst_desc;
    /* Backward only. */
    tsr_memory_desc_t diff_src_desc;
    tsr_memory_desc_t diff_weights_desc;
    tsr_memory_desc_t diff_dst_desc;
} tsr_prelu_desc_t;

/* dst = src > 0 ? src : weights * src, where weights have src's rank and
 * each of their dims equals src's or is 1 (broadcast). Any data types
 * (integer dst rounded per the round mode and saturated). weights "any"
 * are plain (abcd...), dst "any" takes src's layout. */
TSR_API tsr_status_t tsr_prelu_forward_desc_init(
        tsr_prelu_desc_t *prelu_desc, tsr_prop_kind_t prop_kind,
        const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *weights_desc,
        const tsr_memory_desc_t *dst_desc);
/* diff_src = diff_dst * (src > 0 ? 1 : weights); diff_weights = the sum of
 * diff_dst * min(src, 0) over the dims weights broadcast, with the same
 * bits whatever the number of threads. The descriptor's prop_kind is
 * tsr_backward_data. Floating data types (f32, bf16, f16); others are
 * tsr_unimplemented at primitive creation. "any": weights plain, diff_src
 * and diff_dst src's layout, diff_weights the weights'. */
TSR_API tsr_status_t tsr_prelu_backward_desc_init(
        tsr_prelu_desc_t *prelu_desc, const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *weights_desc,
        const tsr_memory_desc_t *diff_src_desc,
        const tsr_memory_desc_t *diff_weights_desc,
        const tsr_memory_desc_t *diff_dst_desc);

typedef struct {
    tsr_primitive_kind_t primitive_kind; /* tsr_shuffle */
    tsr_prop_kind_t prop_kind;
    /* Forward: src and dst; backward: diff_src and diff_dst. */
    tsr_memory_desc_t src_desc;
    tsr_memory_desc_t dst_desc;
    int axis;
    tsr_dim_t group_size;
} tsr_shuffle_desc_t;

/* Channel shuffle along `axis` with groups of `group_size`: with A the
 * axis size and G the group size, dst[(a % G) * (A / G) + a / G] = src[a].
 * A must be a multiple of G; src and dst have the same dims and data type
 * (any of them). dst may be NULL or "any" (src's layout). Attributes:
 * scratchpad mode only. */
TSR_API tsr_status_t tsr_shuffle_forward_desc_init(
        tsr_shuffle_desc_t *shuffle_desc, tsr_prop_kind_t prop_kind,
        const tsr_memory_desc_t *src_desc, const tsr_memory_desc_t *dst_desc,
        int axis, tsr_dim_t group_size);
/* The inverse permutation, from diff_dst to diff_src (the descriptor
 * holds them in src_desc / dst_desc; executed as TSR_ARG_DIFF_DST and
 * TSR_ARG_DIFF_SRC). diff_src may be NULL or "any" (diff_dst's layout). A
 * forward pd as hint is accepted but not needed. */
TSR_API tsr_status_t tsr_shuffle_backward_desc_init(
        tsr_shuffle_desc_t *shuffle_desc,
        const tsr_memory_desc_t *diff_src_desc,
        const tsr_memory_desc_t *diff_dst_desc, int axis, tsr_dim_t group_size);

/* Sum and concat take a list of sources: their primitive descriptors are
 * created directly (as reorder's), and their sources are passed at
 * execution as TSR_ARG_MULTIPLE_SRC + i. */
/* dst = sum over i of scales[i] * src_i, for 1 <= n <= TSR_MAX_MULTIPLE_SRC
 * sources of the same dims (any data types and layouts; not "any"),
 * computed in f32, then rounded to nearest even and saturated into dst.
 * `dst_desc` NULL: source 0's data type and layout; "any": its own data
 * type (source 0's when undefined) in source 0's layout. In place when dst
 * is source 0's memory. Attributes: scratchpad mode only. */
TSR_API tsr_status_t tsr_sum_primitive_desc_create(
        tsr_primitive_desc_t *primitive_desc, const tsr_memory_desc_t *dst_desc,
        int n, const float *scales, const tsr_memory_desc_t *src_descs,
        const_tsr_primitive_attr_t attr, tsr_engine_t engine);
/* dst = the sources one after another along `concat_dimension`; every other
 * dim must agree (1 <= n <= TSR_MAX_MULTIPLE_SRC, sources not "any"). Each
 * source is converted to dst's data type (rounded to nearest even,
 * saturated). `dst_desc` NULL: source 0's data type; NULL or "any": source
 * 0's layout when it is plain or every source shares its blocking, else the
 * plain "abc...".
 * Attributes: scratchpad mode only. */
TSR_API tsr_status_t tsr_concat_primitive_desc_create(
        tsr_primitive_desc_t *primitive_desc, const tsr_memory_desc_t *dst_desc,
        int n, int concat_dimension, const tsr_memory_desc_t *src_descs,
        const_tsr_primitive_attr_t attr, tsr_engine_t engine);

/* ------------------------------------------------------------------------ */
/* Primitive descriptors and primitives                                      */
typedef struct tsr_primitive *tsr_primitive_t;
typedef const struct tsr_primitive *const_tsr_primitive_t;

/* Creates a primitive descriptor for the first (best) implementation that
 * accepts `op_desc` (a pointer to a tsr_*_desc_t, dispatched on its first
 * field) with `attr` (NULL: defaults; copied). Returns tsr_unimplemented
 * when no implementation accepts the problem. The environment variable
 * TSR_MAX_CPU_ISA (avx512_core_amx, avx512_core_bf16, avx512_core_vnni,
 * avx512_core, avx2, sse41, generic)
 * caps the kernels considered. */
TSR_API tsr_status_t tsr_primitive_desc_create(
        tsr_primitive_desc_t *primitive_desc, const void *op_desc,
        const_tsr_primitive_attr_t attr, tsr_engine_t engine);
/* The same with the primitive descriptor of the forward pass that a
 * backward one pairs with (its layouts and workspace; NULL for forward
 * primitives). Backward primitives that need a workspace or a layout
 * chosen by the forward pass return tsr_invalid_arguments without it. */
TSR_API tsr_status_t tsr_primitive_desc_create_with_hint(
        tsr_primitive_desc_t *primitive_desc, const void *op_desc,
        const_tsr_primitive_attr_t attr, tsr_engine_t engine,
        const_tsr_primitive_desc_t hint_fwd_pd);

/* Reorder from `src_desc` to `dst_desc` (same dims; any layouts and data
 * types; neither may be "any"). Attributes: scales on TSR_ARG_SRC/DST (or
 * the legacy output scales, mask over the dims, which act as the source
 * scale), zero points on TSR_ARG_SRC/DST, round mode, one sum post-op:
 *   dst = saturate(round((src_scale / dst_scale) * (src - src_zp)
 *          + sum_scale * (dst_old - sum_zp) + dst_zp)). */
TSR_API tsr_status_t tsr_reorder_primitive_desc_create(
        tsr_primitive_desc_t *primitive_desc, const tsr_memory_desc_t *src_desc,
        tsr_engine_t src_engine, const tsr_memory_desc_t *dst_desc,
        tsr_engine_t dst_engine, const_tsr_primitive_attr_t attr);

/* Moves to the next implementation that accepts the problem; returns
 * tsr_last_impl_reached (and leaves the descriptor as it was) at the end. */
TSR_API tsr_status_t
tsr_primitive_desc_next_impl(tsr_primitive_desc_t primitive_desc);

TSR_API tsr_status_t
tsr_primitive_desc_clone(tsr_primitive_desc_t *primitive_desc,
                         const_tsr_primitive_desc_t existing);
TSR_API tsr_status_t
tsr_primitive_desc_destroy(tsr_primitive_desc_t primitive_desc);

typedef enum {
    tsr_query_undef = 0,
    tsr_query_src_md,
    tsr_query_weights_md,
    tsr_query_bias_md,
    tsr_query_dst_md,
    /* Describes the user scratchpad: a 1D u8 buffer of the needed size
     * (zero size when none is needed or the mode is library). */
    tsr_query_scratchpad_md,
    tsr_query_diff_src_md,
    tsr_query_diff_weights_md,
    tsr_query_diff_bias_md,
    tsr_query_diff_dst_md,
    tsr_query_workspace_md,
} tsr_query_t;

/* The memory descriptor the primitive uses for `what` (with "any" resolved
 * to the implementation's choice), or NULL when the primitive has no such
 * argument. */
TSR_API const tsr_memory_desc_t *
tsr_primitive_desc_query_md(const_tsr_primitive_desc_t primitive_desc,
                            tsr_query_t what);
/* The memory descriptor of execution argument `arg` (TSR_ARG_*), or NULL
 * when the primitive does not take it. */
TSR_API const tsr_memory_desc_t *
tsr_primitive_desc_query_arg_md(const_tsr_primitive_desc_t primitive_desc,
                                int arg);

typedef enum {
    tsr_arg_unused = 0,
    tsr_arg_input = 1,
    tsr_arg_output = 2,
} tsr_arg_usage_t;

/* Whether the primitive reads or writes execution argument `arg`. */
TSR_API tsr_arg_usage_t tsr_primitive_desc_query_arg_usage(
        const_tsr_primitive_desc_t primitive_desc, int arg);

/* The implementation name, e.g. "ref:any" or "avx512_core:direct". */
TSR_API const char *
tsr_primitive_desc_impl_name(const_tsr_primitive_desc_t primitive_desc);
/* Scratchpad bytes the primitive needs per execution (whatever the mode). */
TSR_API tsr_status_t tsr_primitive_desc_query_scratchpad_size(
        const_tsr_primitive_desc_t primitive_desc, size_t *size);
TSR_API tsr_primitive_kind_t
tsr_primitive_desc_kind(const_tsr_primitive_desc_t primitive_desc);

TSR_API tsr_status_t tsr_primitive_create(
        tsr_primitive_t *primitive, const_tsr_primitive_desc_t primitive_desc);

/* Runs the primitive. Arguments are matched by `arg` id; missing required
 * ones, memories whose descriptors differ from the primitive's, and in
 * user scratchpad mode a missing or too-small TSR_ARG_SCRATCHPAD, all give
 * tsr_invalid_arguments before anything is written. In user mode the
 * library allocates nothing during execution, so one primitive may run on
 * several threads at once with separate scratchpads. */
TSR_API tsr_status_t tsr_primitive_execute(const_tsr_primitive_t primitive,
                                           tsr_stream_t stream, int nargs,
                                           const tsr_exec_arg_t *args);

TSR_API tsr_status_t
tsr_primitive_get_primitive_desc(const_tsr_primitive_t primitive,
                                 const_tsr_primitive_desc_t *primitive_desc);
TSR_API tsr_status_t tsr_primitive_destroy(tsr_primitive_t primitive);

/* ------------------------------------------------------------------------ */
/* CPU features and verbose                                                  */

typedef enum {
    tsr_cpu_isa_generic = 0,
    tsr_cpu_isa_sse41 = 1,
    tsr_cpu_isa_avx2 = 2,        /* AVX2 + FMA */
    tsr_cpu_isa_avx512_core = 3, /* AVX-512 F, BW, VL, DQ */
    tsr_cpu_isa_avx512_core_vnni = 4,
    tsr_cpu_isa_avx512_core_bf16 = 5,
    /* + AMX tiles with int8 and bf16 products (Linux: with the kernel's
     * permission for the tile state) */
    tsr_cpu_isa_avx512_core_amx = 6,
} tsr_cpu_isa_t;

/* The ISA kernels are chosen for: what the CPU has, capped by
 * TSR_MAX_CPU_ISA or tsr_set_max_cpu_isa. */
TSR_API tsr_cpu_isa_t tsr_get_effective_cpu_isa(void);
/* Caps the ISA; only effective before the first primitive is created.
 * Returns tsr_invalid_arguments afterwards or for an unknown value. */
TSR_API tsr_status_t tsr_set_max_cpu_isa(tsr_cpu_isa_t isa);
TSR_API const char *tsr_cpu_isa2str(tsr_cpu_isa_t isa);

/* Verbose level: 0 off, 1 execution lines, 2 creation lines too. Set by
 * the environment variable TSR_VERBOSE or by this call. */
TSR_API tsr_status_t tsr_set_verbose(int level);

/* Number of threads parallel regions use (OpenMP's current setting). */
TSR_API int tsr_get_max_threads(void);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_H */
