/* A zero-padded window of an int8 source, read by the GEMM by tap offsets
 * (tsr_gemm_s8_tap_offs_t) on a kernel that takes them (AMX). The source
 * rows an item reads are copied once, padded left and right, into rows of
 * `cols` pixels of ICg bytes, so that output point (oh, ow) reads tap
 * (kh, kw) at window pixel
 *   ((oh - oh0) * SH + kh * DH) * pitch + ow * SW + kw * DW.
 * Unlike im2col, which writes each source pixel once per tap, the window
 * writes it once. Two forms:
 * - point taps (stride 1): a tap per kernel point. The GEMM's row q is
 *   window pixel ow0 + q of the first window rows: the rows of consecutive
 *   points are then one pixel apart, across output rows too, for the price
 *   of pitch - OW padded points per output row, which the GEMM computes and
 *   nobody stores. Consecutive window rows overlap by the padding columns
 *   the right and the left border share (window_pitch): one zero column
 *   serves both sides of a 3x3 layer's rows, whose GEMM then computes
 *   OW + 1 points per output row, not OW + 2 (ResNet-50 res5a_branch2b,
 *   7x7: 56 rows instead of 63).
 * - kernel-row taps (row_taps: few channels, first layers): a tap per
 *   kernel row, its KW pixels being KW * ICg consecutive bytes (rounded up
 *   to whole quads, whose extra bytes meet zero weights), and one GEMM per
 *   output row, whose points are SW pixels apart. */
#include <string.h>

#include "cpu/conv/gemm_conv_f32.h"
#include "cpu/gemm/gemm_taps.h"

/* What both forms need: 2D or 1D, a channels-last source, K in kernel
 * point order, several taps, and a window of a whole image (the most an
 * item's may hold) that fits. */
static int window_base_ok(const gemm_conv_conf_t *cf) {
    const conv_sizes_t *sh = &cf->sh;
    return !cf->direct && cf->kic && cf->src_cl && cf->dst_cl && sh->KD == 1 &&
           sh->ID == 1 && sh->OD == 1 && cf->KS > 1 &&
           gemm_conv_window_fits(cf, sh->OH, 1);
}

int gemm_conv_window_ok(const gemm_conv_conf_t *cf) {
    return window_base_ok(cf) && cf->sh.KSH == 1 && cf->sh.KSW == 1 &&
           cf->KS <= TSR_GEMM_MAX_TAPS;
}

int gemm_conv_row_window_ok(const gemm_conv_conf_t *cf, int64_t max_k_tap) {
    const conv_sizes_t *sh = &cf->sh;
    return window_base_ok(cf) && sh->KW > 1 && cf->DW == 1 &&
           sh->KH <= TSR_GEMM_MAX_TAPS &&
           tsr_rnd_up(sh->KW * sh->ICg, 4) <= max_k_tap;
}

/* Bytes past the window's last pixel that a kernel-row tap, rounded up
 * to whole quads, may read. */
#define WINDOW_SLACK 64

/* Output rows the len points from point sp0 span. */
static tsr_dim_t out_rows(const gemm_conv_conf_t *cf, tsr_dim_t sp0,
                          tsr_dim_t len) {
    return (sp0 + len - 1) / cf->sh.OW - sp0 / cf->sh.OW + 1;
}

/* Pixels from one window row to the next: cols, less with point taps by
 * the zero columns both borders have (a row's right padding is then the
 * next row's left padding). */
static tsr_dim_t window_pitch(const gemm_conv_conf_t *cf) {
    const tsr_dim_t cols = gemm_conv_window_cols(cf);
    if (cf->row_taps)
        return cols;
    const tsr_dim_t right = cols - cf->sh.padL - cf->sh.IW;
    return cols - TSR_MAX(0, TSR_MIN(cf->sh.padL, right));
}

tsr_dim_t gemm_conv_window_max_rows(const gemm_conv_conf_t *cf,
                                    tsr_dim_t chunk_sp) {
    if (cf->row_taps)
        return cf->sh.OW;
    return gemm_conv_chunk_out_rows(cf, chunk_sp) * window_pitch(cf);
}

size_t gemm_conv_window_bytes(const gemm_conv_conf_t *cf, tsr_dim_t chunk_sp) {
    return (size_t)(gemm_conv_window_rows(
                            cf, gemm_conv_chunk_out_rows(cf, chunk_sp)) *
                            gemm_conv_window_cols(cf) * cf->sh.ICg +
                    WINDOW_SLACK);
}

tsr_gemm_s8_tap_offs_t gemm_conv_window_taps(const gemm_conv_conf_t *cf,
                                             int64_t *off) {
    const tsr_dim_t cols = window_pitch(cf), C = cf->sh.ICg;
    tsr_gemm_s8_tap_offs_t t = {0, 0, off};
    if (cf->row_taps) {
        for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++)
            off[kh] = kh * cf->DH * cols * C;
        t.ntaps = cf->sh.KH;
        t.k_tap = tsr_rnd_up(cf->sh.KW * C, 4);
        return t;
    }
    for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++)
        for (tsr_dim_t kw = 0; kw < cf->sh.KW; kw++)
            off[kh * cf->sh.KW + kw] = (kh * cf->DH * cols + kw * cf->DW) * C;
    t.ntaps = cf->KS;
    t.k_tap = C;
    return t;
}

const void *gemm_conv_window_row_a(const gemm_conv_conf_t *cf,
                                   const gemm_conv_window_t *wnd, tsr_dim_t oh,
                                   tsr_dim_t ow) {
    return (const uint8_t *)wnd->base +
           ((oh - wnd->oh0) * cf->sh.KSH * window_pitch(cf) + ow * cf->sh.KSW) *
                   cf->sh.ICg;
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

/* Part `part` of `nparts` of [0, n). */
static void window_part(tsr_dim_t n, int part, int nparts, tsr_dim_t *begin,
                        tsr_dim_t *end) {
    const tsr_dim_t q = n / nparts, r = n % nparts;
    *begin = part * q + TSR_MIN(part, r);
    *end = *begin + q + (part < r);
}

gemm_conv_window_t gemm_conv_window_fill(const gemm_conv_conf_t *cf,
                                         const void *src_g, const void *pad,
                                         tsr_dim_t sp0, tsr_dim_t len, int part,
                                         int nparts, void *buf) {
    const conv_sizes_t *sh = &cf->sh;
    const tsr_dim_t C = sh->ICg, cols = gemm_conv_window_cols(cf);
    const tsr_dim_t pitch = window_pitch(cf), shared = cols - pitch;
    const tsr_dim_t oh0 = sp0 / sh->OW, ow0 = sp0 % sh->OW;
    const tsr_dim_t rows = gemm_conv_window_rows(cf, out_rows(cf, sp0, len));
    const tsr_dim_t ih0 = oh0 * sh->KSH - sh->padT;
    /* Source columns [0, IW) land at window pixels from padL; those past
     * the window's end are read by no point. */
    const tsr_dim_t lead = TSR_MIN(sh->padL, cols);
    const tsr_dim_t body = TSR_MAX(0, TSR_MIN(sh->IW, cols - sh->padL));
    const tsr_dim_t sw = cf->src_s[CONV_W];
    uint8_t *win = buf;
    tsr_dim_t r_begin, r_end;
    window_part(rows, part, nparts, &r_begin, &r_end);
    for (tsr_dim_t r = r_begin; r < r_end; r++) {
        /* The row's first `shared` pixels are the padding the row before
         * ends with: that row writes them, row 0 its own. */
        const tsr_dim_t skip = r > 0 ? shared : 0;
        uint8_t *w = win + r * pitch * C;
        const tsr_dim_t ih = ih0 + r;
        if (ih < 0 || ih >= sh->IH) {
            fill_pad(w + skip * C, cols - skip, C, pad);
            continue;
        }
        fill_pad(w + skip * C, lead - skip, C, pad);
        const uint8_t *s = (const uint8_t *)src_g + ih * cf->src_s[CONV_H];
        if (sw == C) {
            memcpy(w + lead * C, s, (size_t)(body * C));
        } else {
            for (tsr_dim_t i = 0; i < body; i++)
                memcpy(w + (lead + i) * C, s + i * sw, (size_t)C);
        }
        fill_pad(w + (lead + body) * C, cols - lead - body, C, pad);
    }
    if (part == nparts - 1)
        memset(win + ((rows - 1) * pitch + cols) * C, 0, WINDOW_SLACK);
    const gemm_conv_window_t wnd = {win, win + ow0 * C,
                                    (out_rows(cf, sp0, len) - 1) * pitch +
                                            (sp0 + len - 1) % sh->OW - ow0 + 1,
                                    oh0, ow0};
    return wnd;
}

tsr_dim_t gemm_conv_window_point(const gemm_conv_conf_t *cf,
                                 const gemm_conv_window_t *wnd, tsr_dim_t q) {
    const tsr_dim_t pitch = window_pitch(cf);
    const tsr_dim_t pix = wnd->ow0 + q, ow = pix % pitch;
    return ow < cf->sh.OW ? (wnd->oh0 + pix / pitch) * cf->sh.OW + ow : -1;
}

void gemm_conv_window_dst_rows(const gemm_conv_conf_t *cf,
                               const gemm_conv_window_t *wnd, tsr_dim_t n,
                               tsr_dim_t g, int part, int nparts,
                               int64_t *row_off) {
    /* Walked pixel by pixel from the part's first row: a division per row
     * cost a tenth of a 3x3 layer's time. dst offsets are linear in the
     * point. */
    const tsr_dim_t pitch = window_pitch(cf), OW = cf->sh.OW;
    const int64_t base = gemm_conv_dst_offset(cf, n, g * cf->sh.OCg, 0);
    tsr_dim_t q_begin, q_end;
    window_part(wnd->rows, part, nparts, &q_begin, &q_end);
    const tsr_dim_t pix = wnd->ow0 + q_begin;
    tsr_dim_t ow = pix % pitch;
    tsr_dim_t sp = (wnd->oh0 + pix / pitch) * OW + TSR_MIN(ow, OW);
    for (tsr_dim_t q = q_begin; q < q_end; q++) {
        row_off[q] = ow < OW ? base + sp * cf->dst_sp_step : -1;
        if (ow < OW)
            sp++;
        if (++ow == pitch)
            ow = 0;
    }
}
