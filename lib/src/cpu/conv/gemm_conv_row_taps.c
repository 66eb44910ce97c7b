/* Kernel rows as the GEMM's taps, for f32 layers with few input channels
 * (first layers, e.g. IC = 3, up to GoogLeNet's 5x5 layers of 48): the KW
 * pixels a point reads in one kernel row are KW * IC consecutive floats of a
 * channels-last row, so one tap per row gives the kernel KW * IC steps per tap
 * instead of IC. The rows an item reads are first copied, zero-padded left and
 * right, into a window, so every such run lies in memory (padding included,
 * which a few channels make cheap to copy and to compute). */
#include <string.h>

#include "common/utils.h"
#include "cpu/conv/gemm_conv_f32.h"
#include "cpu/gemm/gemm_taps.h"

/* Few channels: up to here a kernel tap alone is too short a run (GoogLeNet
 * 5x5 layers of 16 to 32 channels, nhwc mb1, 2 threads: 5-20% faster by
 * kernel rows; 64 and more alike either way). */
#define ROW_TAPS_MAX_IC 48

int gemm_conv_row_taps_ok(const gemm_conv_conf_t *cf) {
    const conv_sizes_t *sh = &cf->sh;
    return !cf->direct && cf->kic && cf->src_cl && cf->dst_cl &&
           cf->wei_panels && !cf->batch_rows && sh->G == 1 &&
           sh->ICg <= ROW_TAPS_MAX_IC && cf->src_s[CONV_W] == sh->ICg &&
           sh->KW > 1 && cf->DW == 1 && sh->KD == 1 && sh->ID == 1 &&
           sh->OD == 1 && sh->KH <= TSR_GEMM_MAX_TAPS &&
           gemm_conv_window_fits(cf, gemm_conv_chunk_out_rows(cf, cf->chunk_sp),
                                 sizeof(float));
}

size_t gemm_conv_row_window_floats(const gemm_conv_conf_t *cf,
                                   tsr_dim_t chunk_sp) {
    return (size_t)(gemm_conv_window_rows(
                            cf, gemm_conv_chunk_out_rows(cf, chunk_sp)) *
                    gemm_conv_window_cols(cf) * cf->sh.ICg);
}

void gemm_conv_row_window(const gemm_conv_conf_t *cf, const float *src,
                          tsr_dim_t n, tsr_dim_t sp0, tsr_dim_t len, float *win,
                          gemm_conv_row_taps_t *rt) {
    const conv_sizes_t *sh = &cf->sh;
    const tsr_dim_t C = sh->ICg, cols = gemm_conv_window_cols(cf);
    const tsr_dim_t oh0 = sp0 / sh->OW, oh1 = (sp0 + len - 1) / sh->OW;
    const tsr_dim_t ih0 = oh0 * sh->KSH - sh->padT;
    const tsr_dim_t rows = gemm_conv_window_rows(cf, oh1 - oh0 + 1);
    /* Source columns [0, IW) land at window columns from padL; those
     * past the window's end are read by no point. */
    const tsr_dim_t lead = TSR_MIN(sh->padL, cols);
    const tsr_dim_t body = TSR_MAX(0, TSR_MIN(sh->IW, cols - sh->padL));
    const float *img = src + cf->src_off0 + n * cf->src_s[CONV_N];
    for (tsr_dim_t r = 0; r < rows; r++) {
        float *w = win + r * cols * C;
        const tsr_dim_t ih = ih0 + r;
        if (ih < 0 || ih >= sh->IH) {
            memset(w, 0, sizeof(float) * (size_t)(cols * C));
            continue;
        }
        memset(w, 0, sizeof(float) * (size_t)(lead * C));
        memcpy(w + lead * C, img + ih * cf->src_s[CONV_H],
               sizeof(float) * (size_t)(body * C));
        memset(w + (lead + body) * C, 0,
               sizeof(float) * (size_t)((cols - lead - body) * C));
    }
    rt->cf = cf;
    rt->win = win;
    rt->ih0 = ih0;
    rt->sp0 = sp0;
}

int64_t gemm_conv_row_tap_rows(const void *ctx, int64_t m0, int64_t m, int mr,
                               int32_t *taps, const void **rows) {
    enum { MAX_MR = 16 }; /* the mr of every kernel with taps */
    const gemm_conv_row_taps_t *rt = ctx;
    const gemm_conv_conf_t *cf = rt->cf;
    const conv_sizes_t *sh = &cf->sh;
    const tsr_dim_t row_floats = gemm_conv_window_cols(cf) * sh->ICg;
    /* Each point's first window row (relative to the window's) and its
     * first pixel's offset. */
    tsr_dim_t r0[MAX_MR];
    const float *at[MAX_MR];
    gemm_conv_point_t p = gemm_conv_point_of(cf, rt->sp0 + m0);
    for (int64_t i = 0; i < m; i++) {
        if (i > 0)
            gemm_conv_next_point(cf, &p);
        r0[i] = p.oh * sh->KSH - sh->padT - rt->ih0;
        at[i] = rt->win + r0[i] * row_floats + p.ow * sh->KSW * sh->ICg;
    }
    int64_t listed = 0;
    for (tsr_dim_t kh = 0; kh < sh->KH; kh++) {
        /* A tap whose rows all lie in the top or bottom padding adds
         * nothing: left out. */
        int any = 0;
        for (int64_t i = 0; i < m && !any; i++) {
            const tsr_dim_t ih = rt->ih0 + r0[i] + kh * cf->DH;
            any = ih >= 0 && ih < sh->IH;
        }
        if (!any)
            continue;
        /* Separate loops: the pointer stores vectorize. */
        const tsr_dim_t off = kh * cf->DH * row_floats;
        const void **row = rows + listed * mr;
        for (int64_t i = 0; i < m; i++)
            row[i] = at[i] + off;
        for (int64_t i = m; i < mr; i++)
            row[i] = at[0] + off;
        taps[listed++] = (int32_t)kh;
    }
    return listed;
}
