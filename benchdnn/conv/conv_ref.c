/* The harness' own forward convolution: naive loops over dense logical f32
 * buffers, independent of the library. Each output point is computed as
 *
 *   acc = sum over ic, kd, kh, kw of (src - src_zp) * (wei - wei_zp)
 *         (points in the padding contribute nothing, zero point or not;
 *         accumulated in double, exact for the harness' integer data)
 *   v   = oscale * (acc + bias)                        v2.x output scales
 *   v   = ((acc * src_scale) * wei_scale[oc]) + bias   v3.x scales (a
 *                                                      missing one is 1)
 *   v   = post-ops in order (ref_post_ops; sum reads dst_old)
 *   v   = v / dst_scale, then v + dst_zp
 *   dst = round (per --attr-round-mode) and saturate to the dst type
 *         (bench_round_to_dt)
 * which is the order the library's reference convolution documents
 * (lib/src/cpu/conv/ref_convolution.c). Scale and zero-point values are
 * indexed by their masks exactly as the library is given them. Work is
 * split over output rows, each computed alone, so the OpenMP split cannot
 * change the result. */
#include <stdlib.h>
#include <string.h>

#include "common/dnn_mem.h"
#include "conv/conv.h"

/* The scale and zero-point values, as the library receives them. */
typedef struct {
    conv_quant_t q;
    float *oscale, *scales[QARG_COUNT];
    int32_t *zps[QARG_COUNT];
} ref_quant_t;

static void quant_fini(ref_quant_t *rq) {
    free(rq->oscale);
    for (int i = 0; i < QARG_COUNT; i++) {
        free(rq->scales[i]);
        free(rq->zps[i]);
    }
}

static float *scale_values(const conv_q_entry_t *e, const bench_scale_t *s) {
    float *v = malloc(sizeof(float) * (size_t)e->count);
    for (int64_t i = 0; v && i < e->count; i++)
        v[i] = e->set ? attr_scale_value(s, i) : 1.f;
    return v;
}

static int32_t *zp_values(const conv_q_entry_t *e, const bench_zp_t *z) {
    int32_t *v = malloc(sizeof(int32_t) * (size_t)e->count);
    for (int64_t i = 0; v && i < e->count; i++)
        v[i] = e->set ? attr_zp_value(z, i) : 0;
    return v;
}

static int quant_init(const conv_prb_t *p, ref_quant_t *rq) {
    const bench_attr_t *a = &p->attr;
    char reason[128];
    if (conv_quant_init(p, &rq->q, reason, sizeof(reason)) != 0)
        return -1;
    rq->oscale = scale_values(&rq->q.oscale, &a->oscale);
    int ok = rq->oscale != NULL;
    for (int i = 0; i < QARG_COUNT; i++) {
        rq->scales[i] = scale_values(&rq->q.scales[i], &a->scales[i]);
        rq->zps[i] = zp_values(&rq->q.zero_points[i], &a->zero_points[i]);
        ok = ok && rq->scales[i] && rq->zps[i];
    }
    return ok ? 0 : -1;
}

/* Value index for a data tensor point (mb, channel) under `mask`, which
 * the reference limits to the minibatch and channel dims. */
static int64_t data_q_index(const conv_q_entry_t *e, int64_t mb,
                            int64_t channels, int64_t c) {
    const int64_t dims[2] = {0, channels}, pos[2] = {mb, c};
    return attr_mask_index(e->mask, 2, dims, pos);
}

/* Value index for output channel oc of the weights: (g, oc in group) with
 * groups, oc alone without. */
static int64_t wei_q_index(const conv_desc_t *d, const conv_q_entry_t *e,
                           int64_t oc) {
    const int64_t ocg = d->oc / d->g;
    if (!d->has_groups)
        return attr_mask_index(e->mask, 1, &d->oc, &oc);
    const int64_t dims[2] = {d->g, ocg}, pos[2] = {oc / ocg, oc % ocg};
    return attr_mask_index(e->mask, 2, dims, pos);
}

/* Indexes j in [lo, hi), within [0, n), for which start + j*step lies in
 * [0, in): kernel positions for an output point, or output points for a
 * kernel position. */
static void index_range(int64_t start, int64_t step, int64_t in, int64_t n,
                        int64_t *lo, int64_t *hi) {
    const int64_t first = start >= 0 ? 0 : (-start + step - 1) / step;
    const int64_t end = in - start <= 0 ? 0 : (in - start + step - 1) / step;
    *lo = first < n ? first : n;
    *hi = end < n ? end : n;
    if (*hi < *lo)
        *hi = *lo;
}

/* acc[ow] of one output row (mb, oc, od, oh), zero points subtracted. The
 * width loop is innermost so it runs over contiguous (or strided) input;
 * zero weights add nothing and are skipped. */
static void accumulate_row(const conv_prb_t *p, const ref_quant_t *rq,
                           const float *src, const float *wei, int64_t mb,
                           int64_t oc, int64_t od, int64_t oh, double *acc) {
    const conv_desc_t *d = &p->desc;
    const int64_t icg = d->ic / d->g, ocg = d->oc / d->g;
    const int64_t g = oc / ocg;
    const int64_t ID = d->in[CONV_D], IH = d->in[CONV_H], IW = d->in[CONV_W];
    const int64_t KD = d->ker[CONV_D], KH = d->ker[CONV_H], KW = d->ker[CONV_W];
    const int64_t OW = d->out[CONV_W], SW = d->str[CONV_W];
    const int64_t DD = d->dil[CONV_D] + 1, DH = d->dil[CONV_H] + 1,
                  DW = d->dil[CONV_W] + 1;
    const int64_t id0 = od * d->str[CONV_D] - d->pad[CONV_D];
    const int64_t ih0 = oh * d->str[CONV_H] - d->pad[CONV_H];
    int64_t kd_lo, kd_hi, kh_lo, kh_hi;
    index_range(id0, DD, ID, KD, &kd_lo, &kd_hi);
    index_range(ih0, DH, IH, KH, &kh_lo, &kh_hi);
    const conv_q_entry_t *src_zp = &rq->q.zero_points[QARG_SRC];
    const double zp_wei =
            rq->zps[QARG_WEI][wei_q_index(d, &rq->q.zero_points[QARG_WEI], oc)];
    for (int64_t ow = 0; ow < OW; ow++)
        acc[ow] = 0;
    for (int64_t c = 0; c < icg; c++) {
        const int64_t ic = g * icg + c;
        const double zp_src =
                rq->zps[QARG_SRC][data_q_index(src_zp, mb, d->ic, ic)];
        const float *s_c = src + (mb * d->ic + ic) * ID * IH * IW;
        const float *w_c = wei + (oc * icg + c) * KD * KH * KW;
        for (int64_t kd = kd_lo; kd < kd_hi; kd++) {
            for (int64_t kh = kh_lo; kh < kh_hi; kh++) {
                const float *s_row =
                        s_c + ((id0 + kd * DD) * IH + ih0 + kh * DH) * IW;
                for (int64_t kw = 0; kw < KW; kw++) {
                    const double w =
                            (double)w_c[(kd * KH + kh) * KW + kw] - zp_wei;
                    if (w == 0)
                        continue;
                    /* iw = ow * SW + iw0 for the outputs this tap reaches. */
                    const int64_t iw0 = kw * DW - d->pad[CONV_W];
                    int64_t ow_lo, ow_hi;
                    index_range(iw0, SW, IW, OW, &ow_lo, &ow_hi);
                    for (int64_t ow = ow_lo; ow < ow_hi; ow++)
                        acc[ow] += ((double)s_row[ow * SW + iw0] - zp_src) * w;
                }
            }
        }
    }
}

/* Everything after the accumulation, for output point n = (mb, oc, o). */
static float finish_point(const conv_prb_t *p, const ref_quant_t *rq,
                          const conv_ref_args_t *args, float acc, int64_t mb,
                          int64_t oc, const int64_t *o, int64_t n) {
    const conv_desc_t *d = &p->desc;
    const bench_attr_t *a = &p->attr;
    const conv_quant_t *q = &rq->q;
    const float b = args->bia ? args->bia[oc] : 0.f;
    float v;
    if (q->oscale.set) {
        v = rq->oscale[data_q_index(&q->oscale, mb, d->oc, oc)] * (acc + b);
    } else {
        v = acc;
        if (q->scales[QARG_SRC].set)
            v = v * rq->scales[QARG_SRC][0];
        if (q->scales[QARG_WEI].set)
            v = v *
                rq->scales[QARG_WEI][wei_q_index(d, &q->scales[QARG_WEI], oc)];
        v = v + b;
    }
    if (a->n_post_ops > 0) {
        int64_t dst_dims[TSR_MAX_NDIMS];
        const int ndims = conv_dst_dims(p, dst_dims);
        const int first = CONV_NSPATIAL - (ndims - 2);
        int64_t pos[TSR_MAX_NDIMS] = {mb, oc};
        for (int i = first; i < CONV_NSPATIAL; i++)
            pos[2 + i - first] = o[i];
        const float old = args->dst_old ? args->dst_old[n] : 0.f;
        v = ref_post_ops(a, v, old, ndims, dst_dims, pos, args->bin_src1, 0);
    }
    if (q->scales[QARG_DST].set)
        v = v / rq->scales[QARG_DST]
                          [data_q_index(&q->scales[QARG_DST], mb, d->oc, oc)];
    if (q->zero_points[QARG_DST].set)
        v = v + (float)rq->zps[QARG_DST][data_q_index(&q->zero_points[QARG_DST],
                                                      mb, d->oc, oc)];
    return bench_round_to_dt(p->cfg.dst, v, a->round_mode);
}

void conv_ref_fwd(const conv_prb_t *p, const conv_ref_args_t *args) {
    const conv_desc_t *d = &p->desc;
    ref_quant_t rq;
    memset(&rq, 0, sizeof(rq));
    if (quant_init(p, &rq) != 0) {
        /* The driver checks the masks and the memory first; should this
         * still fail, dst keeps values that cannot match. */
        quant_fini(&rq);
        return;
    }
    const int64_t OD = d->out[CONV_D], OH = d->out[CONV_H], OW = d->out[CONV_W];
    const int64_t rows = d->mb * d->oc * OD * OH;
    /* Tiny problems run faster on one thread than through a team. */
    const int parallel =
            (double)rows * (double)OW * (double)conv_reduction_len(p) >
            (double)(1 << 15);

#pragma omp parallel if (parallel)
    {
        double *acc = malloc(sizeof(double) * (size_t)OW);
#pragma omp for schedule(static)
        for (int64_t row = 0; row < rows; row++) {
            const int64_t mb = row / (d->oc * OD * OH);
            const int64_t oc = row / (OD * OH) % d->oc;
            const int64_t od = row / OH % OD, oh = row % OH;
            if (!acc)
                continue; /* dst keeps values that cannot match */
            accumulate_row(p, &rq, args->src, args->wei, mb, oc, od, oh, acc);
            for (int64_t ow = 0; ow < OW; ow++) {
                const int64_t o[CONV_NSPATIAL] = {od, oh, ow};
                const int64_t n = row * OW + ow;
                args->dst[n] = finish_point(p, &rq, args, (float)acc[ow], mb,
                                            oc, o, n);
            }
        }
        free(acc);
    }
    quant_fini(&rq);
}
