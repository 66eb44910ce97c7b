/* The harness' own "dst = src x weights": naive loops over dense logical
 * f32 buffers, independent of the library. Each dst point is
 *
 *   acc = sum over k of (src - src_zp) * (wei - wei_zp)   (in double, exact
 *         for the harness' integer data; batch dims of size 1 broadcast)
 *   v   = oscale * (acc + bias)                        v2.x output scales
 *   v   = ((acc * src_scale) * wei_scale) + bias       v3.x scales
 *   v   = post-ops in order (ref_post_ops), / dst_scale, + dst_zp
 *   dst = rounded and saturated to the dst type (bench_round_to_dt)
 *
 * the order the library's references document. */
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/dnn_mem.h"
#include "matmul/mm_task.h"

int mm_task_q_mask(const mm_task_t *t, bench_policy_t policy, int qarg) {
    int ndims;
    mm_task_arg(t, qarg, &ndims, NULL);
    return attr_policy_mask(policy, (bench_qarg_t)qarg, ndims, t->wei_oc_mask,
                            !t->is_ip);
}

static void unravel(int64_t i, int ndims, const int64_t *dims, int64_t *pos) {
    for (int d = ndims - 1; d >= 0; d--) {
        pos[d] = i % dims[d];
        i /= dims[d];
    }
}

/* A copy of src or weights with its zero points subtracted. */
static double *shifted_copy(const mm_task_t *t, int qarg, const float *data) {
    int ndims;
    const int64_t *dims = mm_task_arg(t, qarg, &ndims, NULL);
    /* The driver checked the sizes and the memory. */
    const int64_t n = bench_prod_i64_sat(dims, ndims);
    double *out = malloc(bench_bytes_sat(n, sizeof(double)));
    if (!out)
        return NULL;
    const bench_zp_t *zp = &t->attr->zero_points[qarg];
    const int mask = zp->set ? mm_task_q_mask(t, zp->policy, qarg) : 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t pos[MM_MAX_NDIMS];
        unravel(i, ndims, dims, pos);
        out[i] = data[i];
        if (zp->set)
            out[i] -=
                    attr_zp_value(zp, attr_mask_index(mask, ndims, dims, pos));
    }
    return out;
}

/* Scale or zero-point value of argument `qarg` at its point `pos`. */
static float scale_at(const mm_task_t *t, int qarg, const int64_t *pos) {
    int ndims;
    const int64_t *dims = mm_task_arg(t, qarg, &ndims, NULL);
    const bench_scale_t *s = &t->attr->scales[qarg];
    return attr_scale_value(s,
                            attr_mask_index(mm_task_q_mask(t, s->policy, qarg),
                                            ndims, dims, pos));
}

/* Element offsets of the first src and weights elements of dst point
 * `pos`, and the weights step along k. */
static void operand_bases(const mm_task_t *t, const int64_t *pos,
                          int64_t *s_base, int64_t *w_base, int64_t *w_kstep,
                          int64_t *wpos) {
    const int nd = t->dst_ndims;
    if (t->is_ip) {
        *s_base = pos[0] * t->K;
        *w_base = pos[1] * t->K;
        *w_kstep = 1;
        memset(wpos, 0, sizeof(int64_t) * MM_MAX_NDIMS);
        wpos[0] = pos[1];
        return;
    }
    int64_t s = 0, w = 0;
    for (int d = 0; d < nd - 2; d++) {
        const int64_t si = t->src_dims[d] == 1 ? 0 : pos[d];
        const int64_t wi = t->wei_dims[d] == 1 ? 0 : pos[d];
        s = s * t->src_dims[d] + si;
        w = w * t->wei_dims[d] + wi;
        wpos[d] = wi;
    }
    wpos[nd - 2] = 0;
    wpos[nd - 1] = pos[nd - 1];
    *s_base = (s * t->M + pos[nd - 2]) * t->K;
    *w_base = w * t->K * t->N + pos[nd - 1];
    *w_kstep = t->N;
}

static float finish_point(const mm_task_t *t, const mm_ref_args_t *args,
                          double acc, const int64_t *pos, const int64_t *wpos,
                          int64_t i) {
    const bench_attr_t *a = t->attr;
    const int nd = t->dst_ndims;
    float b = 0.f;
    if (args->bia) {
        int64_t bidx = 0;
        for (int d = 0; d < nd; d++)
            bidx = bidx * t->bia_dims[d] + (t->bia_dims[d] == 1 ? 0 : pos[d]);
        b = args->bia[bidx];
    }
    float v;
    if (a->oscale.set) {
        const int mask = attr_policy_mask(a->oscale.policy, QARG_DST, nd,
                                          t->wei_oc_mask, !t->is_ip);
        v = attr_scale_value(&a->oscale,
                             attr_mask_index(mask, nd, t->dst_dims, pos)) *
            ((float)acc + b);
    } else {
        v = (float)acc;
        if (a->scales[QARG_SRC].set)
            v = v * attr_scale_value(&a->scales[QARG_SRC], 0);
        if (a->scales[QARG_WEI].set)
            v = v * scale_at(t, QARG_WEI, wpos);
        v = v + b;
    }
    if (a->n_post_ops > 0)
        v = ref_post_ops(a, v, args->dst_old ? args->dst_old[i] : 0.f, nd,
                         t->dst_dims, pos, args->bin_src1, !t->is_ip);
    if (a->scales[QARG_DST].set)
        v = v / scale_at(t, QARG_DST, pos);
    const bench_zp_t *dzp = &a->zero_points[QARG_DST];
    if (dzp->set)
        v = v + (float)attr_zp_value(
                        dzp, attr_mask_index(
                                     mm_task_q_mask(t, dzp->policy, QARG_DST),
                                     nd, t->dst_dims, pos));
    return bench_round_to_dt(t->cfg.dst, v, a->round_mode);
}

int mm_ref(const mm_task_t *t, const mm_ref_args_t *args) {
    double *src = shifted_copy(t, QARG_SRC, args->src);
    double *wei = shifted_copy(t, QARG_WEI, args->wei);
    if (!src || !wei) {
        free(src);
        free(wei);
        return -1;
    }
    const int64_t n = bench_prod_i64_sat(t->dst_dims, t->dst_ndims);
    const int parallel = (double)n * (double)t->K > (double)(1 << 15);
    /* Each point is computed alone: the split cannot change results. */
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t i = 0; i < n; i++) {
        int64_t pos[MM_MAX_NDIMS], wpos[MM_MAX_NDIMS];
        unravel(i, t->dst_ndims, t->dst_dims, pos);
        int64_t s_base, w_base, w_kstep;
        operand_bases(t, pos, &s_base, &w_base, &w_kstep, wpos);
        double acc = 0;
        for (int64_t k = 0; k < t->K; k++)
            acc += src[s_base + k] * wei[w_base + k * w_kstep];
        args->dst[i] = finish_point(t, args, acc, pos, wpos, i);
    }
    free(src);
    free(wei);
    return 0;
}
