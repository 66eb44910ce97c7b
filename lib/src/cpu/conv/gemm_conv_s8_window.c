/* A zero-padded window of an int8 source, read by the GEMM by tap offsets
 * (tsr_gemm_s8_tap_offs_t): stride-1 layers on a kernel that takes them
 * (AMX). The source rows an item reads are copied once, padded left and
 * right, into rows of `cols` pixels of ICg bytes, so that output point
 * (oh, ow) reads tap (kh, kw) at window pixel
 *   (oh - oh0 + kh * DH) * cols + ow + kw * DW.
 * The GEMM's row q is window pixel ow0 + q of the first window rows: the
 * rows of consecutive points are then one pixel apart, across output rows
 * too, for the price of cols - OW padded points per output row, which the
 * GEMM computes and nobody stores. Unlike im2col, which writes each source
 * pixel once per tap, the window writes it once. */
#include <string.h>

#include "cpu/conv/gemm_conv_f32.h"
#include "cpu/gemm/gemm_taps.h"

int gemm_conv_window_ok(const gemm_conv_conf_t *cf) {
    const conv_sizes_t *sh = &cf->sh;
    return !cf->direct && cf->kic && cf->src_cl && cf->dst_cl &&
           cf->wei_panels && sh->KD == 1 && sh->ID == 1 && sh->OD == 1 &&
           sh->KSH == 1 && sh->KSW == 1 && cf->KS > 1 &&
           cf->KS <= TSR_GEMM_MAX_TAPS;
}

/* Pixels of a window row: every source column some point reads. */
static tsr_dim_t window_cols(const gemm_conv_conf_t *cf) {
    return cf->sh.OW + (cf->sh.KW - 1) * cf->DW;
}

/* Output rows the len points from point sp0 span. */
static tsr_dim_t out_rows(const gemm_conv_conf_t *cf, tsr_dim_t sp0,
                          tsr_dim_t len) {
    return (sp0 + len - 1) / cf->sh.OW - sp0 / cf->sh.OW + 1;
}

tsr_dim_t gemm_conv_window_max_rows(const gemm_conv_conf_t *cf,
                                    tsr_dim_t chunk_sp) {
    /* A chunk starting mid-row spans one output row more. */
    const tsr_dim_t rows =
            TSR_MIN(tsr_div_up(chunk_sp, cf->sh.OW) + 1, cf->sh.OH);
    return rows * window_cols(cf);
}

size_t gemm_conv_window_bytes(const gemm_conv_conf_t *cf, tsr_dim_t chunk_sp) {
    const tsr_dim_t rows =
            TSR_MIN(tsr_div_up(chunk_sp, cf->sh.OW) + 1, cf->sh.OH);
    return (size_t)((rows + (cf->sh.KH - 1) * cf->DH) * window_cols(cf) *
                    cf->sh.ICg);
}

void gemm_conv_window_taps(const gemm_conv_conf_t *cf, int64_t *off) {
    const tsr_dim_t cols = window_cols(cf);
    for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++)
        for (tsr_dim_t kw = 0; kw < cf->sh.KW; kw++)
            off[kh * cf->sh.KW + kw] =
                    (kh * cf->DH * cols + kw * cf->DW) * cf->sh.ICg;
}

/* n pixels of padding: the pad row (ICg bytes) repeated, or zeros. */
static void fill_pad(uint8_t *w, tsr_dim_t n, tsr_dim_t C, const void *pad) {
    if (!pad) {
        memset(w, 0, (size_t)(n * C));
        return;
    }
    for (tsr_dim_t i = 0; i < n; i++)
        memcpy(w + i * C, pad, (size_t)C);
}

gemm_conv_window_t gemm_conv_window_fill(const gemm_conv_conf_t *cf,
                                         const void *src_g, const void *pad,
                                         tsr_dim_t sp0, tsr_dim_t len,
                                         void *buf) {
    const conv_sizes_t *sh = &cf->sh;
    const tsr_dim_t C = sh->ICg, cols = window_cols(cf);
    const tsr_dim_t oh0 = sp0 / sh->OW, ow0 = sp0 % sh->OW;
    const tsr_dim_t rows = out_rows(cf, sp0, len) + (sh->KH - 1) * cf->DH;
    const tsr_dim_t ih0 = oh0 - sh->padT;
    /* Source columns [0, IW) land at window pixels from padL; those past
     * the window's end are read by no point. */
    const tsr_dim_t lead = TSR_MIN(sh->padL, cols);
    const tsr_dim_t body = TSR_MAX(0, TSR_MIN(sh->IW, cols - sh->padL));
    const tsr_dim_t sw = cf->src_s[CONV_W];
    uint8_t *win = buf;
    for (tsr_dim_t r = 0; r < rows; r++) {
        uint8_t *w = win + r * cols * C;
        const tsr_dim_t ih = ih0 + r;
        if (ih < 0 || ih >= sh->IH) {
            fill_pad(w, cols, C, pad);
            continue;
        }
        fill_pad(w, lead, C, pad);
        const uint8_t *s = (const uint8_t *)src_g + ih * cf->src_s[CONV_H];
        if (sw == C) {
            memcpy(w + lead * C, s, (size_t)(body * C));
        } else {
            for (tsr_dim_t i = 0; i < body; i++)
                memcpy(w + (lead + i) * C, s + i * sw, (size_t)C);
        }
        fill_pad(w + (lead + body) * C, cols - lead - body, C, pad);
    }
    const gemm_conv_window_t wnd = {win + ow0 * C,
                                    (out_rows(cf, sp0, len) - 1) * cols +
                                            (sp0 + len - 1) % sh->OW - ow0 + 1,
                                    oh0, ow0};
    return wnd;
}

tsr_dim_t gemm_conv_window_point(const gemm_conv_conf_t *cf,
                                 const gemm_conv_window_t *wnd, tsr_dim_t q) {
    const tsr_dim_t cols = window_cols(cf);
    const tsr_dim_t pix = wnd->ow0 + q, ow = pix % cols;
    return ow < cf->sh.OW ? (wnd->oh0 + pix / cols) * cf->sh.OW + ow : -1;
}

void gemm_conv_window_dst_rows(const gemm_conv_conf_t *cf,
                               const gemm_conv_window_t *wnd, tsr_dim_t n,
                               tsr_dim_t g, int64_t *row_off) {
    const tsr_dim_t cols = window_cols(cf);
    tsr_dim_t oh = wnd->oh0, ow = wnd->ow0;
    for (tsr_dim_t q = 0; q < wnd->rows; q++) {
        row_off[q] = ow < cf->sh.OW
                             ? gemm_conv_dst_offset(cf, n, g * cf->sh.OCg,
                                                    oh * cf->sh.OW + ow)
                             : -1;
        if (++ow == cols) {
            ow = 0;
            oh++;
        }
    }
}
