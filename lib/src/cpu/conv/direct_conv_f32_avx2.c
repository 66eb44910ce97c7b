/* AVX2/FMA tiles of "direct:f32" (contract in direct_conv_f32.h). Each
 * tile shape is its own specialized body: ur x nv accumulators stay in
 * ymm registers for the whole reduction. Per input channel, when there are
 * no more pixels than vectors the ur broadcasts are kept in registers and
 * each weights vector is loaded once; otherwise the nv weights vectors are
 * kept and each broadcast is used once. Either way a step loads ur + nv
 * values for ur * nv FMAs and needs at most 16 registers. The loops over
 * pixels and vectors are unrolled before scalar replacement so the
 * accumulator array never touches memory. */
#include "cpu/conv/direct_conv_f32_avx2.h"

#define ALWAYS_INLINE DIRECT_ALWAYS_INLINE

/* acc[p][v] += src[p, ic] * wei[ic, v] for one input channel: pixel p's
 * value at sp[p] + so, vector v's weights at wp[v] + wo. */
ALWAYS_INLINE void fma_step(__m256 acc[DIRECT_MAX_UR][DIRECT_MAX_NV],
                            const float *const *sp, tsr_dim_t so,
                            const float *const *wp, tsr_dim_t wo, const int ur,
                            const int nv) {
    const float *px[DIRECT_MAX_UR], *wv[DIRECT_MAX_NV];
#pragma GCC unroll 8
    for (int p = 0; p < ur; p++)
        px[p] = sp[p] + so;
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++)
        wv[v] = wp[v] + wo;
    direct_fma_step_avx2(acc, px, wv, ur, nv);
}

/* src_ic and wei_ic are compile-time constants in the common blocked case
 * (nChw8c source, OIhw8i8o weights), so every address of the unrolled
 * channel loop is a displacement from a few base registers. */
ALWAYS_INLINE void tile_loop(const direct_conv_conf_t *cf,
                             const direct_tile_t *t, const int ur, const int nv,
                             const tsr_dim_t src_ic, const tsr_dim_t wei_ic) {
    __m256 acc[DIRECT_MAX_UR][DIRECT_MAX_NV];
    tsr_dim_t pix[DIRECT_MAX_UR], wv[DIRECT_MAX_NV];
#pragma GCC unroll 8
    for (int p = 0; p < ur; p++)
        pix[p] = p * cf->src_pix;
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++)
        wv[v] = t->wei_vec[v];
    for (tsr_dim_t tt = 0; tt < t->ntiles; tt++) {
        const float *src = t->src + tt * ur * cf->src_pix;
        float *accp = t->acc + tt * ur * t->acc_pix;
        direct_acc_load_avx2(acc, t, accp, ur, nv);
        for (tsr_dim_t k = 0; k < t->nchunks; k++) {
            const int icn = k == t->nchunks - 1 ? t->last_ic : DIRECT_VLEN;
            const float *sc = src + t->src_chunk[k];
            const float *wc = t->wei + t->wei_chunk[k];
            for (tsr_dim_t kd = 0; kd < t->kd_n; kd++)
                for (tsr_dim_t kh = 0; kh < t->kh_n; kh++) {
                    const float *s = sc + kd * cf->src_kd + kh * cf->src_kh;
                    const float *w = wc + kd * cf->wei_kd + kh * cf->wei_kh;
                    for (tsr_dim_t kw = 0; kw < t->kw_n; kw++) {
                        /* One base pointer per pixel and per vector: the
                         * channel offsets below are displacements. */
                        const float *sp[DIRECT_MAX_UR], *wp[DIRECT_MAX_NV];
#pragma GCC unroll 8
                        for (int p = 0; p < ur; p++)
                            sp[p] = s + pix[p];
#pragma GCC unroll 4
                        for (int v = 0; v < nv; v++)
                            wp[v] = w + wv[v];
                        if (icn == DIRECT_VLEN) {
#pragma GCC unroll 8
                            for (int i = 0; i < DIRECT_VLEN; i++)
                                fma_step(acc, sp, i * src_ic, wp, i * wei_ic,
                                         ur, nv);
                        } else {
                            for (int i = 0; i < icn; i++)
                                fma_step(acc, sp, i * src_ic, wp, i * wei_ic,
                                         ur, nv);
                        }
                        s += cf->src_kw;
                        w += cf->wei_kw;
                    }
                }
        }
        direct_acc_store_avx2(acc, t, accp, ur, nv);
    }
}

ALWAYS_INLINE void tile_body(const direct_conv_conf_t *cf,
                             const direct_tile_t *t, const int ur,
                             const int nv) {
    if (cf->src_ic == 1 && cf->wei_ic == DIRECT_VLEN)
        tile_loop(cf, t, ur, nv, 1, DIRECT_VLEN);
    else
        tile_loop(cf, t, ur, nv, cf->src_ic, cf->wei_ic);
}

void direct_conv_tile_avx2(const direct_conv_conf_t *cf, const direct_tile_t *t,
                           int ur, int nv) {
    DIRECT_TILE_DISPATCH(tile_body, ur, nv)
}
