/* AVX2/FMA tiles of "direct:f32" for first layers: one chunk of 1..4
 * input channels (contract in direct_conv_f32.h). With so few channels the
 * general tile spends more instructions on its channel loop than on FMAs;
 * here the channel count is a compile-time constant, so one kernel tap
 * (kw) is a straight run of ic x (ur broadcasts + nv weight loads + ur x nv
 * FMAs) whose addresses are fixed offsets from one source pointer per
 * channel and one weights pointer per vector, and the next tap only moves
 * those pointers. Tiles of few accumulators (border pixels, w tails) keep
 * two sets, for even and odd taps, so the FMA latency is hidden; the sets
 * are added at the end of the tile, an order fixed by the tile shape. */
#include "cpu/conv/direct_conv_f32_avx2.h"

#define ALWAYS_INLINE DIRECT_ALWAYS_INLINE

/* acc[p][v] += src[p, i] * wei[i, v] for the ic channels of one tap:
 * pixel p of channel i at sc[i] + po[p], vector v of channel i at wp[v] +
 * i * DIRECT_VLEN. */
ALWAYS_INLINE void tap_fma(__m256 acc[DIRECT_MAX_UR][DIRECT_MAX_NV],
                           const float *const *sc, const tsr_dim_t *po,
                           const float *const *wp, const int ur, const int nv,
                           const int ic) {
#pragma GCC unroll 4
    for (int i = 0; i < ic; i++) {
        const float *px[DIRECT_MAX_UR], *wv[DIRECT_MAX_NV];
#pragma GCC unroll 8
        for (int p = 0; p < ur; p++)
            px[p] = sc[i] + po[p];
#pragma GCC unroll 4
        for (int v = 0; v < nv; v++)
            wv[v] = wp[v] + i * DIRECT_VLEN;
        direct_fma_step_avx2(acc, px, wv, ur, nv);
    }
}

/* Moves the tap pointers one tap along w. */
ALWAYS_INLINE void tap_step(const float **sc, const float **wp, tsr_dim_t ds,
                            tsr_dim_t dw, const int nv, const int ic) {
#pragma GCC unroll 4
    for (int i = 0; i < ic; i++)
        sc[i] += ds;
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++)
        wp[v] += dw;
}

ALWAYS_INLINE void first_tile(const direct_conv_conf_t *cf,
                              const direct_tile_t *t, const int ur,
                              const int nv, const int ic) {
    const int two_sets = ur * nv < DIRECT_MIN_ACC;
    const tsr_dim_t src_kw = cf->src_kw, wei_kw = cf->wei_kw;
    tsr_dim_t po[DIRECT_MAX_UR];
#pragma GCC unroll 8
    for (int p = 0; p < ur; p++)
        po[p] = p * cf->src_pix;
    for (tsr_dim_t tt = 0; tt < t->ntiles; tt++) {
        const float *src = t->src + t->src_chunk[0] + tt * ur * cf->src_pix;
        const float *wei = t->wei + t->wei_chunk[0];
        float *accp = t->acc + tt * ur * t->acc_pix;
        __m256 acc[DIRECT_MAX_UR][DIRECT_MAX_NV],
                acc2[DIRECT_MAX_UR][DIRECT_MAX_NV];
        direct_acc_load_avx2(acc, t, accp, ur, nv);
#pragma GCC unroll 8
        for (int p = 0; p < ur; p++) {
#pragma GCC unroll 4
            for (int v = 0; v < nv; v++)
                acc2[p][v] = _mm256_setzero_ps();
        }
        for (tsr_dim_t kd = 0; kd < t->kd_n; kd++)
            for (tsr_dim_t kh = 0; kh < t->kh_n; kh++) {
                /* Pointers of the row's first tap, per channel and per
                 * vector: the taps' addresses are fixed offsets of them. */
                const float *sc[DIRECT_FIRST_MAX_IC], *wp[DIRECT_MAX_NV];
#pragma GCC unroll 4
                for (int i = 0; i < ic; i++)
                    sc[i] = src + kd * cf->src_kd + kh * cf->src_kh +
                            i * cf->src_ic;
#pragma GCC unroll 4
                for (int v = 0; v < nv; v++)
                    wp[v] = wei + kd * cf->wei_kd + kh * cf->wei_kh +
                            t->wei_vec[v];
                tsr_dim_t kw = t->kw_n;
                if (two_sets) {
                    for (; kw >= 2; kw -= 2) {
                        tap_fma(acc, sc, po, wp, ur, nv, ic);
                        tap_step(sc, wp, src_kw, wei_kw, nv, ic);
                        tap_fma(acc2, sc, po, wp, ur, nv, ic);
                        tap_step(sc, wp, src_kw, wei_kw, nv, ic);
                    }
                }
                for (; kw > 0; kw--) {
                    tap_fma(acc, sc, po, wp, ur, nv, ic);
                    tap_step(sc, wp, src_kw, wei_kw, nv, ic);
                }
            }
        if (two_sets) {
#pragma GCC unroll 8
            for (int p = 0; p < ur; p++) {
#pragma GCC unroll 4
                for (int v = 0; v < nv; v++)
                    acc[p][v] = _mm256_add_ps(acc[p][v], acc2[p][v]);
            }
        }
        direct_acc_store_avx2(acc, t, accp, ur, nv);
    }
}

#define FIRST_BODY(IC)                                                         \
    ALWAYS_INLINE void first_body_ic##IC(const direct_conv_conf_t *cf,         \
                                         const direct_tile_t *t, const int ur, \
                                         const int nv) {                       \
        first_tile(cf, t, ur, nv, IC);                                         \
    }                                                                          \
    static void first_tile_ic##IC(const direct_conv_conf_t *cf,                \
                                  const direct_tile_t *t, int ur, int nv) {    \
        DIRECT_TILE_DISPATCH(first_body_ic##IC, ur, nv)                        \
    }
FIRST_BODY(1)
FIRST_BODY(2)
FIRST_BODY(3)
FIRST_BODY(4)

void direct_conv_first_tile_avx2(const direct_conv_conf_t *cf,
                                 const direct_tile_t *t, int ur, int nv) {
    switch (t->last_ic) {
    case 1:
        first_tile_ic1(cf, t, ur, nv);
        return;
    case 2:
        first_tile_ic2(cf, t, ur, nv);
        return;
    case 3:
        first_tile_ic3(cf, t, ur, nv);
        return;
    case 4:
        first_tile_ic4(cf, t, ur, nv);
        return;
    default:
        return;
    }
}
