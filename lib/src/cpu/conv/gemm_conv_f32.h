/* The f32 GEMM convolution ("gemm:f32"): its problem configuration, built
 * at pd init, and the im2col that feeds the GEMM.
 *
 * Per image n and group g the convolution is one GEMM over the flattened
 * output spatial points sp (od, oh, ow) and the reduction index k over
 * (ic, kd, kh, kw) of the group:
 *   channels-last dst (nhwc family): C[sp][oc] = col[sp][k] * W[k][oc]
 *   channels-first dst (nchw family): C[oc][sp] = W[oc][k] * col[k][sp]
 * C is the dst itself (its spatial points are equally spaced) unless a sum
 * post-op needs the old dst. The K order of col matches the weights layout:
 * "kic" (kernel point outer, input channel inner, e.g. hwio, ohwi) or "ick"
 * (input channel outer, e.g. oihw). 1x1 convolutions with stride 1 and no
 * padding read the source directly; others gather it chunk by chunk of
 * spatial points into the col scratchpad. */
#ifndef TSR_CPU_CONV_GEMM_CONV_F32_H
#define TSR_CPU_CONV_GEMM_CONV_F32_H

#include <stddef.h>

#include "common/convolution_pd.h"
#include "cpu/common/epilogue_f32.h"

/* Strides of a data tensor over the canonical dims n, c, d, h, w (missing
 * spatial dims have size 1, stride 0). */
enum { CONV_N = 0, CONV_C, CONV_D, CONV_H, CONV_W, CONV_NDIMS };

typedef struct {
    conv_sizes_t sh;
    tsr_dim_t DD, DH, DW; /* dilated steps (1 + dilation) */
    tsr_dim_t SP, KS, K;  /* OD*OH*OW, KD*KH*KW, ICg*KS */

    tsr_dim_t src_s[CONV_NDIMS], dst_s[CONV_NDIMS];
    tsr_dim_t src_off0, dst_off0;
    tsr_dim_t dst_sp_step; /* element distance of consecutive sp points */

    int dst_cl;      /* dst channels-last: C rows are spatial points */
    int kic;         /* col K order: kernel point outer, ic inner */
    int wei_oc_rows; /* weights as OCg x K with K stride 1; else K x OCg
                        with OC stride 1 */
    tsr_dim_t wei_ld, wei_g_stride, wei_off0;

    int direct; /* 1x1, stride 1, no padding: no im2col */
    int src_cl; /* source channel stride 1 */
    tsr_dim_t chunk_sp;
    int nthr;             /* threads booked in the scratchpad */
    int per_thread_items; /* many (n, g, chunk) items: one GEMM per thread */
    size_t col_floats, cbuf_floats, gemm_bytes, thread_bytes;

    tsr_epilogue_t ep;
    int ep_identity, ep_bias_only, ep_uniform_sp;
} gemm_conv_conf_t;

/* Fills part `part` of `nparts` (split over points for channels-last,
 * over K rows for channels-first) of the col of the chunk of `len` spatial
 * points from sp0 of image n, group g, laid out for the dst family (see
 * above). */
void gemm_conv_im2col(const gemm_conv_conf_t *cf, const float *src, tsr_dim_t n,
                      tsr_dim_t g, tsr_dim_t sp0, tsr_dim_t len, int part,
                      int nparts, float *col);

#endif
