/* Batched f32 GEMM with the fused epilogue (see gemm_batched_f32.h). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/attr.h"
#include "common/checked_math.h"
#include "common/memory_desc.h"
#include "common/op_md.h"
#include "cpu/gemm/gemm_f32.h"
#include "cpu/matmul/gemm_batched_f32.h"

int gemm_matrix_view(int64_t rows, int64_t cols, int64_t stride_r,
                     int64_t stride_c, int *trans, int64_t *ld) {
    /* Strides of a dim of size 1 never matter. */
    if (cols == 1)
        stride_c = 1;
    if (rows == 1)
        stride_r = cols;
    if (stride_c == 1 && stride_r >= cols) {
        *trans = 0;
        *ld = stride_r;
        return 1;
    }
    if (rows == 1 || cols == 1) {
        /* A vector with non-unit stride: read it as the other shape. */
        stride_r = rows == 1 ? 1 : stride_r;
        stride_c = cols == 1 ? rows : stride_c;
    }
    if (stride_r == 1 && stride_c >= rows) {
        *trans = 1;
        *ld = stride_c;
        return 1;
    }
    return 0;
}

/* A plain descriptor: no inner blocks. */
static int md_is_plain(const tsr_memory_desc_t *md) {
    return md->format_kind == tsr_format_kind_blocked &&
           md->blocking.inner_nblks == 0;
}

/* f32 bias of N values dense along N and 1 elsewhere: what the GEMM can
 * add itself. */
static int bias_is_gemm_friendly(const tsr_memory_desc_t *bia, int64_t N) {
    if (!md_is_plain(bia) || bia->data_type != tsr_f32)
        return 0;
    const int nd = bia->ndims;
    for (int d = 0; d < nd - 1; d++)
        if (bia->dims[d] != 1)
            return 0;
    return bia->dims[nd - 1] == N &&
           (N == 1 || bia->blocking.strides[nd - 1] == 1);
}

/* Fills the rest of the plan from pd->md[] once M, N, K, the operand
 * views and batch steps are set; 0 when its scratchpad size overflows. */
static int plan_finish(gemm_batched_plan_t *plan, struct tsr_primitive_desc *pd,
                       const tsr_epilogue_t *ep) {
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    const tsr_memory_desc_t *bia = &pd->md[TSR_MD_BIAS];
    const int nd = dst->ndims;
    const int with_bias = !md_is_zero(bia);
    const int default_attr = tsr_attr_has_default_values(&pd->attr);

    plan->c_is_dst =
            dst->data_type == tsr_f32 && md_is_plain(dst) &&
            (plan->N == 1 || dst->blocking.strides[nd - 1] == 1) &&
            (plan->M == 1 || dst->blocking.strides[nd - 2] >= plan->N) &&
            !tsr_epilogue_reads_dst(ep);
    plan->ldc = plan->c_is_dst && plan->M > 1 ? dst->blocking.strides[nd - 2]
                                              : plan->N;
    /* The epilogue applies the bias itself, in its place among the
     * attributes; the GEMM adds it only when nothing else is left to do. */
    plan->with_epilogue = !plan->c_is_dst || !default_attr ||
                          (with_bias && !bias_is_gemm_friendly(bia, plan->N));
    plan->gemm_bias = with_bias && !plan->with_epilogue;

    plan->thr_gemm_scratch =
            tsr_gemm_f32_scratch_size(plan->M, plan->N, plan->K, 1);
    size_t c_elems, c_bytes = 0;
    if (!plan->c_is_dst &&
        (!tsr_mul_size((size_t)plan->M, (size_t)plan->N, &c_elems) ||
         !tsr_mul_size(c_elems, sizeof(float), &c_bytes)))
        return 0;
    plan->c_buf_bytes = c_bytes;
    return gemm_batched_plan_book(pd, plan);
}

/* n rounded up to 64, 0 when that overflows. */
static int rnd_up64(size_t n, size_t *out) {
    size_t r;
    if (!tsr_add_size(n, 63, &r))
        return 0;
    *out = r / 64 * 64;
    return 1;
}

int gemm_batched_plan_book(struct tsr_primitive_desc *pd,
                           gemm_batched_plan_t *plan) {
    plan->nthr = tsr_get_max_threads();
    plan->batch_parallel = plan->batch >= plan->nthr && plan->nthr > 1;
    /* Slices start 64-byte aligned. */
    size_t thr_bytes, total;
    if (!rnd_up64(plan->thr_gemm_scratch, &plan->thr_gemm_scratch) ||
        !rnd_up64(plan->c_buf_bytes, &plan->c_buf_bytes) ||
        !tsr_add_size(plan->thr_gemm_scratch, plan->c_buf_bytes, &thr_bytes) ||
        !tsr_mul_size((size_t)plan->nthr, thr_bytes, &total))
        return 0;
    pd->scratchpad_size = total;
    return 1;
}

int gemm_batched_accepts(const struct tsr_primitive_desc *pd, int with_bias) {
    const tsr_data_type_t src = pd->md[TSR_MD_SRC].data_type;
    const tsr_data_type_t wei = pd->md[TSR_MD_WEIGHTS].data_type;
    const tsr_data_type_t bia =
            with_bias ? pd->md[TSR_MD_BIAS].data_type : tsr_f32;
    if (src != tsr_f32 || wei != tsr_f32 ||
        !op_data_types_ok(tsr_f32, tsr_f32, bia, pd->md[TSR_MD_DST].data_type))
        return 0;
    return !pd->attr.zero_points[TSR_QARG_SRC].set &&
           !pd->attr.zero_points[TSR_QARG_WEIGHTS].set;
}

int gemm_batched_plan_views(const struct tsr_primitive_desc *pd,
                            gemm_batched_plan_t *plan, int64_t a_sm,
                            int64_t a_sk, int64_t b_sk, int64_t b_sn) {
    plan->a_off0 = pd->md[TSR_MD_SRC].offset0;
    plan->b_off0 = pd->md[TSR_MD_WEIGHTS].offset0;
    if (!gemm_matrix_view(plan->M, plan->K, a_sm, a_sk, &plan->transa,
                          &plan->lda))
        return 0;
    if (plan->b_panels_nr > 0) {
        plan->transb = 0;
        plan->ldb = plan->N;
        return 1;
    }
    return gemm_matrix_view(plan->K, plan->N, b_sk, b_sn, &plan->transb,
                            &plan->ldb);
}

tsr_status_t gemm_batched_plan_create(struct tsr_primitive_desc *pd,
                                      const tsr_epilogue_t *ep,
                                      const gemm_batched_plan_t *shape,
                                      int64_t a_sm, int64_t a_sk, int64_t b_sk,
                                      int64_t b_sn) {
    gemm_batched_plan_t *plan = malloc(sizeof(*plan));
    if (!plan)
        return tsr_out_of_memory;
    *plan = *shape;
    if (!gemm_batched_plan_views(pd, plan, a_sm, a_sk, b_sk, b_sn)) {
        free(plan);
        return tsr_unimplemented;
    }
    if (!plan_finish(plan, pd, ep)) {
        free(plan);
        return tsr_unimplemented;
    }
    pd->impl_data = plan;
    return tsr_success;
}

const gemm_batched_ops_t gemm_batched_f32_ops = {gemm_batched_accepts,
                                                 gemm_batched_plan_create,
                                                 tsr_gemm_f32_prepacked_nr};

void gemm_batched_plan_destroy(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

int gemm_batched_rows_uniform(const tsr_epilogue_t *ep,
                              const tsr_memory_desc_t *dst_md) {
    return dst_md->blocking.inner_nblks == 0 &&
           tsr_epilogue_uniform_along(ep, dst_md->ndims - 2);
}

void gemm_batched_tile_pos(const gemm_batched_tile_t *t, int64_t m, int64_t n,
                           tsr_dim_t *pos) {
    const int nd = t->dst_md->ndims;
    memcpy(pos, t->pos, sizeof(t->pos));
    pos[nd - 2] = m;
    pos[nd - 1] = n;
}

void gemm_batched_store_tile(const gemm_batched_tile_t *t, float *c,
                             int64_t ldc, int64_t m0, int64_t n0, int64_t m,
                             int64_t n) {
    const int nd = t->dst_md->ndims;
    const int64_t stride = t->dst_md->blocking.strides[nd - 1];
    tsr_dim_t pos[TSR_MAX_NDIMS];
    if (t->rows_uniform) {
        gemm_batched_tile_pos(t, m0, n0, pos);
        tsr_epilogue_apply_rows(t->ep, t->rt, c, ldc, m, n, pos, nd - 1, t->dst,
                                md_off_v(t->dst_md, pos),
                                t->dst_md->blocking.strides[nd - 2], stride);
        return;
    }
    for (int64_t i = 0; i < m; i++) {
        gemm_batched_tile_pos(t, m0 + i, n0, pos);
        tsr_epilogue_apply_row(t->ep, t->rt, c + i * ldc, n, pos, nd - 1,
                               t->dst, md_off_v(t->dst_md, pos), stride);
    }
}

static void epilogue_tile(const void *ctx, float *c, int64_t ldc, int64_t m0,
                          int64_t n0, int64_t m, int64_t n) {
    gemm_batched_store_tile(ctx, c, ldc, m0, n0, m, n);
}

void gemm_batched_locate(const gemm_batched_plan_t *plan, int64_t b,
                         tsr_dim_t *pos, int64_t *a_off, int64_t *b_off) {
    int64_t rest = b;
    *a_off = plan->a_off0;
    *b_off = plan->b_off0;
    for (int d = plan->nbatch_dims - 1; d >= 0; d--) {
        const int64_t i = rest % plan->batch_dims[d];
        rest /= plan->batch_dims[d];
        pos[d] = i;
        *a_off += i * plan->a_bstep[d];
        *b_off += i * plan->b_bstep[d];
    }
}

/* The arguments of one execution, for run_one. */
typedef struct {
    const gemm_batched_plan_t *plan;
    const struct tsr_primitive_desc *pd;
    const tsr_epilogue_t *ep;
    const tsr_epilogue_rt_t *rt;
    const float *src, *wei, *bias;
    void *dst;
    int rows_uniform; /* gemm_batched_rows_uniform, once per execution */
} f32_exec_t;

/* Runs GEMM number `b` (dense index over the dst batch dims). */
static tsr_status_t run_one(const void *arg, int64_t b, void *gemm_scratch,
                            size_t gemm_scratch_size, void *c_buf, int team) {
    const f32_exec_t *e = arg;
    const gemm_batched_plan_t *plan = e->plan;
    const tsr_memory_desc_t *dst_md = &e->pd->md[TSR_MD_DST];
    gemm_batched_tile_t t = {e->ep,  e->rt, dst_md,
                             e->dst, {0},   e->rows_uniform};
    int64_t a_off, b_off;
    gemm_batched_locate(plan, b, t.pos, &a_off, &b_off);
    float *c = c_buf;
    if (plan->c_is_dst) {
        t.pos[dst_md->ndims - 2] = t.pos[dst_md->ndims - 1] = 0;
        c = (float *)e->dst + md_off_v(dst_md, t.pos);
    }
    tsr_gemm_f32_args_t g;
    memset(&g, 0, sizeof(g));
    g.transa = plan->transa;
    g.transb = plan->transb;
    g.M = plan->M;
    g.N = plan->N;
    g.K = plan->K;
    g.alpha = 1.f;
    g.A = e->src + a_off;
    g.lda = plan->lda;
    g.B = e->wei + b_off;
    g.ldb = plan->ldb;
    g.b_prepacked = plan->b_panels_nr > 0;
    g.beta = 0.f;
    g.C = c;
    g.ldc = plan->ldc;
    if (plan->gemm_bias) {
        g.bias_kind = tsr_gemm_bias_per_col;
        g.bias = e->bias + e->pd->md[TSR_MD_BIAS].offset0;
    }
    if (plan->with_epilogue) {
        g.epilogue = epilogue_tile;
        g.epilogue_ctx = &t;
    }
    g.scratch = gemm_scratch;
    g.scratch_size = gemm_scratch_size;
    g.team_nthr = team;
    g.team_ithr = 0;
    return tsr_gemm_f32(&g);
}

tsr_status_t gemm_batched_run(const gemm_batched_plan_t *plan, void *scratchpad,
                              gemm_batched_one_fn one, const void *arg) {
    char *scratch = scratchpad;
    const size_t thr_bytes = plan->thr_gemm_scratch + plan->c_buf_bytes;
    tsr_status_t status = tsr_success;
    if (plan->batch_parallel) {
        /* One whole GEMM per thread, each with its own scratch slice. */
#pragma omp parallel num_threads(plan->nthr)
        {
            const int ithr = omp_get_thread_num();
            char *mine = scratch + (size_t)ithr * thr_bytes;
            void *c_buf = mine + plan->thr_gemm_scratch;
#pragma omp for schedule(static)
            for (int64_t b = 0; b < plan->batch; b++) {
                tsr_status_t st =
                        one(arg, b, mine, plan->thr_gemm_scratch, c_buf, 1);
                if (st != tsr_success) {
#pragma omp critical
                    status = st;
                }
            }
        }
        return status;
    }
    /* The GEMM packs into nthr slices at the front of the scratchpad; C
     * lives after all of them. */
    const size_t gemm_bytes = (size_t)plan->nthr * plan->thr_gemm_scratch;
    void *c_buf = scratch + gemm_bytes;
    for (int64_t b = 0; b < plan->batch && status == tsr_success; b++)
        status = one(arg, b, scratch, gemm_bytes, c_buf, 0);
    return status;
}

static tsr_status_t run_plan(const gemm_batched_plan_t *plan,
                             const struct tsr_primitive_desc *pd,
                             const tsr_epilogue_t *ep,
                             const tsr_exec_ctx_t *ctx) {
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(ep, ctx, &rt);
    const f32_exec_t e = {plan,
                          pd,
                          ep,
                          &rt,
                          tsr_ctx_data(ctx, TSR_ARG_SRC),
                          tsr_ctx_data(ctx, TSR_ARG_WEIGHTS),
                          tsr_ctx_data(ctx, TSR_ARG_BIAS),
                          tsr_ctx_data(ctx, TSR_ARG_DST),
                          gemm_batched_rows_uniform(ep, &pd->md[TSR_MD_DST])};
    return gemm_batched_run(plan, ctx->scratchpad, run_one, &e);
}

tsr_status_t gemm_batched_execute(const struct tsr_primitive_desc *pd,
                                  const tsr_exec_ctx_t *ctx,
                                  tsr_epilogue_init_fn epilogue_init) {
    const gemm_batched_plan_t *plan = pd->impl_data;
    /* The ISA cap froze when the pd chose the panels' width. */
    if (plan->b_panels_nr > 0 &&
        plan->b_panels_nr != tsr_gemm_f32_prepacked_nr())
        return tsr_runtime_error;
    /* Set up again per run: it points into the pd's own attributes. */
    tsr_epilogue_t ep;
    tsr_status_t st = epilogue_init(pd, &ep);
    if (st != tsr_success)
        return st;
    return run_plan(plan, pd, &ep, ctx);
}
