/* Batched int8 GEMM with the fused epilogue (see gemm_batched_s8.h).
 *
 * Zero points, za for src (common) and zb[n] for the weights (common or
 * per N), enter the s32 accumulator exactly as the reference's
 * sum_k (a - za)(b - zb[n]) would, modulo 2^32:
 *   sum_k a b                    the engine
 *   - za colsum(B)[n] + K za zb[n]  the engine's column offset
 *   - zb[n] rowsum(A)[m]         added to each finished tile
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/attr.h"
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "common/op_md.h"
#include "common/utils.h"
#include "cpu/gemm/gemm_s8.h"
#include "cpu/matmul/gemm_batched_s8.h"

/* The shared plan first (so gemm_batched_plan_destroy frees it all). */
typedef struct {
    gemm_batched_plan_t base;
    int with_src_zp, with_wei_zp, wei_zp_per_n;
} s8_plan_t;

/* The weights zero-point mask that means "one value per N": the weights'
 * OC dim for an inner product, their last dim for a matmul. */
static int wei_per_n_mask(const struct tsr_primitive_desc *pd) {
    return pd->op.kind == tsr_inner_product
                   ? 1
                   : 1 << (pd->md[TSR_MD_WEIGHTS].ndims - 1);
}

static int s8_accepts(const struct tsr_primitive_desc *pd, int with_bias) {
    const tsr_data_type_t src = pd->md[TSR_MD_SRC].data_type;
    const tsr_data_type_t wei = pd->md[TSR_MD_WEIGHTS].data_type;
    const tsr_data_type_t bia =
            with_bias ? pd->md[TSR_MD_BIAS].data_type : tsr_f32;
    if (!op_dt_is_int8(src) || wei != tsr_s8 ||
        !op_data_types_ok(src, wei, bia, pd->md[TSR_MD_DST].data_type))
        return 0;
    const tsr_runtime_q_t *src_zp = &pd->attr.zero_points[TSR_QARG_SRC];
    const tsr_runtime_q_t *wei_zp = &pd->attr.zero_points[TSR_QARG_WEIGHTS];
    return (!src_zp->set || src_zp->mask == 0) &&
           (!wei_zp->set || wei_zp->mask == 0 ||
            wei_zp->mask == wei_per_n_mask(pd));
}

static tsr_status_t s8_plan_create(struct tsr_primitive_desc *pd,
                                   const tsr_epilogue_t *ep,
                                   const gemm_batched_plan_t *shape,
                                   int64_t a_sm, int64_t a_sk, int64_t b_sk,
                                   int64_t b_sn) {
    (void)ep; /* every tile goes through the epilogue */
    s8_plan_t *plan = malloc(sizeof(*plan));
    if (!plan)
        return tsr_out_of_memory;
    memset(plan, 0, sizeof(*plan));
    plan->base = *shape;
    gemm_batched_plan_t *g = &plan->base;
    if (!gemm_batched_plan_views(pd, g, a_sm, a_sk, b_sk, b_sn)) {
        free(plan);
        return tsr_unimplemented;
    }
    const tsr_runtime_q_t *wei_zp = &pd->attr.zero_points[TSR_QARG_WEIGHTS];
    plan->with_src_zp = pd->attr.zero_points[TSR_QARG_SRC].set;
    plan->with_wei_zp = wei_zp->set;
    plan->wei_zp_per_n = wei_zp->set && wei_zp->mask != 0;
    /* C stays in the engine's per-thread tiles; the GEMM's private buffer
     * holds the column offsets (N) and the row sums of A (M). */
    g->with_epilogue = 1;
    g->thr_gemm_scratch = tsr_gemm_s8_scratch_size(g->M, g->N, g->K, 1, 1);
    /* N and M are each a dim of a valid descriptor: their sum fits. */
    const int64_t nbuf = (plan->with_src_zp || plan->with_wei_zp ? g->N : 0) +
                         (plan->with_wei_zp ? g->M : 0);
    g->c_buf_bytes = (size_t)nbuf * sizeof(int32_t);
    if (!gemm_batched_plan_book(pd, g)) {
        free(plan);
        return tsr_unimplemented;
    }
    pd->impl_data = plan;
    return tsr_success;
}

const gemm_batched_ops_t gemm_batched_s8_ops = {s8_accepts, s8_plan_create,
                                                NULL};

/* The arguments of one execution, for run_one. */
typedef struct {
    const s8_plan_t *plan;
    const struct tsr_primitive_desc *pd;
    const tsr_epilogue_t *ep;
    const tsr_epilogue_rt_t *rt;
    const uint8_t *src; /* u8 or s8 bytes */
    const int8_t *wei;
    void *dst;
    int32_t src_zp;
    const int32_t *wei_zp; /* NULL without weights zero points */
    /* The epilogue only converts to the dst type, and dst rows are dense:
     * a tile is one block conversion. */
    int store_only;
    /* colsum(B), stored with the weights (an inner product's, whose sums
     * are per output channel); NULL: computed when needed. */
    const int32_t *b_sums;
    int rows_uniform; /* gemm_batched_rows_uniform, once per execution */
} s8_exec_t;

/* What store_s32_tile needs for one GEMM. */
typedef struct {
    gemm_batched_tile_t t;
    const s8_exec_t *e;
    const int32_t *row_sums; /* of A, with weights zero points */
} s8_tile_ctx_t;

/* Finished s32 tile (with the weights zero-point term) -> f32, as the
 * reference converts its accumulator -> epilogue -> dst. */
static void store_s32_tile(const void *ctx, const int32_t *tile, int64_t ld,
                           int64_t m0, int64_t n0, int64_t m, int64_t n,
                           float *f32_work) {
    const s8_tile_ctx_t *c = ctx;
    const s8_exec_t *e = c->e;
    if (e->wei_zp) {
        const int per_n = e->plan->wei_zp_per_n;
        for (int64_t i = 0; i < m; i++) {
            const uint32_t rs = (uint32_t)c->row_sums[m0 + i];
            for (int64_t j = 0; j < n; j++) {
                const uint32_t zb = (uint32_t)e->wei_zp[per_n ? n0 + j : 0];
                f32_work[i * n + j] =
                        (float)(int32_t)((uint32_t)tile[i * ld + j] - zb * rs);
            }
        }
    } else if (c->t.rows_uniform && !e->store_only) {
        /* The s32 tile to dst in one pass. */
        const tsr_memory_desc_t *md = c->t.dst_md;
        const int nd = md->ndims;
        tsr_dim_t pos[TSR_MAX_NDIMS];
        gemm_batched_tile_pos(&c->t, m0, n0, pos);
        tsr_epilogue_apply_rows_s32(c->t.ep, c->t.rt, tile, ld, m, n, pos,
                                    nd - 1, c->t.dst, md_off_v(md, pos),
                                    md->blocking.strides[nd - 2],
                                    md->blocking.strides[nd - 1], f32_work);
        return;
    } else {
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                f32_work[i * n + j] = (float)tile[i * ld + j];
    }
    if (!e->store_only) {
        gemm_batched_store_tile(&c->t, f32_work, n, m0, n0, m, n);
        return;
    }
    const tsr_memory_desc_t *md = c->t.dst_md;
    const int nd = md->ndims;
    tsr_dim_t pos[TSR_MAX_NDIMS];
    gemm_batched_tile_pos(&c->t, m0, n0, pos);
    void *dst = (char *)c->t.dst +
                md_off_v(md, pos) * (int64_t)tsr_data_type_size(md->data_type);
    const int64_t dst_ld = md->blocking.strides[nd - 2];
    if (c->t.rt->use_avx2)
        tsr_cvt_from_f32_2d_avx2(md->data_type, f32_work, n, dst, dst_ld, m, n,
                                 c->t.ep->round_mode);
    else
        tsr_cvt_from_f32_2d(md->data_type, f32_work, n, dst, dst_ld, m, n,
                            c->t.ep->round_mode);
}

/* 1 when the epilogue does nothing but the final conversion (the identity
 * test of an f32 dst, asked of a copy with that dst type) and dst rows
 * are dense along N. */
static int epilogue_is_store_only(const tsr_epilogue_t *ep,
                                  const tsr_memory_desc_t *dst_md) {
    tsr_epilogue_t as_f32 = *ep;
    as_f32.dst_dt = tsr_f32;
    const int nd = dst_md->ndims;
    return tsr_epilogue_is_identity(&as_f32) &&
           dst_md->blocking.inner_nblks == 0 &&
           (dst_md->dims[nd - 1] == 1 || dst_md->blocking.strides[nd - 1] == 1);
}

/* The zero points' column offsets -za colsum(B)[n] + K za zb[n], and the
 * row sums of A, split over columns / rows (the sums are exact, so the
 * split never matters). Unsigned arithmetic wraps like the s32
 * accumulator. */
static void zp_terms(const s8_exec_t *e, const tsr_gemm_s8_args_t *args,
                     int32_t *col_offsets, int32_t *row_sums, int parallel) {
    const gemm_batched_plan_t *g = &e->plan->base;
    const int64_t chunk = 256;
    const uint32_t za = (uint32_t)e->src_zp;
    const int64_t b_sx = g->transb ? g->ldb : 1;
    const int64_t ncchunks = tsr_div_up(g->N, chunk);
#pragma omp parallel for schedule(static) if (parallel && ncchunks > 1)
    for (int64_t c = 0; c < ncchunks; c++) {
        const int64_t n0 = c * chunk, nn = TSR_MIN(chunk, g->N - n0);
        int32_t *col = col_offsets + n0;
        tsr_gemm_s8_col_sums(g->transb, g->K, nn, args->B + n0 * b_sx, g->ldb,
                             e->b_sums ? e->b_sums + n0 : NULL,
                             (int32_t)(0u - za), col);
        for (int64_t j = 0; e->wei_zp && j < nn; j++) {
            const uint32_t zb =
                    (uint32_t)e->wei_zp[e->plan->wei_zp_per_n ? n0 + j : 0];
            col[j] = (int32_t)((uint32_t)col[j] + (uint32_t)g->K * za * zb);
        }
    }
    if (!row_sums)
        return;
    const int64_t a_sm = g->transa ? 1 : g->lda;
    const int64_t a_sk = g->transa ? g->lda : 1;
    const int a_u8 = args->a_dt == tsr_u8;
    const uint8_t *A = args->A;
#pragma omp parallel for schedule(static) if (parallel && g->M > chunk)
    for (int64_t m = 0; m < g->M; m++) {
        uint32_t s = 0;
        for (int64_t k = 0; k < g->K; k++) {
            const uint8_t v = A[m * a_sm + k * a_sk];
            s += a_u8 ? (uint32_t)v : (uint32_t)(int32_t)(int8_t)v;
        }
        row_sums[m] = (int32_t)s;
    }
}

static tsr_status_t run_one(const void *arg, int64_t b, void *gemm_scratch,
                            size_t gemm_scratch_size, void *c_buf, int team) {
    const s8_exec_t *e = arg;
    const gemm_batched_plan_t *g = &e->plan->base;
    const tsr_memory_desc_t *dst_md = &e->pd->md[TSR_MD_DST];
    s8_tile_ctx_t tc = {
            {e->ep, e->rt, dst_md, e->dst, {0}, e->rows_uniform}, e, NULL};
    int64_t a_off, b_off;
    gemm_batched_locate(g, b, tc.t.pos, &a_off, &b_off);
    tsr_gemm_s8_args_t args;
    memset(&args, 0, sizeof(args));
    args.transa = g->transa;
    args.transb = g->transb;
    args.M = g->M;
    args.N = g->N;
    args.K = g->K;
    args.a_dt = e->pd->md[TSR_MD_SRC].data_type;
    args.A = e->src + a_off;
    args.lda = g->lda;
    args.B = e->wei + b_off;
    args.ldb = g->ldb;
    args.b_col_sums = e->b_sums;
    if (e->plan->with_src_zp || e->wei_zp) {
        int32_t *col_offsets = c_buf;
        int32_t *row_sums = e->wei_zp ? col_offsets + g->N : NULL;
        zp_terms(e, &args, col_offsets, row_sums, team == 0);
        args.col_offset = col_offsets;
        tc.row_sums = row_sums;
    }
    args.epilogue = store_s32_tile;
    args.epilogue_ctx = &tc;
    /* Without weights zero points, the kernels may store whole tiles
     * into a dst with N at stride 1 themselves. */
    tsr_epilogue_common_t common;
    tsr_gemm_s8_dst_t dst_store = {NULL, NULL, 0, NULL};
    const int nd = dst_md->ndims;
    tsr_dim_t pos[TSR_MAX_NDIMS];
    gemm_batched_tile_pos(&tc.t, 0, 0, pos);
    /* A single row's stride is any value: the kernels get one past it. */
    const tsr_dim_t dst_ld =
            g->M == 1 ? g->N : dst_md->blocking.strides[nd - 2];
    if (!e->wei_zp && tc.t.rows_uniform &&
        dst_md->blocking.strides[nd - 1] == 1 && dst_ld >= g->N &&
        tsr_epilogue_common_init(e->ep, e->rt, pos, &common)) {
        dst_store.common = &common;
        dst_store.dst =
                (char *)e->dst + md_off_v(dst_md, pos) * common.dt_bytes;
        dst_store.ld = dst_ld;
        args.dst_store = &dst_store;
    }
    args.scratch = gemm_scratch;
    args.scratch_size = gemm_scratch_size;
    args.team_nthr = team;
    return tsr_gemm_s8(&args);
}

tsr_status_t gemm_batched_s8_execute(const struct tsr_primitive_desc *pd,
                                     const tsr_exec_ctx_t *ctx,
                                     tsr_epilogue_init_fn epilogue_init) {
    /* Set up again per run: it points into the pd's own attributes. */
    tsr_epilogue_t ep;
    tsr_status_t st = epilogue_init(pd, &ep);
    if (st != tsr_success)
        return st;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&ep, ctx, &rt);
    const s8_plan_t *plan = pd->impl_data;
    s8_exec_t e = {plan,
                   pd,
                   &ep,
                   &rt,
                   tsr_ctx_data(ctx, TSR_ARG_SRC),
                   tsr_ctx_data(ctx, TSR_ARG_WEIGHTS),
                   tsr_ctx_data(ctx, TSR_ARG_DST),
                   0,
                   NULL,
                   epilogue_is_store_only(&ep, &pd->md[TSR_MD_DST]),
                   NULL,
                   gemm_batched_rows_uniform(&ep, &pd->md[TSR_MD_DST])};
    /* An inner product's weights sums are B's column sums (one GEMM, B =
     * weights^T); a matmul's B columns are not the dims they cover. */
    const tsr_memory_desc_t *wei_md = &pd->md[TSR_MD_WEIGHTS];
    if (pd->op.kind == tsr_inner_product &&
        md_extra_comp_count(wei_md) == plan->base.N)
        e.b_sums = md_extra_comp(wei_md, e.wei);
    if (plan->with_src_zp) {
        const int32_t *zp =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_SRC);
        if (!zp)
            return tsr_invalid_arguments;
        e.src_zp = zp[0];
    }
    if (plan->with_wei_zp) {
        e.wei_zp =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_WEIGHTS);
        if (!e.wei_zp)
            return tsr_invalid_arguments;
    }
    return gemm_batched_run(&plan->base, ctx->scratchpad, run_one, &e);
}
