/* Layout helpers of the GEMM convolutions (gemm:f32 and the int8 one):
 * "any" resolution, plain strides, the weights matrix form, the weights
 * scales form, weights as packed GEMM panels and dst addressing
 * (declarations in gemm_conv_f32.h). */
#include <string.h>

#include "common/checked_math.h"
#include "common/convolution_pd.h"
#include "common/isa.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "cpu/conv/gemm_conv_f32.h"

/* Layout order for "any": channels-last data (acdb...) or, for weights,
 * [g] kd kh kw i o when the dst is channels-last (K x OC, OC contiguous)
 * and the logical order (goihw) otherwise. */
tsr_status_t gemm_conv_resolve_any(tsr_memory_desc_t *md, int is_weights,
                                   int with_groups, int dst_cl) {
    if (!md_is_any(md))
        return tsr_success;
    int order[TSR_MAX_NDIMS], k = 0;
    const int nd = md->ndims;
    if (!is_weights) {
        order[k++] = 0;
        for (int d = 2; d < nd; d++)
            order[k++] = d;
        order[k++] = 1;
    } else if (dst_cl) {
        const int o = with_groups;
        if (with_groups)
            order[k++] = 0;
        for (int d = o + 2; d < nd; d++)
            order[k++] = d;
        order[k++] = o + 1;
        order[k++] = o;
    } else {
        for (int d = 0; d < nd; d++)
            order[k++] = d;
    }
    tsr_memory_desc_t built;
    tsr_status_t st = md_init_blocked(&built, nd, md->dims, md->data_type,
                                      order, 0, NULL, NULL);
    if (st == tsr_success)
        *md = built;
    return st;
}

/* Strides over n, c, d, h, w of a plain data md. */
void gemm_conv_data_strides(const tsr_memory_desc_t *md, tsr_dim_t *s) {
    const int nd = md->ndims;
    for (int i = 0; i < CONV_NDIMS; i++)
        s[i] = 0;
    s[CONV_N] = md->blocking.strides[0];
    s[CONV_C] = md->blocking.strides[1];
    for (int d = 2; d < nd; d++)
        s[CONV_W - (nd - 1 - d)] = md->blocking.strides[d];
}

/* 1 when the flattened spatial index sp of a data tensor with spatial
 * sizes (D, H, W) sits at offset sp * s_w. */
int gemm_conv_spatial_linear(const tsr_dim_t *s, tsr_dim_t D, tsr_dim_t H,
                             tsr_dim_t W) {
    return (H == 1 || s[CONV_H] == W * s[CONV_W]) &&
           (D == 1 || s[CONV_D] == H * W * s[CONV_W]);
}

/* Weights as a matrix: K order (kic or ick) with K stride `ks`, and the
 * OC stride; picks the GEMM operand form. */
int gemm_conv_weights_form(gemm_conv_conf_t *cf, const tsr_memory_desc_t *md,
                           int with_groups) {
    const tsr_dim_t *st = md->blocking.strides;
    const int o = with_groups, nd = md->ndims;
    tsr_dim_t s_sp[3] = {0, 0, 0}; /* kd, kh, kw */
    for (int d = o + 2; d < nd; d++)
        s_sp[3 - (nd - d)] = st[d];
    const tsr_dim_t s_o = st[o], s_i = st[o + 1];
    const tsr_dim_t ksz[3] = {cf->sh.KD, cf->sh.KH, cf->sh.KW};
    for (int kic = 1; kic >= 0; kic--) {
        /* With one input channel both orders are the same: take ick. */
        if (kic && cf->sh.ICg == 1)
            continue;
        /* The K stride: of the innermost K dim of size > 1. */
        tsr_dim_t ks = s_i;
        if (!kic)
            for (int d = 2; d >= 0; d--)
                if (ksz[d] > 1) {
                    ks = s_sp[d];
                    break;
                }
        const tsr_dim_t expect_w = kic ? cf->sh.ICg * ks : ks;
        int ok =
                (cf->sh.KW == 1 || s_sp[2] == expect_w) &&
                (cf->sh.KH == 1 || s_sp[1] == cf->sh.KW * expect_w) &&
                (cf->sh.KD == 1 || s_sp[0] == cf->sh.KH * cf->sh.KW * expect_w);
        if (!kic)
            ok = ok && (cf->sh.ICg == 1 || s_i == cf->KS * ks);
        if (!ok)
            continue;
        cf->kic = kic;
        if (ks == 1 || cf->K == 1) {
            cf->wei_oc_rows = 1;
            cf->wei_ld = cf->sh.OCg == 1 ? cf->K : s_o;
            if (cf->wei_ld < cf->K)
                continue;
        } else if (s_o == 1 || cf->sh.OCg == 1) {
            cf->wei_oc_rows = 0;
            cf->wei_ld = ks;
            if (cf->wei_ld < cf->sh.OCg)
                continue;
        } else {
            continue;
        }
        cf->wei_g_stride = with_groups ? st[0] : 0;
        cf->wei_off0 = md->offset0;
        return 1;
    }
    return 0;
}

/* Weights scales mask over (g, oc) or (oc) as the epilogue's
 * (c / div) % mod of dst channel c; mod 0 when it has no such form. */
void gemm_conv_wei_scale_form(const struct tsr_primitive_desc *pd,
                              const gemm_conv_conf_t *cf, int64_t *div,
                              int64_t *mod) {
    const int mask = pd->attr.scales[TSR_QARG_WEIGHTS].mask;
    const int g_bit = conv_with_groups(pd) ? 1 : 0;
    const int oc_bit = conv_with_groups(pd) ? 2 : 1;
    *div = 1;
    *mod = 1;
    if (mask & ~(g_bit | oc_bit)) {
        *mod = 0;
    } else if ((mask & g_bit) && (mask & oc_bit)) {
        *mod = cf->sh.G * cf->sh.OCg;
    } else if (mask & g_bit) {
        *div = cf->sh.OCg;
        *mod = cf->sh.G;
    } else if (mask & oc_bit) {
        *mod = cf->sh.OCg;
    }
}

void gemm_conv_sizes_init(gemm_conv_conf_t *cf,
                          const struct tsr_primitive_desc *pd) {
    conv_sizes_init(&cf->sh, pd);
    cf->DD = cf->sh.KDD + 1;
    cf->DH = cf->sh.KDH + 1;
    cf->DW = cf->sh.KDW + 1;
    cf->SP = cf->sh.OD * cf->sh.OH * cf->sh.OW;
    cf->KS = cf->sh.KD * cf->sh.KH * cf->sh.KW;
    cf->K = cf->sh.ICg * cf->KS;
    cf->col_ld = cf->K;
}

/* Bytes a window may exceed twice the source image by: small images with
 * their padding. */
#define WINDOW_SLACK_BYTES ((int64_t)1 << 20)

int gemm_conv_window_fits(const gemm_conv_conf_t *cf, tsr_dim_t out_rows,
                          size_t esize) {
    const conv_sizes_t *sh = &cf->sh;
    /* Rows and columns stay within the padded source's extent, which the
     * op descriptor's validation keeps from overflowing; their product
     * may not. */
    int64_t bytes, image, limit;
    return tsr_mul_i64(gemm_conv_window_rows(cf, out_rows),
                       gemm_conv_window_cols(cf), &bytes) &&
           tsr_mul_i64(bytes, sh->ICg * (int64_t)esize, &bytes) &&
           tsr_mul_i64(sh->IH * sh->IW * sh->ICg, 2 * (int64_t)esize, &image) &&
           tsr_add_i64(image, WINDOW_SLACK_BYTES, &limit) && bytes <= limit;
}

/* Logical dst point (n, oc, spatial of sp). */
void gemm_conv_dst_point(const gemm_conv_conf_t *cf, tsr_dim_t n, tsr_dim_t oc,
                         tsr_dim_t sp, tsr_dim_t *pos) {
    pos[0] = n;
    pos[1] = oc;
    const tsr_dim_t ow = sp % cf->sh.OW, oh = (sp / cf->sh.OW) % cf->sh.OH,
                    od = sp / (cf->sh.OW * cf->sh.OH);
    int d = 2;
    if (cf->sh.ndims == 5)
        pos[d++] = od;
    if (cf->sh.ndims >= 4)
        pos[d++] = oh;
    pos[d] = ow;
}

tsr_dim_t gemm_conv_dst_offset(const gemm_conv_conf_t *cf, tsr_dim_t n,
                               tsr_dim_t oc, tsr_dim_t sp) {
    return cf->dst_off0 + n * cf->dst_s[CONV_N] + oc * cf->dst_s[CONV_C] +
           sp * cf->dst_sp_step;
}

int gemm_conv_rows_batchable(const gemm_conv_conf_t *cf) {
    if (cf->src_window || !cf->dst_cl || cf->dst_sp_step < cf->sh.OCg ||
        cf->dst_s[CONV_N] != cf->SP * cf->dst_sp_step)
        return 0;
    /* The source read in place is the GEMM's A: rows of K channels. */
    return !cf->direct ||
           (cf->src_s[CONV_C] == 1 && cf->src_s[CONV_W] >= cf->K &&
            cf->src_s[CONV_N] == cf->SP * cf->src_s[CONV_W]);
}

int gemm_conv_md_is_plain(const tsr_memory_desc_t *md, tsr_data_type_t dt) {
    return md->format_kind == tsr_format_kind_blocked &&
           md->blocking.inner_nblks == 0 && md->data_type == dt;
}

int gemm_conv_src_direct(const gemm_conv_conf_t *cf) {
    const int unit_1x1 = cf->KS == 1 && cf->sh.KSD == 1 && cf->sh.KSH == 1 &&
                         cf->sh.KSW == 1 && cf->sh.padF == 0 &&
                         cf->sh.padT == 0 && cf->sh.padL == 0 &&
                         cf->sh.OD == cf->sh.ID && cf->sh.OH == cf->sh.IH &&
                         cf->sh.OW == cf->sh.IW;
    /* The source read in place must have the GEMM operand's shape: rows
     * (or columns) of equally spaced points, channels equally spaced. */
    return unit_1x1 &&
           gemm_conv_spatial_linear(cf->src_s, cf->sh.ID, cf->sh.IH,
                                    cf->sh.IW) &&
           (cf->src_s[CONV_C] == 1 || cf->src_s[CONV_W] == 1 || cf->SP == 1);
}

tsr_status_t gemm_conv_epilogue_init(const struct tsr_primitive_desc *pd,
                                     gemm_conv_conf_t *cf) {
    int64_t div, mod;
    gemm_conv_wei_scale_form(pd, cf, &div, &mod);
    const tsr_status_t st = tsr_epilogue_init(
            &cf->ep, &pd->attr, &pd->md[TSR_MD_DST],
            conv_with_bias(pd) ? &pd->md[TSR_MD_BIAS] : NULL, 1, div, mod);
    if (st != tsr_success)
        return st;
    cf->ep_identity = tsr_epilogue_is_identity(&cf->ep);
    cf->ep_bias_only = tsr_epilogue_is_bias_only(&cf->ep);
    cf->ep_uniform_sp = 1;
    for (int d = 2; d < cf->sh.ndims; d++)
        cf->ep_uniform_sp &= tsr_epilogue_uniform_along(&cf->ep, d);
    cf->ep_uniform_n = tsr_epilogue_uniform_along(&cf->ep, 0);
    return tsr_success;
}

int gemm_conv_data_init(gemm_conv_conf_t *cf, const tsr_memory_desc_t *src,
                        const tsr_memory_desc_t *dst) {
    gemm_conv_data_strides(src, cf->src_s);
    gemm_conv_data_strides(dst, cf->dst_s);
    cf->src_off0 = src->offset0;
    cf->dst_off0 = dst->offset0;
    cf->src_nelems = md_nelems_padded(src);
    cf->gather_s2 = tsr_mayiuse(tsr_cpu_isa_avx512_core)
                            ? gemm_conv_gather_s2_f32_avx512
                    : tsr_mayiuse(tsr_cpu_isa_avx2)
                            ? gemm_conv_gather_s2_f32_avx2
                            : NULL;
    return gemm_conv_spatial_linear(cf->dst_s, cf->sh.OD, cf->sh.OH, cf->sh.OW);
}

tsr_status_t gemm_conv_resolve_bias(tsr_memory_desc_t *bia) {
    if (!md_is_any(bia))
        return tsr_success;
    const int order[1] = {0};
    return md_init_blocked(bia, 1, bia->dims, bia->data_type, order, 0, NULL,
                           NULL);
}

/* The weights md laid out as a GEMM's packed B panels into *pp (the
 * layout in gemm_conv_f32.h); 0 when ICg is no multiple of kblk or nr is
 * 0. */
static int panels_md(const gemm_conv_conf_t *cf, const tsr_memory_desc_t *wei,
                     int with_groups, tsr_data_type_t dt, int nr, int kblk,
                     tsr_memory_desc_t *pp) {
    if (nr <= 0 || cf->sh.ICg % kblk != 0)
        return 0;
    const int o = with_groups, nd = wei->ndims;
    int order[TSR_MAX_NDIMS], k = 0;
    if (with_groups)
        order[k++] = 0;
    order[k++] = o;
    for (int d = o + 2; d < nd; d++)
        order[k++] = d;
    order[k++] = o + 1;
    const tsr_dim_t blks[2] = {nr, kblk};
    const int idxs[2] = {o, o + 1};
    return md_init_blocked(pp, nd, wei->dims, dt, order, kblk > 1 ? 2 : 1, blks,
                           idxs) == tsr_success;
}

/* Takes the panels md `wei` as the weights form: wei_panels and its
 * fields, kic, and the wei_* fields of the plain copy. */
static void panels_form(gemm_conv_conf_t *cf, const tsr_memory_desc_t *wei,
                        int with_groups, int nr, int kblk, size_t esize) {
    cf->wei_panels = 1;
    cf->panel_nr = nr;
    cf->panel_kblk = kblk;
    cf->panel_g_stride = with_groups ? wei->blocking.strides[0] : 0;
    cf->panel_off0 = wei->offset0;
    cf->panel_bytes = cf->sh.G * tsr_rnd_up(cf->sh.OCg, nr) *
                      tsr_rnd_up(cf->K, kblk) * (tsr_dim_t)esize;
    cf->kic = 1;
    cf->wei_oc_rows = 0;
    cf->wei_ld = cf->sh.OCg;
    cf->wei_g_stride = cf->K * cf->sh.OCg;
    cf->wei_off0 = 0;
    cf->panel_copy_bytes = (size_t)tsr_rnd_up(
            cf->sh.G * cf->wei_g_stride * (tsr_dim_t)esize, 64);
}

int gemm_conv_weights_init(gemm_conv_conf_t *cf, tsr_memory_desc_t *wei,
                           int with_groups, tsr_data_type_t dt, int nr,
                           int kblk) {
    tsr_memory_desc_t pp;
    const int can_panel = panels_md(cf, wei, with_groups, dt, nr, kblk, &pp);
    if (md_is_any(wei) && can_panel)
        *wei = pp;
    if (can_panel && md_same_layout(wei, &pp) && wei->data_type == dt) {
        panels_form(cf, wei, with_groups, nr, kblk, tsr_data_type_size(dt));
        return 1;
    }
    return gemm_conv_resolve_any(wei, 1, with_groups, cf->dst_cl) ==
                   tsr_success &&
           gemm_conv_md_is_plain(wei, dt) &&
           gemm_conv_weights_form(cf, wei, with_groups);
}

void gemm_conv_unpack_panels(const gemm_conv_conf_t *cf, const void *panels,
                             size_t esize, void *plain) {
    const tsr_dim_t nr = cf->panel_nr, kb = cf->panel_kblk, K = cf->K;
    const tsr_dim_t kpad = tsr_rnd_up(K, kb);
#pragma omp parallel for collapse(2)
    for (tsr_dim_t g = 0; g < cf->sh.G; g++)
        for (tsr_dim_t k = 0; k < K; k++) {
            const char *pg =
                    (const char *)panels +
                    (size_t)(cf->panel_off0 + g * cf->panel_g_stride) * esize;
            char *row = (char *)plain +
                        (size_t)(g * cf->wei_g_stride + k * cf->wei_ld) * esize;
            for (tsr_dim_t oc = 0; oc < cf->sh.OCg; oc++)
                memcpy(row + (size_t)oc * esize,
                       pg + (size_t)gemm_conv_panel_index(nr, kb, kpad, k, oc) *
                                       esize,
                       esize);
        }
}
