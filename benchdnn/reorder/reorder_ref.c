/* The reorder driver's own math: scale vectors, fills, the reference
 * formula and the compensation sums (DRIVERS.md §17), written apart from
 * the library's reorder. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/dnn_mem.h"
#include "reorder/reorder.h"

int reorder_scale_mask(const reorder_prb_t *p, bench_qarg_t q) {
    const bench_scale_t *s = q == QARG_SRC && p->attr.oscale.set
                                     ? &p->attr.oscale
                                     : &p->attr.scales[q];
    if (!s->set)
        return 0;
    const int ndims = p->desc.ndims;
    const int mask = attr_policy_mask(s->policy, q, ndims, 0, 0);
    return mask >> ndims ? -1 : mask;
}

float reorder_oscale_value(const reorder_prb_t *p, int64_t i, int64_t count) {
    const float scale = p->attr.oscale.scale;
    return count > 1 && i == count - 1 ? scale / 2 : scale;
}

/* The value of the v3 scale of `q` at point `pos` (1 without one). */
static float arg_scale(const reorder_prb_t *p, bench_qarg_t q,
                       const int64_t *pos) {
    const bench_scale_t *s = &p->attr.scales[q];
    if (!s->set)
        return 1.f;
    const int mask = reorder_scale_mask(p, q);
    return attr_scale_value(
            s, attr_mask_index(mask, p->desc.ndims, p->desc.dims, pos));
}

static float zero_point(const reorder_prb_t *p, bench_qarg_t q,
                        const int64_t *pos) {
    const bench_zp_t *z = &p->attr.zero_points[q];
    if (!z->set)
        return 0.f;
    const int mask = attr_policy_mask(z->policy, q, p->desc.ndims, 0, 0);
    return (float)attr_zp_value(
            z, attr_mask_index(mask, p->desc.ndims, p->desc.dims, pos));
}

float reorder_alpha(const reorder_prb_t *p, const int64_t *pos) {
    const int ndims = p->desc.ndims;
    if (p->attr.oscale.set) {
        const int mask = reorder_scale_mask(p, QARG_SRC);
        return reorder_oscale_value(
                p, attr_mask_index(mask, ndims, p->desc.dims, pos),
                attr_mask_count(mask, ndims, p->desc.dims));
    }
    return arg_scale(p, QARG_SRC, pos) / arg_scale(p, QARG_DST, pos);
}

static void pos_of(const dims_desc_t *d, int64_t i, int64_t *pos) {
    for (int k = d->ndims - 1; k >= 0; k--) {
        pos[k] = i % d->dims[k];
        i /= d->dims[k];
    }
}

static int is_int(tsr_data_type_t dt) {
    return dt == tsr_s32 || dt == tsr_s8 || dt == tsr_u8;
}

/* The range the fills cycle over. */
static void fill_range(tsr_data_type_t dt, float *lo, float *hi) {
    switch (dt) {
    case tsr_s8:
        *lo = -128.f, *hi = 127.f;
        break;
    case tsr_u8:
        *lo = 0.f, *hi = 255.f;
        break;
    case tsr_s32:
        *lo = -2147483648.f, *hi = 2147483520.f;
        break;
    case tsr_f16:
        *lo = -16384.f, *hi = 16384.f;
        break;
    default:
        *lo = -16777216.f, *hi = 16777216.f;
        break;
    }
}

/* Integer types cycle over the ends of their range, 0 and 16; floating
 * types over the ends, values that round or vanish after scaling by
 * alpha (1.6 / alpha, 0.2 / alpha), 1 / alpha, 2 and alpha. */
static float fill_value(tsr_data_type_t dt, int64_t k, float alpha) {
    float lo, hi;
    fill_range(dt, &lo, &hi);
    if (is_int(dt)) {
        const float values[] = {hi, lo, 0.f, 16.f};
        return values[k % 4];
    }
    const float values[] = {hi,          lo,  1.6f / alpha, 0.2f / alpha,
                            1.f / alpha, 2.f, alpha};
    const float v = values[k % 7];
    return v < lo ? lo : v > hi ? hi : v;
}

void reorder_fill(const void *prb, int arg, float *buf, int64_t n) {
    const reorder_prb_t *p = prb;
    const int is_dst = arg == TSR_ARG_DST;
    const tsr_data_type_t dt = is_dst ? p->ddt : p->sdt;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        int64_t pos[TSR_MAX_NDIMS];
        pos_of(&p->desc, i, pos);
        /* The previous dst runs three steps ahead of src, so that a sum
         * meets other values than the point's own. */
        buf[i] = fill_value(dt, is_dst ? i + 3 : i, reorder_alpha(p, pos));
    }
}

static int sum_index(const bench_attr_t *a) {
    for (int i = 0; i < a->n_post_ops; i++)
        if (a->post_ops[i].kind == tsr_post_op_sum)
            return i;
    return -1;
}

/* v2.x (oscale alpha):
 *   dst = alpha * (src - zp_src) + beta * (dst_old - zp_sum) + zp_dst
 * v3.x (per-argument scales):
 *   dst = (s_src * (src - zp_src) + beta * (dst_old - zp_sum)) / s_dst
 *         + zp_dst
 * oneDNN subtracts zp_dst from dst_old; a dst zero point with a sum is
 * skipped (DRIVERS.md §17), so the sum's own zero point (0 unless given)
 * takes its place. Rounding, saturation and the s32 limit come after,
 * when the pipeline rounds to the dst type. */
float reorder_ref_value(const reorder_prb_t *p, const int64_t *pos, float src,
                        float dst_old) {
    const int sum = sum_index(&p->attr);
    float acc_sum = 0.f;
    if (sum >= 0) {
        const bench_post_op_t *po = &p->attr.post_ops[sum];
        acc_sum = po->scale * (dst_old - (float)po->zero_point);
    }
    const float s = src - zero_point(p, QARG_SRC, pos);
    const float zp_dst = zero_point(p, QARG_DST, pos);
    if (p->attr.oscale.set)
        return reorder_alpha(p, pos) * s + acc_sum + zp_dst;
    return (arg_scale(p, QARG_SRC, pos) * s + acc_sum) /
                   arg_scale(p, QARG_DST, pos) +
           zp_dst;
}

void reorder_ref_comp(const reorder_prb_t *p, int mask, const float *dst_s8,
                      int64_t *sums) {
    const dims_desc_t *d = &p->desc;
    const int64_t count = attr_mask_count(mask, d->ndims, d->dims);
    const int64_t n = dims_desc_nelems(d);
    memset(sums, 0, sizeof(*sums) * (size_t)count);
    int64_t pos[TSR_MAX_NDIMS];
    for (int64_t i = 0; i < n; i++) {
        pos_of(d, i, pos);
        sums[attr_mask_index(mask, d->ndims, d->dims, pos)] +=
                (int64_t)dst_s8[i];
    }
}
