/* The fused f32 epilogue shared by the GEMM-based convolution, inner
 * product and matmul: everything that happens to an f32 accumulator between
 * the end of the reduction and the store into dst.
 *
 * Contract. tsr_epilogue_init is called once at pd init with the pd's
 * attributes, its resolved dst md, the bias md (NULL without bias) and the
 * logical dst dim that is the channel (1 for convolution and inner product,
 * ndims - 1 for matmul); it returns tsr_unimplemented for what it cannot do
 * (src scales not common, weights scales the caller could not describe,
 * post-ops other than sum/eltwise/binary/prelu); dst, bias and binary src1
 * may have any layout (only offsets are taken from them). Source and
 * weights zero points belong to the reduction and are the caller's
 * business. Per execution, tsr_epilogue_resolve fetches the runtime values
 * (bias, scales, zero points, binary src1, prelu weights) from the exec
 * ctx. tsr_epilogue_apply_row takes
 * a run of n consecutive accumulators of one dst row - the logical points
 * pos0, pos0 + e, ..., pos0 + (n - 1) e with e the unit step along logical
 * dim inner_dim - and stores them at dst elements dst_off0 + i * dst_stride
 * (element offsets into dst_base, of the dst data type). Each value goes
 * through exactly the steps and order of ref_convolution.c: legacy output
 * scales oscale * (acc + bias), or per-argument ((acc * src_scale) *
 * wei_scale) + bias, or acc + bias; post-ops sum / eltwise / binary /
 * prelu in order; / dst_scale; + dst_zp; round per the attr round mode,
 * saturate and store. The acc run is used as work space (its contents are
 * undefined afterwards) and may be the dst run itself (f32 dst, dst_stride 1)
 * unless tsr_epilogue_reads_dst says a sum post-op needs the old dst values.
 * All calls are thread-safe on distinct runs. */
#ifndef TSR_CPU_COMMON_EPILOGUE_F32_H
#define TSR_CPU_COMMON_EPILOGUE_F32_H

#include <stdint.h>

#include "common/attr.h"
#include "common/primitive.h"

/* Index into a value array (scales, zero points) for a dst point, built
 * from a mask over the dst dims. */
typedef struct {
    int mask;
    tsr_dim_t dims[TSR_MAX_NDIMS];
} tsr_epilogue_qindex_t;

/* The common case in one pass, built at init: f32 dst, operands that vary
 * at most with the channel (contiguous f32 bias, per-channel or common
 * scales), post-ops sum (f32) and relu only. */
#define TSR_EPILOGUE_FUSED_MAX_OPS 4
typedef struct {
    int ok;
    int legacy, with_bias, with_src_scale, with_wei_scale;
    int oscale_per_channel, wei_scale_per_channel;
    int nops;
    int is_sum[TSR_EPILOGUE_FUSED_MAX_OPS];
    /* sum: scale, zero point; relu: alpha, scale */
    float p0[TSR_EPILOGUE_FUSED_MAX_OPS], p1[TSR_EPILOGUE_FUSED_MAX_OPS];
} tsr_epilogue_fused_plan_t;

/* One call of the fused kernel: operand vectors (n entries, NULL: the
 * common value), m rows of n elements. */
typedef struct {
    const tsr_epilogue_fused_plan_t *plan;
    const float *bias, *oscale, *wei_scale;
    float bias_c, oscale_c, src_scale, wei_scale_c;
} tsr_epilogue_fused_args_t;

/* The common form of the fused plan for int8 kernels that store tile by
 * tile as they finish: scales and bias, then at most a ReLU with alpha 0
 * and scale 1, from s32 sums into an f32, u8, s8 or s32 dst whose
 * channels are at stride 1 (integers rounding to nearest). rows16 takes m rows
 * of 16 sums (row stride 16) of the channels from col on and stores them at
 * dst, rows dst_ld bytes apart, with the results of
 * tsr_epilogue_apply_rows_s32; rows32 the same for rows of 32 sums (row
 * stride 32), on CPUs with AVX-512 (else NULL). Built per call by
 * tsr_epilogue_common_init; AVX2 only. */
typedef struct tsr_epilogue_common tsr_epilogue_common_t;
typedef void (*tsr_epilogue_rows16_fn)(const tsr_epilogue_common_t *cs,
                                       int64_t col, const int32_t *acc,
                                       int64_t m, char *dst, int64_t dst_ld);
struct tsr_epilogue_common {
    tsr_epilogue_fused_args_t f; /* operands from the call's first channel */
    tsr_epilogue_rows16_fn rows16, rows32;
    float hi;         /* dt's largest value */
    int64_t dt_bytes; /* dt's size */
};

/* Which common form the plan has for this dst: 1 + (legacy, bias, relu0)
 * as bits, or 0 for none. */
int tsr_epilogue_common_form(const tsr_epilogue_fused_plan_t *p,
                             tsr_data_type_t dt, tsr_round_mode_t mode);

typedef struct {
    int ndims, channel_dim;
    tsr_dim_t dims[TSR_MAX_NDIMS];
    tsr_data_type_t dst_dt;
    tsr_round_mode_t round_mode;

    int with_bias;
    tsr_memory_desc_t bias_md; /* 1D over channels, or dst rank broadcast */

    int with_oscale; /* legacy output scales, values owned by the attr */
    tsr_epilogue_qindex_t oscale_idx;
    const float *oscales;

    int with_src_scale, with_wei_scale, with_dst_scale, with_dst_zp;
    /* Weights scale of channel c: wei_scales[(c / wei_div) % wei_mod]. */
    int64_t wei_div, wei_mod;
    tsr_epilogue_qindex_t dst_scale_idx, dst_zp_idx;

    const struct tsr_post_ops *post_ops; /* the pd's own attr */
    int reads_dst;
    tsr_epilogue_fused_plan_t fused;
} tsr_epilogue_t;

/* Runtime values, from tsr_epilogue_resolve. */
typedef struct {
    const void *bias;
    const float *src_scales, *wei_scales, *dst_scales;
    const int32_t *dst_zp;
    const void *bin_src1[TSR_MAX_POST_OPS];
    const float *prelu_weights[TSR_MAX_POST_OPS];
    int use_avx2, use_avx512; /* looked up once: calls come per tile */
} tsr_epilogue_rt_t;

/* `attr` must outlive `ep` (the pd's own attr). wei_scale_div/mod describe
 * the weights scales mask as above; pass wei_scale_mod 0 when the mask has
 * no such form (init then fails if weights scales are set). */
tsr_status_t tsr_epilogue_init(tsr_epilogue_t *ep,
                               const struct tsr_primitive_attr *attr,
                               const tsr_memory_desc_t *dst_md,
                               const tsr_memory_desc_t *bias_md,
                               int channel_dim, int64_t wei_scale_div,
                               int64_t wei_scale_mod);

/* The common form for runs along the channel from position pos0 (its
 * channel the first column), when the epilogue has one and AVX2 runs it;
 * returns 0 otherwise. */
int tsr_epilogue_common_init(const tsr_epilogue_t *ep,
                             const tsr_epilogue_rt_t *rt, const tsr_dim_t *pos0,
                             tsr_epilogue_common_t *cs);
/* The stores (rows16, rows32), hi and dt_bytes of a common form `form`
 * (tsr_epilogue_common_form) into dt; tsr_epilogue_common_init's last
 * step. */
void tsr_epilogue_common_kernels(tsr_epilogue_common_t *cs, tsr_data_type_t dt,
                                 int form);

/* A primitive's own tsr_epilogue_init call from its pd (which dst dim is
 * the channel, the form of its weights scales mask). */
typedef tsr_status_t (*tsr_epilogue_init_fn)(
        const struct tsr_primitive_desc *pd, tsr_epilogue_t *ep);

void tsr_epilogue_resolve(const tsr_epilogue_t *ep, const tsr_exec_ctx_t *ctx,
                          tsr_epilogue_rt_t *rt);

/* 1 when a sum post-op reads the old dst values. */
static inline int tsr_epilogue_reads_dst(const tsr_epilogue_t *ep) {
    return ep->reads_dst;
}

/* 1 when applying the epilogue to f32 accumulators already in an f32 dst
 * changes nothing (no bias, scales, zero points or post-ops): callers may
 * skip it. */
int tsr_epilogue_is_identity(const tsr_epilogue_t *ep);

/* 1 when the epilogue only adds a contiguous f32 1D bias to f32
 * accumulators in an f32 dst (acc + bias[c]): a GEMM can add it itself. */
int tsr_epilogue_is_bias_only(const tsr_epilogue_t *ep);

/* 1 when no operand of the epilogue varies along logical dst dim `dim`: a
 * run may then also cross values of that dim (e.g. spatial rows of nchw),
 * pos0 naming its first point, as long as dst_off0 + i * dst_stride still
 * addresses its elements. */
int tsr_epilogue_uniform_along(const tsr_epilogue_t *ep, int dim);

/* m runs as in tsr_epilogue_apply_row, run r at acc + r * acc_ld and dst
 * element dst_off0 + r * dst_ld + i * dst_stride. The runs may differ only
 * along dims the epilogue is uniform along (tsr_epilogue_uniform_along),
 * pos0 naming the first run's first point: a whole GEMM tile in one call. */
void tsr_epilogue_apply_rows(const tsr_epilogue_t *ep,
                             const tsr_epilogue_rt_t *rt, float *acc,
                             int64_t acc_ld, int64_t m, int64_t n,
                             const tsr_dim_t *pos0, int inner_dim,
                             void *dst_base, int64_t dst_off0, int64_t dst_ld,
                             int64_t dst_stride);

/* tsr_epilogue_apply_rows on s32 accumulators (an int8 GEMM's tile, left
 * untouched), each converted to f32 first as the reference converts its
 * sum. work is room for m * n floats; the common case (the fused plan into
 * an f32, s32, s8 or u8 dst) goes from acc to dst in one pass without it. */
void tsr_epilogue_apply_rows_s32(const tsr_epilogue_t *ep,
                                 const tsr_epilogue_rt_t *rt,
                                 const int32_t *acc, int64_t acc_ld, int64_t m,
                                 int64_t n, const tsr_dim_t *pos0,
                                 int inner_dim, void *dst_base,
                                 int64_t dst_off0, int64_t dst_ld,
                                 int64_t dst_stride, float *work);

void tsr_epilogue_apply_row(const tsr_epilogue_t *ep,
                            const tsr_epilogue_rt_t *rt, float *acc, int64_t n,
                            const tsr_dim_t *pos0, int inner_dim,
                            void *dst_base, int64_t dst_off0,
                            int64_t dst_stride);

/* AVX2 kernels of the elementwise steps, giving exactly the scalar
 * results; only called when tsr_mayiuse(avx2). `vec` NULL means the common
 * value for every element. */
void tsr_epilogue_mul_avx2(float *v, int64_t n, const float *vec, float common);
void tsr_epilogue_add_avx2(float *v, int64_t n, const float *vec, float common);
/* v = scale * (v > 0 ? v : alpha * v) */
void tsr_epilogue_relu_avx2(float *v, int64_t n, float alpha, float scale);
/* v = v > 0 ? v : w * v, w from `vec` or `common` as above (prelu). */
void tsr_epilogue_prelu_avx2(float *v, int64_t n, const float *vec,
                             float common);
/* The fused plan over m rows; dst rows (f32, stride 1) are also the old
 * values a sum reads. */
void tsr_epilogue_fused_rows_avx2(const tsr_epilogue_fused_args_t *f,
                                  const float *acc, int64_t acc_ld, int64_t m,
                                  int64_t n, float *dst, int64_t dst_ld);
/* The fused plan from s32 accumulators (converted to f32 first) into m
 * rows of an f32, s32, s8 or u8 dst (stride 1), rounding per `mode` and
 * saturating: one pass. A sum (f32 dst only) reads dst. */
void tsr_epilogue_fused_s32_rows_avx2(const tsr_epilogue_fused_args_t *f,
                                      const int32_t *acc, int64_t acc_ld,
                                      int64_t m, int64_t n, tsr_data_type_t dt,
                                      tsr_round_mode_t mode, void *dst,
                                      int64_t dst_ld);
/* The rows16 of the common form `form` (tsr_epilogue_common_form) into
 * dt. */
tsr_epilogue_rows16_fn tsr_epilogue_common_rows16_avx2(tsr_data_type_t dt,
                                                       int form);
/* Its rows32, in epilogue_f32_avx512.c. */
tsr_epilogue_rows16_fn tsr_epilogue_common_rows32_avx512(tsr_data_type_t dt,
                                                         int form);
/* The common form `form` into dt for m rows of n sums (row stride acc_ld)
 * of the channels from f's first on, rows dst_ld elements apart: what
 * tsr_epilogue_fused_s32_rows_avx2 stores for that form, on CPUs with
 * AVX-512 (in epilogue_f32_avx512.c). */
void tsr_epilogue_common_cols_avx512(const tsr_epilogue_fused_args_t *f,
                                     tsr_data_type_t dt, int form,
                                     const int32_t *acc, int64_t acc_ld,
                                     int64_t m, int64_t n, void *dst,
                                     int64_t dst_ld);
/* v = scale * (old - zp) + v */
void tsr_epilogue_sum_avx2(float *v, int64_t n, const float *old, float scale,
                           float zp);

#endif
