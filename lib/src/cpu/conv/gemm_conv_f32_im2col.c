/* im2col for the f32 GEMM convolution (layouts in gemm_conv_f32.h). Input
 * points outside the source (padding) give zeros. Any plain source layout
 * works; channel-stride-1 sources copy whole channel runs. */
#include <string.h>

#include "cpu/conv/gemm_conv_f32.h"

/* Position in the K order of (kernel point kidx, input channel ic). */
static tsr_dim_t k_index(const gemm_conv_conf_t *cf, tsr_dim_t kidx,
                         tsr_dim_t ic) {
    return cf->kic ? kidx * cf->sh.ICg + ic : ic * cf->KS + kidx;
}

/* First output index o in [0, n) with 0 <= o * stride + shift, and one
 * past the last with o * stride + shift < limit. */
static void valid_range(tsr_dim_t n, tsr_dim_t stride, tsr_dim_t shift,
                        tsr_dim_t limit, tsr_dim_t *begin, tsr_dim_t *end) {
    tsr_dim_t b = 0;
    if (shift < 0)
        b = (-shift + stride - 1) / stride;
    tsr_dim_t e = 0;
    if (limit - shift > 0)
        e = (limit - shift + stride - 1) / stride;
    *begin = b < n ? b : n;
    *end = e < n ? e : n;
    if (*end < *begin)
        *end = *begin;
}

/* One kernel row (kd, kh) of a col row for channels-last sources whose
 * kernel points along w are adjacent in memory (kic order, channels dense,
 * no w dilation): the valid points are one contiguous copy. */
static void copy_kernel_row_dense(const gemm_conv_conf_t *cf,
                                  const float *in_row, tsr_dim_t ow,
                                  float *out) {
    const tsr_dim_t shift = ow * cf->sh.KSW - cf->sh.padL;
    tsr_dim_t kb, ke;
    valid_range(cf->sh.KW, 1, shift, cf->sh.IW, &kb, &ke);
    const size_t c = (size_t)cf->sh.ICg;
    memset(out, 0, (size_t)kb * c * sizeof(float));
    if (ke > kb)
        memcpy(out + kb * cf->sh.ICg, in_row + (shift + kb) * cf->sh.ICg,
               (size_t)(ke - kb) * c * sizeof(float));
    memset(out + ke * cf->sh.ICg, 0,
           (size_t)(cf->sh.KW - ke) * c * sizeof(float));
}

/* Channels-last dst: row (sp - sp0) of col holds the K values of point sp. */
static void im2col_rows(const gemm_conv_conf_t *cf, const float *src_ng,
                        tsr_dim_t sp0, tsr_dim_t sp_begin, tsr_dim_t sp_end,
                        float *col) {
    const tsr_dim_t *s = cf->src_s;
    const tsr_dim_t ic_step = cf->kic ? 1 : cf->KS;
    const int dense_w = cf->kic && s[CONV_C] == 1 &&
                        (cf->sh.IW == 1 || s[CONV_W] == cf->sh.ICg) &&
                        cf->DW == 1;
    for (tsr_dim_t sp = sp_begin; sp < sp_end; sp++) {
        const tsr_dim_t ow = sp % cf->sh.OW, oh = (sp / cf->sh.OW) % cf->sh.OH,
                        od = sp / (cf->sh.OW * cf->sh.OH);
        float *row = col + (sp - sp0) * cf->K;
        tsr_dim_t kidx = 0;
        for (tsr_dim_t kd = 0; kd < cf->sh.KD; kd++) {
            const tsr_dim_t id = od * cf->sh.KSD - cf->sh.padF + kd * cf->DD;
            for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++) {
                const tsr_dim_t ih =
                        oh * cf->sh.KSH - cf->sh.padT + kh * cf->DH;
                const int row_inside =
                        id >= 0 && id < cf->sh.ID && ih >= 0 && ih < cf->sh.IH;
                if (dense_w) {
                    float *out = row + kidx * cf->sh.ICg;
                    if (row_inside)
                        copy_kernel_row_dense(
                                cf, src_ng + id * s[CONV_D] + ih * s[CONV_H],
                                ow, out);
                    else
                        memset(out, 0,
                               (size_t)(cf->sh.KW * cf->sh.ICg) *
                                       sizeof(float));
                    kidx += cf->sh.KW;
                    continue;
                }
                for (tsr_dim_t kw = 0; kw < cf->sh.KW; kw++, kidx++) {
                    const tsr_dim_t iw =
                            ow * cf->sh.KSW - cf->sh.padL + kw * cf->DW;
                    float *out = row + k_index(cf, kidx, 0);
                    if (!row_inside || iw < 0 || iw >= cf->sh.IW) {
                        for (tsr_dim_t ic = 0; ic < cf->sh.ICg; ic++)
                            out[ic * ic_step] = 0.f;
                        continue;
                    }
                    const float *in = src_ng + id * s[CONV_D] + ih * s[CONV_H] +
                                      iw * s[CONV_W];
                    /* memcpy only pays off for runs of some length. */
                    if (ic_step == 1 && s[CONV_C] == 1 && cf->sh.ICg >= 8) {
                        memcpy(out, in, (size_t)cf->sh.ICg * sizeof(float));
                    } else {
                        for (tsr_dim_t ic = 0; ic < cf->sh.ICg; ic++)
                            out[ic * ic_step] = in[ic * s[CONV_C]];
                    }
                }
            }
        }
    }
}

/* Channels-first dst: row k of col (len entries) holds value k of every
 * point of the chunk; rows [k_begin, k_end) are filled one output row
 * segment (fixed od, oh) at a time. */
static void im2col_cols(const gemm_conv_conf_t *cf, const float *src_ng,
                        tsr_dim_t sp0, tsr_dim_t len, tsr_dim_t k_begin,
                        tsr_dim_t k_end, float *col) {
    const tsr_dim_t *s = cf->src_s;
    const tsr_dim_t in_step = cf->sh.KSW * s[CONV_W];
    for (tsr_dim_t k = k_begin; k < k_end; k++) {
        const tsr_dim_t ic = cf->kic ? k % cf->sh.ICg : k / cf->KS;
        const tsr_dim_t kidx = cf->kic ? k / cf->sh.ICg : k % cf->KS;
        const tsr_dim_t kw = kidx % cf->sh.KW,
                        kh = (kidx / cf->sh.KW) % cf->sh.KH,
                        kd = kidx / (cf->sh.KW * cf->sh.KH);
        float *row = col + k * len;
        const tsr_dim_t shift_w = kw * cf->DW - cf->sh.padL;
        tsr_dim_t wb, we;
        valid_range(cf->sh.OW, cf->sh.KSW, shift_w, cf->sh.IW, &wb, &we);
        const float *in_c = src_ng + ic * s[CONV_C];
        tsr_dim_t ow0 = sp0 % cf->sh.OW, oh = (sp0 / cf->sh.OW) % cf->sh.OH,
                  od = sp0 / (cf->sh.OW * cf->sh.OH);
        for (tsr_dim_t j = 0; j < len;) {
            tsr_dim_t seg = cf->sh.OW - ow0;
            if (seg > len - j)
                seg = len - j;
            const tsr_dim_t id = od * cf->sh.KSD - cf->sh.padF + kd * cf->DD;
            const tsr_dim_t ih = oh * cf->sh.KSH - cf->sh.padT + kh * cf->DH;
            float *out = row + j;
            /* The segment covers ow in [ow0, ow0 + seg); inputs exist for
             * ow in [wb, we). */
            tsr_dim_t vb = wb > ow0 ? wb : ow0;
            tsr_dim_t ve = we < ow0 + seg ? we : ow0 + seg;
            if (id < 0 || id >= cf->sh.ID || ih < 0 || ih >= cf->sh.IH ||
                ve < vb)
                vb = ve = ow0;
            for (tsr_dim_t ow = ow0; ow < vb; ow++)
                out[ow - ow0] = 0.f;
            if (ve > vb) {
                const float *in = in_c + id * s[CONV_D] + ih * s[CONV_H] +
                                  (vb * cf->sh.KSW + shift_w) * s[CONV_W];
                float *o = out + (vb - ow0);
                const tsr_dim_t cnt = ve - vb;
                if (in_step == 1)
                    memcpy(o, in, (size_t)cnt * sizeof(float));
                else
                    for (tsr_dim_t t = 0; t < cnt; t++)
                        o[t] = in[t * in_step];
            }
            for (tsr_dim_t ow = ve; ow < ow0 + seg; ow++)
                out[ow - ow0] = 0.f;
            j += seg;
            ow0 = 0;
            if (++oh == cf->sh.OH) {
                oh = 0;
                od++;
            }
        }
    }
}

/* Part `part` of `nparts` of [0, n). */
static void split(tsr_dim_t n, int nparts, int part, tsr_dim_t *begin,
                  tsr_dim_t *end) {
    const tsr_dim_t q = n / nparts, r = n % nparts;
    *begin = part * q + (part < r ? part : r);
    *end = *begin + q + (part < r);
}

void gemm_conv_im2col(const gemm_conv_conf_t *cf, const float *src, tsr_dim_t n,
                      tsr_dim_t g, tsr_dim_t sp0, tsr_dim_t len, int part,
                      int nparts, float *col) {
    const float *src_ng = src + cf->src_off0 + n * cf->src_s[CONV_N] +
                          g * cf->sh.ICg * cf->src_s[CONV_C];
    tsr_dim_t b, e;
    if (cf->dst_cl) {
        split(len, nparts, part, &b, &e);
        im2col_rows(cf, src_ng, sp0, sp0 + b, sp0 + e, col);
    } else {
        split(cf->K, nparts, part, &b, &e);
        im2col_cols(cf, src_ng, sp0, len, b, e, col);
    }
}
