/* Dense PReLU backward: src, diff_dst and diff_src of one dense layout,
 * weights dense (plain, any dims broadcast: per channel, scalar, ...) with
 * diff_weights of their layout, and few enough weights that every chunk of
 * the work keeps its own partial gradient in the scratchpad. The walk is
 * cut into a fixed number of chunks (from the problem alone); the chunks'
 * partial sums are then added in chunk order, so the result has the same
 * bits on any number of threads. */
#include <stdlib.h>
#include <string.h>

#include "common/data_type.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "cpu/binary/bcast_plan.h"
#include "cpu/prelu/prelu_bwd_kernel.h"
#include "cpu/prelu/prelu_common.h"
#include "cpu/prelu/prelu_impls.h"

/* Weights points the partial sums may hold, per chunk. */
#define MAX_WEIGHTS ((tsr_dim_t)1 << 16)
/* Chunks: enough for the threads of a big machine, few enough that the
 * partial sums stay small. */
#define MAX_CHUNKS 64
#define MIN_CHUNK ((tsr_dim_t)1 << 14)

typedef struct {
    bcast_plan_t plan;
    prelu_bwd_kernel_fn kernel;
    tsr_dim_t nchunks, nweights;
} dense_prelu_bwd_t;

static void dense_prelu_bwd_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

static tsr_status_t init_with(struct tsr_primitive_desc *pd,
                              prelu_bwd_kernel_fn kernel, int f32_only) {
    if (!prelu_is_bwd(pd) || !prelu_attr_ok(&pd->attr))
        return tsr_unimplemented;
    const tsr_status_t st = prelu_resolve_any(pd);
    if (st != tsr_success)
        return st;
    if (!prelu_data_types_ok(pd))
        return tsr_unimplemented;
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dd = &pd->md[TSR_MD_DIFF_DST];
    const tsr_memory_desc_t *ds = &pd->md[TSR_MD_DIFF_SRC];
    const tsr_memory_desc_t *dw = &pd->md[TSR_MD_DIFF_WEIGHTS];
    if (!md_same_layout(src, dd) || !md_same_layout(src, ds) ||
        !bcast_same_dims(wei, dw) || !md_same_layout(wei, dw))
        return tsr_unimplemented;
    static const tsr_md_slot_t slots[] = {TSR_MD_SRC, TSR_MD_WEIGHTS,
                                          TSR_MD_DIFF_DST, TSR_MD_DIFF_SRC,
                                          TSR_MD_DIFF_WEIGHTS};
    for (size_t i = 0; f32_only && i < sizeof(slots) / sizeof(slots[0]); i++)
        if (pd->md[slots[i]].data_type != tsr_f32)
            return tsr_unimplemented;
    /* Dense weights: offsets 0 .. nweights - 1 are all points. */
    const tsr_dim_t nweights = tsr_memory_desc_nelems(wei);
    if (nweights > MAX_WEIGHTS ||
        tsr_memory_desc_get_size(wei) !=
                (size_t)nweights * tsr_data_type_size(wei->data_type))
        return tsr_unimplemented;
    dense_prelu_bwd_t *d = calloc(1, sizeof(*d));
    if (!d)
        return tsr_out_of_memory;
    if (!bcast_plan_init(&d->plan, src, wei)) {
        free(d);
        return tsr_unimplemented;
    }
    d->kernel = kernel;
    d->nweights = nweights;
    d->nchunks = TSR_MAX(
            1, TSR_MIN(MAX_CHUNKS, tsr_div_up(d->plan.total, MIN_CHUNK)));
    pd->impl_data = d;
    pd->scratchpad_size = (size_t)(d->nchunks * nweights) * sizeof(float);
    return tsr_success;
}

typedef struct {
    const dense_prelu_bwd_t *d;
    prelu_bwd_kernel_t k;
    const char *src, *wei, *dd;
    char *ds;
    float *partial;
    tsr_dim_t es_src, es_wei, es_dd, es_ds;
} bwd_ctx_t;

static void bwd_rows(void *ctx, tsr_dim_t chunk, tsr_dim_t data_off,
                     tsr_dim_t op_off, tsr_dim_t rows, tsr_dim_t n) {
    const bwd_ctx_t *c = ctx;
    c->d->kernel(&c->k, c->src + data_off * c->es_src,
                 c->wei + op_off * c->es_wei, c->dd + data_off * c->es_dd,
                 c->ds + data_off * c->es_ds,
                 c->partial + chunk * c->d->nweights + op_off, rows, n);
}

static const char *data_at(const tsr_exec_ctx_t *ctx, int arg,
                           const tsr_memory_desc_t *md) {
    return (const char *)tsr_ctx_data(ctx, arg) +
           md->offset0 * (tsr_dim_t)tsr_data_type_size(md->data_type);
}

static tsr_status_t execute(const struct tsr_primitive_desc *pd,
                            const tsr_exec_ctx_t *ctx) {
    const dense_prelu_bwd_t *d = pd->impl_data;
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei_md = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dd_md = &pd->md[TSR_MD_DIFF_DST];
    const tsr_memory_desc_t *ds_md = &pd->md[TSR_MD_DIFF_SRC];
    const tsr_memory_desc_t *dw_md = &pd->md[TSR_MD_DIFF_WEIGHTS];
    bwd_ctx_t c = {
            .d = d,
            .k = {.src_dt = src_md->data_type,
                  .wei_dt = wei_md->data_type,
                  .dd_dt = dd_md->data_type,
                  .ds_dt = ds_md->data_type,
                  .round_mode = pd->attr.round_mode,
                  .ld = d->plan.ld,
                  .wei_ld = d->plan.op_ld,
                  .wei_bcast = d->plan.op_bcast},
            .src = data_at(ctx, TSR_ARG_SRC, src_md),
            .wei = data_at(ctx, TSR_ARG_WEIGHTS, wei_md),
            .dd = data_at(ctx, TSR_ARG_DIFF_DST, dd_md),
            .ds = (char *)data_at(ctx, TSR_ARG_DIFF_SRC, ds_md),
            .partial = ctx->scratchpad,
            .es_src = (tsr_dim_t)tsr_data_type_size(src_md->data_type),
            .es_wei = (tsr_dim_t)tsr_data_type_size(wei_md->data_type),
            .es_dd = (tsr_dim_t)tsr_data_type_size(dd_md->data_type),
            .es_ds = (tsr_dim_t)tsr_data_type_size(ds_md->data_type),
    };
    memset(c.partial, 0, pd->scratchpad_size);
    bcast_plan_run_chunks(&d->plan, d->nchunks, bwd_rows, &c);

    char *dw = (char *)data_at(ctx, TSR_ARG_DIFF_WEIGHTS, dw_md);
    const tsr_dim_t nw = d->nweights, nchunks = d->nchunks;
#pragma omp parallel for schedule(static) if (nw * nchunks >= 4096)
    for (tsr_dim_t j = 0; j < nw; j++) {
        float sum = 0.f;
        for (tsr_dim_t ch = 0; ch < nchunks; ch++)
            sum += c.partial[ch * nw + j];
        tsr_store_f32_inline(dw_md->data_type, dw, j, sum, pd->attr.round_mode);
    }
    md_zero_pad(ds_md, tsr_ctx_data(ctx, TSR_ARG_DIFF_SRC));
    return tsr_success;
}

static tsr_status_t init_avx512(struct tsr_primitive_desc *pd) {
    return init_with(pd, prelu_bwd_rows_avx512, 1);
}
static tsr_status_t init_avx2(struct tsr_primitive_desc *pd) {
    return init_with(pd, prelu_bwd_rows_avx2, 1);
}
static tsr_status_t init_c(struct tsr_primitive_desc *pd) {
    return init_with(pd, prelu_bwd_rows_c, 0);
}

const tsr_impl_t tsr_dense_prelu_bwd_avx512_impl = {
        .name = "avx512_core:dense",
        .isa = tsr_cpu_isa_avx512_core,
        .init = init_avx512,
        .execute = execute,
        .fini = dense_prelu_bwd_fini,
};

const tsr_impl_t tsr_dense_prelu_bwd_avx2_impl = {
        .name = "avx2:dense",
        .isa = tsr_cpu_isa_avx2,
        .init = init_avx2,
        .execute = execute,
        .fini = dense_prelu_bwd_fini,
};

const tsr_impl_t tsr_dense_prelu_bwd_c_impl = {
        .name = "simple:dense",
        .isa = tsr_cpu_isa_generic,
        .init = init_c,
        .execute = execute,
        .fini = dense_prelu_bwd_fini,
};
