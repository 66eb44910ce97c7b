/* Eltwise on dense tensors whose arguments share one layout (plain or
 * blocked, padding included): the buffers are one flat array of padded
 * elements, cut over the threads in whole cache lines. f32 runs straight
 * through the ISA's kernel, and so do s8, u8 and s32 to the same type for
 * relu and linear without post-ops (converted in registers); other data
 * types and post-ops go in chunks through an f32 buffer that stays in L1.
 * The padding is zeroed again at the end (f(0) need not be 0).
 *
 * Post-ops: sum, eltwise, and binary with src1 per tensor (one value), in
 * full in dst's layout, or per channel (dim 1) when dst is plain or
 * blocked on the channels only; other binary forms are left to ref:any. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "eltwise_pd.h"

/* Elements per chunk of the buffered path, and per unit of the thread
 * split (64 is a cache line for 1-byte types and whole lines for others). */
#define CHUNK 512
#define SPLIT_UNIT 64
/* Below this many bytes moved, one thread. */
#define PARALLEL_MIN_BYTES (256 * 1024)
/* From this many bytes of dst on, f32 results bypass the caches. */
#define STREAM_MIN_BYTES (48 * 1024 * 1024)

typedef enum { BIN_SCALAR, BIN_FULL, BIN_CHANNEL } bin_form_t;

typedef struct {
    eltwise_fwd_f32_fn fwd, fwd_nt; /* fwd_nt: NULL when the ISA has none */
    eltwise_bwd_f32_fn bwd;
    int cvt_avx2; /* the AVX2 conversions (same bits as the portable ones) */
    eltwise_fwd_int_fn fwd_int; /* NULL: integers staged in f32 */
} dense_isa_t;

typedef struct {
    bin_form_t form[TSR_MAX_POST_OPS];
    eltwise_op_t eltwise[TSR_MAX_POST_OPS];
    /* Channel of flat element i (BIN_CHANNEL):
     * ((i / c_stride) % c_outer) * c_block + i % c_block. */
    int64_t c_stride, c_outer, c_block, c_padded;
    size_t chan_offset[TSR_MAX_POST_OPS]; /* floats into the scratchpad */
} dense_post_ops_t;

/* A blocked layout with no gaps: its padded elements fill
 * [offset0, offset0 + product of padded dims). */
static int md_is_dense(const tsr_memory_desc_t *md) {
    if (md->format_kind != tsr_format_kind_blocked)
        return 0;
    tsr_dim_t n = 1;
    for (int d = 0; d < md->ndims; d++)
        n *= md->padded_dims[d];
    return md_nelems_padded(md) - md->offset0 == n;
}

static tsr_dim_t padded_nelems(const tsr_memory_desc_t *md) {
    return md_nelems_padded(md) - md->offset0;
}

/* The dst layout's channel decomposition, when it has one. */
static int channel_form(const tsr_memory_desc_t *md, dense_post_ops_t *p) {
    if (md->ndims < 2)
        return 0;
    const tsr_blocking_desc_t *blk = &md->blocking;
    if (blk->inner_nblks == 0) {
        p->c_block = 1;
    } else if (blk->inner_nblks == 1 && blk->inner_idxs[0] == 1) {
        p->c_block = blk->inner_blks[0];
    } else {
        return 0;
    }
    p->c_stride = blk->strides[1];
    p->c_outer = md->padded_dims[1] / p->c_block;
    p->c_padded = md->padded_dims[1];
    return p->c_stride > 0;
}

/* The post-ops as the chunks apply them; 0 when one has no such form (or
 * the per-channel operands' total overflows). Books the per-channel
 * operands in the scratchpad. */
static int dense_post_ops_init(const struct tsr_primitive_desc *pd,
                               dense_post_ops_t *p, size_t *scratch_floats) {
    const struct tsr_post_ops *po = &pd->attr.post_ops;
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    memset(p, 0, sizeof(*p));
    *scratch_floats = 0;
    for (int i = 0; i < po->len; i++) {
        const tsr_post_op_t *e = &po->entry[i];
        if (e->kind == tsr_post_op_eltwise) {
            eltwise_op_init(&p->eltwise[i], e->eltwise.alg, e->eltwise.alpha,
                            e->eltwise.beta, 1);
            continue;
        }
        if (e->kind != tsr_post_op_binary)
            continue;
        const tsr_memory_desc_t *s1 = &e->binary.src1_desc;
        int all_one = 1, channel_only = dst->ndims >= 2, full = 1;
        for (int d = 0; d < s1->ndims; d++) {
            all_one &= s1->dims[d] == 1;
            if (d != 1)
                channel_only &= s1->dims[d] == 1;
            full &= s1->dims[d] == dst->dims[d];
        }
        if (all_one) {
            p->form[i] = BIN_SCALAR;
        } else if (full && md_same_layout(s1, dst) && md_is_dense(s1)) {
            p->form[i] = BIN_FULL;
        } else if (channel_only && channel_form(dst, p)) {
            p->form[i] = BIN_CHANNEL;
            p->chan_offset[i] = *scratch_floats;
            if (!tsr_add_size(*scratch_floats,
                              (size_t)(p->c_padded + 15) / 16 * 16,
                              scratch_floats))
                return 0;
        } else {
            return 0;
        }
    }
    return 1;
}

static tsr_status_t dense_fwd_init(struct tsr_primitive_desc *pd) {
    const tsr_status_t st = eltwise_init_common(pd);
    if (st != tsr_success)
        return st;
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (!md_is_dense(src) || !md_is_dense(dst) || !md_same_layout(src, dst))
        return tsr_unimplemented;
    dense_post_ops_t p;
    size_t scratch_floats;
    if (!dense_post_ops_init(pd, &p, &scratch_floats))
        return tsr_unimplemented;
    if (!tsr_mul_size(scratch_floats, sizeof(float), &pd->scratchpad_size))
        return tsr_unimplemented;
    return tsr_success;
}

static tsr_status_t dense_bwd_init(struct tsr_primitive_desc *pd) {
    const tsr_status_t st = eltwise_init_common(pd);
    if (st != tsr_success)
        return st;
    const tsr_memory_desc_t *data = &pd->md[eltwise_bwd_data_slot(pd)];
    const tsr_memory_desc_t *dd = &pd->md[TSR_MD_DIFF_DST];
    const tsr_memory_desc_t *ds = &pd->md[TSR_MD_DIFF_SRC];
    if (!md_is_dense(data) || !md_is_dense(dd) || !md_is_dense(ds) ||
        !md_same_layout(data, dd) || !md_same_layout(dd, ds))
        return tsr_unimplemented;
    return tsr_success;
}

static void *elem_ptr(void *base, tsr_data_type_t dt, int64_t i) {
    return (char *)base + (size_t)i * tsr_data_type_size(dt);
}

static void to_f32(const dense_isa_t *isa, tsr_data_type_t dt, const void *src,
                   float *dst, int64_t n) {
    if (isa->cvt_avx2)
        tsr_cvt_to_f32_2d_avx2(dt, src, n, dst, n, 1, n);
    else
        tsr_cvt_to_f32_2d(dt, src, n, dst, n, 1, n);
}

static void from_f32(const dense_isa_t *isa, tsr_data_type_t dt,
                     const float *src, void *dst, int64_t n,
                     tsr_round_mode_t mode) {
    if (isa->cvt_avx2)
        tsr_cvt_from_f32_2d_avx2(dt, src, n, dst, n, 1, n, mode);
    else
        tsr_cvt_from_f32_2d(dt, src, n, dst, n, 1, n, mode);
}

static void binary_apply(tsr_alg_kind_t alg, float *v, const float *b,
                         int64_t n) {
    switch (alg) {
    case tsr_binary_add:
        for (int64_t j = 0; j < n; j++)
            v[j] = v[j] + b[j];
        return;
    case tsr_binary_mul:
        for (int64_t j = 0; j < n; j++)
            v[j] = v[j] * b[j];
        return;
    case tsr_binary_sub:
        for (int64_t j = 0; j < n; j++)
            v[j] = v[j] - b[j];
        return;
    default:
        for (int64_t j = 0; j < n; j++)
            v[j] = tsr_binary_fwd(alg, v[j], b[j]);
        return;
    }
}

/* Runtime operands of the post-ops in the chunks' form. */
typedef struct {
    const void *src1[TSR_MAX_POST_OPS]; /* flat base (offset0 applied) */
    float scalar[TSR_MAX_POST_OPS];
    const float *chan[TSR_MAX_POST_OPS];
} dense_post_ops_rt_t;

static void dense_post_ops_resolve(const struct tsr_primitive_desc *pd,
                                   const dense_post_ops_t *p,
                                   const eltwise_post_ops_rt_t *rt,
                                   void *scratchpad, dense_post_ops_rt_t *r) {
    const struct tsr_post_ops *po = &pd->attr.post_ops;
    memset(r, 0, sizeof(*r));
    for (int i = 0; i < po->len; i++) {
        if (po->entry[i].kind != tsr_post_op_binary)
            continue;
        const tsr_memory_desc_t *s1 = &po->entry[i].binary.src1_desc;
        const tsr_data_type_t dt = s1->data_type;
        const tsr_dim_t zero[TSR_MAX_NDIMS] = {0};
        switch (p->form[i]) {
        case BIN_SCALAR:
            r->scalar[i] =
                    tsr_load_f32(dt, rt->bin_src1[i], md_off_v(s1, zero));
            break;
        case BIN_FULL:
            r->src1[i] = elem_ptr((void *)rt->bin_src1[i], dt, s1->offset0);
            break;
        case BIN_CHANNEL: {
            float *chan = (float *)scratchpad + p->chan_offset[i];
            tsr_dim_t pos[TSR_MAX_NDIMS] = {0};
            for (tsr_dim_t c = 0; c < p->c_padded; c++) {
                pos[1] = c;
                chan[c] = c < s1->dims[1] ? tsr_load_f32(dt, rt->bin_src1[i],
                                                         md_off_v(s1, pos))
                                          : 0.f;
            }
            r->chan[i] = chan;
            break;
        }
        }
    }
}

/* The post-op chain on buf, the chunk of n flat elements from i0 of dst
 * (still holding its old values). */
static void dense_post_ops_apply(const struct tsr_primitive_desc *pd,
                                 const dense_isa_t *isa,
                                 const dense_post_ops_t *p,
                                 const dense_post_ops_rt_t *r, float *buf,
                                 int64_t i0, int64_t n, const void *dst) {
    const struct tsr_post_ops *po = &pd->attr.post_ops;
    const tsr_data_type_t ddt = pd->md[TSR_MD_DST].data_type;
    float tmp[CHUNK];
    for (int k = 0; k < po->len; k++) {
        const tsr_post_op_t *e = &po->entry[k];
        switch (e->kind) {
        case tsr_post_op_sum: {
            const tsr_data_type_t dt =
                    e->sum.dt != tsr_data_type_undef ? e->sum.dt : ddt;
            to_f32(isa, dt, elem_ptr((void *)dst, dt, i0), tmp, n);
            const float scale = e->sum.scale;
            const float zp = (float)e->sum.zero_point;
            for (int64_t j = 0; j < n; j++)
                buf[j] = scale * (tmp[j] - zp) + buf[j];
            break;
        }
        case tsr_post_op_eltwise: {
            isa->fwd(&p->eltwise[k], buf, buf, n);
            const float scale = e->eltwise.scale;
            if (scale != 1.f)
                for (int64_t j = 0; j < n; j++)
                    buf[j] *= scale;
            break;
        }
        case tsr_post_op_binary: {
            const tsr_data_type_t dt = e->binary.src1_desc.data_type;
            if (p->form[k] == BIN_SCALAR) {
                for (int64_t j = 0; j < n; j++)
                    tmp[j] = r->scalar[k];
            } else if (p->form[k] == BIN_FULL) {
                to_f32(isa, dt, elem_ptr((void *)r->src1[k], dt, i0), tmp, n);
            } else {
                for (int64_t j = 0; j < n; j++) {
                    const int64_t i = i0 + j;
                    const int64_t c =
                            (i / p->c_stride) % p->c_outer * p->c_block +
                            i % p->c_block;
                    tmp[j] = r->chan[k][c];
                }
            }
            binary_apply(e->binary.alg, buf, tmp, n);
            break;
        }
        default:
            break;
        }
    }
}

/* Thread ithr's part of n elements: whole units, the remainder spread
 * over the first threads. */
static void thread_range(int64_t n, int ithr, int nthr, int64_t *begin,
                         int64_t *end) {
    const int64_t units = (n + SPLIT_UNIT - 1) / SPLIT_UNIT;
    const int64_t per = units / nthr, extra = units % nthr;
    const int64_t ub = ithr * per + (ithr < extra ? ithr : extra);
    const int64_t ue = ub + per + (ithr < extra ? 1 : 0);
    *begin = ub * SPLIT_UNIT < n ? ub * SPLIT_UNIT : n;
    *end = ue * SPLIT_UNIT < n ? ue * SPLIT_UNIT : n;
}

static int threads_for(int64_t n, size_t bytes_per_elem) {
    if ((size_t)n * bytes_per_elem < PARALLEL_MIN_BYTES)
        return 1;
    return omp_get_max_threads();
}

static tsr_status_t dense_fwd_execute(const struct tsr_primitive_desc *pd,
                                      const tsr_exec_ctx_t *ctx,
                                      const dense_isa_t *isa) {
    const tsr_eltwise_desc_t *d = eltwise_desc(pd);
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    void *src_data = tsr_ctx_data(ctx, TSR_ARG_SRC);
    void *dst_data = tsr_ctx_data(ctx, TSR_ARG_DST);
    if (!src_data || !dst_data)
        return tsr_invalid_arguments;
    eltwise_post_ops_rt_t rt;
    tsr_status_t st = eltwise_post_ops_resolve(pd, ctx, &rt);
    if (st != tsr_success)
        return st;
    dense_post_ops_t p;
    size_t scratch_floats;
    dense_post_ops_init(pd, &p, &scratch_floats);
    dense_post_ops_rt_t r;
    dense_post_ops_resolve(pd, &p, &rt, ctx->scratchpad, &r);

    eltwise_op_t op;
    eltwise_op_init(&op, d->alg_kind, d->alpha, d->beta, 1);
    const tsr_data_type_t sdt = src_md->data_type, ddt = dst_md->data_type;
    const void *src = elem_ptr(src_data, sdt, src_md->offset0);
    void *dst = elem_ptr(dst_data, ddt, dst_md->offset0);
    const int64_t n = padded_nelems(src_md);
    const int direct =
            sdt == tsr_f32 && ddt == tsr_f32 && pd->attr.post_ops.len == 0;
    const tsr_round_mode_t mode = pd->attr.round_mode;
    const int int_direct = isa->fwd_int && sdt == ddt &&
                           pd->attr.post_ops.len == 0 &&
                           mode == tsr_round_nearest &&
                           (sdt == tsr_s8 || sdt == tsr_u8 || sdt == tsr_s32);
    const int nthr =
            threads_for(n, tsr_data_type_size(sdt) + tsr_data_type_size(ddt));
    const eltwise_fwd_f32_fn fwd =
            isa->fwd_nt && (size_t)n * sizeof(float) >= STREAM_MIN_BYTES
                    ? isa->fwd_nt
                    : isa->fwd;

#pragma omp parallel num_threads(nthr) if (nthr > 1)
    {
        int64_t begin, end;
        thread_range(n, omp_get_thread_num(), omp_get_num_threads(), &begin,
                     &end);
        if (direct) {
            fwd(&op, (float *)dst + begin, (const float *)src + begin,
                end - begin);
        } else if (int_direct &&
                   isa->fwd_int(&op, sdt, elem_ptr(dst, ddt, begin),
                                elem_ptr((void *)src, sdt, begin),
                                end - begin)) {
            /* done in place of the staging */
        } else {
            float buf[CHUNK];
            for (int64_t i = begin; i < end; i += CHUNK) {
                const int64_t len = end - i < CHUNK ? end - i : CHUNK;
                if (sdt == tsr_f32) {
                    isa->fwd(&op, buf, (const float *)src + i, len);
                } else {
                    to_f32(isa, sdt, elem_ptr((void *)src, sdt, i), buf, len);
                    isa->fwd(&op, buf, buf, len);
                }
                dense_post_ops_apply(pd, isa, &p, &r, buf, i, len, dst);
                from_f32(isa, ddt, buf, elem_ptr(dst, ddt, i), len, mode);
            }
        }
    }
    md_zero_pad(dst_md, dst_data);
    return tsr_success;
}

static tsr_status_t dense_bwd_execute(const struct tsr_primitive_desc *pd,
                                      const tsr_exec_ctx_t *ctx,
                                      const dense_isa_t *isa) {
    const tsr_eltwise_desc_t *d = eltwise_desc(pd);
    const int data_slot = eltwise_bwd_data_slot(pd);
    const tsr_memory_desc_t *v_md = &pd->md[data_slot];
    const tsr_memory_desc_t *dd_md = &pd->md[TSR_MD_DIFF_DST];
    const tsr_memory_desc_t *ds_md = &pd->md[TSR_MD_DIFF_SRC];
    void *v_data = tsr_ctx_data(ctx, tsr_slot_arg(data_slot));
    void *dd_data = tsr_ctx_data(ctx, TSR_ARG_DIFF_DST);
    void *ds_data = tsr_ctx_data(ctx, TSR_ARG_DIFF_SRC);
    if (!v_data || !dd_data || !ds_data)
        return tsr_invalid_arguments;
    eltwise_op_t op;
    eltwise_op_init(&op, d->alg_kind, d->alpha, d->beta, 0);
    const tsr_data_type_t vdt = v_md->data_type, dddt = dd_md->data_type,
                          dsdt = ds_md->data_type;
    const void *v = elem_ptr(v_data, vdt, v_md->offset0);
    const void *dd = elem_ptr(dd_data, dddt, dd_md->offset0);
    void *ds = elem_ptr(ds_data, dsdt, ds_md->offset0);
    const int64_t n = padded_nelems(dd_md);
    const int direct = vdt == tsr_f32 && dddt == tsr_f32 && dsdt == tsr_f32;
    const int nthr =
            threads_for(n, tsr_data_type_size(vdt) + tsr_data_type_size(dddt) +
                                   tsr_data_type_size(dsdt));

#pragma omp parallel num_threads(nthr) if (nthr > 1)
    {
        int64_t begin, end;
        thread_range(n, omp_get_thread_num(), omp_get_num_threads(), &begin,
                     &end);
        if (direct) {
            isa->bwd(&op, (float *)ds + begin, (const float *)dd + begin,
                     (const float *)v + begin, end - begin);
        } else {
            float bdd[CHUNK], bv[CHUNK];
            for (int64_t i = begin; i < end; i += CHUNK) {
                const int64_t len = end - i < CHUNK ? end - i : CHUNK;
                to_f32(isa, dddt, elem_ptr((void *)dd, dddt, i), bdd, len);
                to_f32(isa, vdt, elem_ptr((void *)v, vdt, i), bv, len);
                isa->bwd(&op, bdd, bdd, bv, len);
                from_f32(isa, dsdt, bdd, elem_ptr(ds, dsdt, i), len,
                         tsr_round_nearest);
            }
        }
    }
    md_zero_pad(ds_md, ds_data);
    return tsr_success;
}

static const dense_isa_t isa_avx512 = {
        tsr_eltwise_fwd_f32_avx512, tsr_eltwise_fwd_f32_nt_avx512,
        tsr_eltwise_bwd_f32_avx512, 1, tsr_eltwise_fwd_int_avx512};
static const dense_isa_t isa_avx2 = {
        tsr_eltwise_fwd_f32_avx2, tsr_eltwise_fwd_f32_nt_avx2,
        tsr_eltwise_bwd_f32_avx2, 1, tsr_eltwise_fwd_int_avx2};
static const dense_isa_t isa_generic = {tsr_eltwise_fwd_f32_generic, NULL,
                                        tsr_eltwise_bwd_f32_generic, 0, NULL};

static tsr_status_t fwd_avx512(const struct tsr_primitive_desc *pd,
                               const tsr_exec_ctx_t *ctx) {
    return dense_fwd_execute(pd, ctx, &isa_avx512);
}
static tsr_status_t fwd_avx2(const struct tsr_primitive_desc *pd,
                             const tsr_exec_ctx_t *ctx) {
    return dense_fwd_execute(pd, ctx, &isa_avx2);
}
static tsr_status_t fwd_generic(const struct tsr_primitive_desc *pd,
                                const tsr_exec_ctx_t *ctx) {
    return dense_fwd_execute(pd, ctx, &isa_generic);
}
static tsr_status_t bwd_avx512(const struct tsr_primitive_desc *pd,
                               const tsr_exec_ctx_t *ctx) {
    return dense_bwd_execute(pd, ctx, &isa_avx512);
}
static tsr_status_t bwd_avx2(const struct tsr_primitive_desc *pd,
                             const tsr_exec_ctx_t *ctx) {
    return dense_bwd_execute(pd, ctx, &isa_avx2);
}
static tsr_status_t bwd_generic(const struct tsr_primitive_desc *pd,
                                const tsr_exec_ctx_t *ctx) {
    return dense_bwd_execute(pd, ctx, &isa_generic);
}

const tsr_impl_t tsr_dense_eltwise_fwd_avx512_impl = {
        .name = "dense:avx512_core",
        .isa = tsr_cpu_isa_avx512_core,
        .init = dense_fwd_init,
        .execute = fwd_avx512,
};
const tsr_impl_t tsr_dense_eltwise_fwd_avx2_impl = {
        .name = "dense:avx2",
        .isa = tsr_cpu_isa_avx2,
        .init = dense_fwd_init,
        .execute = fwd_avx2,
};
const tsr_impl_t tsr_dense_eltwise_fwd_generic_impl = {
        .name = "dense:generic",
        .isa = tsr_cpu_isa_generic,
        .init = dense_fwd_init,
        .execute = fwd_generic,
};
const tsr_impl_t tsr_dense_eltwise_bwd_avx512_impl = {
        .name = "dense:avx512_core",
        .isa = tsr_cpu_isa_avx512_core,
        .init = dense_bwd_init,
        .execute = bwd_avx512,
};
const tsr_impl_t tsr_dense_eltwise_bwd_avx2_impl = {
        .name = "dense:avx2",
        .isa = tsr_cpu_isa_avx2,
        .init = dense_bwd_init,
        .execute = bwd_avx2,
};
const tsr_impl_t tsr_dense_eltwise_bwd_generic_impl = {
        .name = "dense:generic",
        .isa = tsr_cpu_isa_generic,
        .init = dense_bwd_init,
        .execute = bwd_generic,
};
