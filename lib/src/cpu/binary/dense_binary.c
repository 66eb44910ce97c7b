/* Dense binary: src0 and dst of one dense layout (any, blocked included),
 * src1 of that layout and shape, or plain and broadcast along any dims
 * (scalar, per channel, per anything: see bcast_plan.h). Rows go to the
 * row kernel of the ISA (AVX-512, AVX2, or portable C for every data
 * type), which converts the types in registers. Post-ops sum and eltwise
 * go through the shared epilogue on a chunk of f32 results. */
#include <stdlib.h>

#include "common/memory_desc.h"
#include "common/utils.h"
#include "cpu/binary/bcast_plan.h"
#include "cpu/binary/binary_common.h"
#include "cpu/binary/binary_impls.h"
#include "cpu/binary/binary_kernel.h"
#include "cpu/common/epilogue_f32.h"

/* Non-temporal stores from this size of dst on: far beyond the caches,
 * where a store that does not read its line first saves a quarter of the
 * traffic. */
#define DENSE_BINARY_NT_MIN_BYTES ((size_t)32 << 20)
/* f32 results per epilogue call. */
#define CHUNK 512

typedef struct {
    bcast_plan_t plan;
    binary_kernel_fn kernel;
    int with_post_ops;
    /* The attributes the epilogue applies: the post-ops and round mode
     * only (the scales belong to the sources). */
    struct tsr_primitive_attr ep_attr;
    tsr_epilogue_t ep;
} dense_binary_t;

static void dense_binary_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

static int post_ops_position_free(const struct tsr_post_ops *po) {
    for (int i = 0; i < po->len; i++)
        if (po->entry[i].kind != tsr_post_op_sum &&
            po->entry[i].kind != tsr_post_op_eltwise)
            return 0;
    return 1;
}

static tsr_status_t dense_binary_init_with(struct tsr_primitive_desc *pd,
                                           binary_kernel_fn kernel,
                                           int vec_types_only) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    if (!binary_attr_ok(attr) || !post_ops_position_free(&attr->post_ops))
        return tsr_unimplemented;
    tsr_status_t st = binary_resolve_any(pd);
    if (st != tsr_success)
        return st;
    const tsr_memory_desc_t *src0 = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *src1 = &pd->md[TSR_MD_SRC_1];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    for (int d = 0; d < dst->ndims; d++)
        if (src0->dims[d] != dst->dims[d])
            return tsr_unimplemented;
    if (!md_same_layout(src0, dst))
        return tsr_unimplemented;
    if (vec_types_only && (!binary_kernel_vec_dt_ok(src0->data_type) ||
                           !binary_kernel_vec_dt_ok(src1->data_type) ||
                           !binary_kernel_vec_dt_ok(dst->data_type)))
        return tsr_unimplemented;
    dense_binary_t *db = calloc(1, sizeof(*db));
    if (!db)
        return tsr_out_of_memory;
    if (!bcast_plan_init(&db->plan, dst, src1)) {
        free(db);
        return tsr_unimplemented;
    }
    db->kernel = kernel;
    db->with_post_ops = attr->post_ops.len > 0;
    if (db->with_post_ops) {
        tsr_attr_init_default(&db->ep_attr);
        db->ep_attr.round_mode = attr->round_mode;
        db->ep_attr.post_ops = attr->post_ops;
        st = tsr_epilogue_init(&db->ep, &db->ep_attr, dst, NULL,
                               dst->ndims > 1 ? 1 : 0, 1, 0);
        if (st != tsr_success) {
            free(db);
            return st;
        }
    }
    pd->impl_data = db;
    return tsr_success;
}

typedef struct {
    const dense_binary_t *db;
    binary_kernel_t k;
    const char *src0, *src1;
    char *dst;
    size_t es0, es1, esd;
    const tsr_memory_desc_t *dst_md;
    tsr_epilogue_rt_t ep_rt;
} dense_ctx_t;

/* Each row's results into an f32 chunk, then through the epilogue into
 * dst (the sum reads dst before it is written). */
static void rows_post_ops(void *ctx, tsr_dim_t data_off, tsr_dim_t op_off,
                          tsr_dim_t rows, tsr_dim_t n) {
    const dense_ctx_t *c = ctx;
    binary_kernel_t k = c->k;
    k.dst_dt = tsr_f32;
    k.nt_store = 0;
    const tsr_dim_t zero_pos[TSR_MAX_NDIMS] = {0};
    float chunk[CHUNK];
    for (tsr_dim_t r = 0; r < rows; r++)
        for (tsr_dim_t i = 0; i < n; i += CHUNK) {
            const tsr_dim_t m = TSR_MIN(CHUNK, n - i);
            const tsr_dim_t off = data_off + r * c->k.ld + i;
            const tsr_dim_t off1 =
                    op_off + r * c->k.src1_ld + (c->k.src1_bcast ? 0 : i);
            c->db->kernel(&k, c->src0 + off * c->es0, c->src1 + off1 * c->es1,
                          chunk, 1, m);
            tsr_epilogue_apply_row(&c->db->ep, &c->ep_rt, chunk, m, zero_pos,
                                   c->dst_md->ndims - 1, c->dst, off, 1);
        }
}

static tsr_status_t dense_binary_execute(const struct tsr_primitive_desc *pd,
                                         const tsr_exec_ctx_t *ctx) {
    const dense_binary_t *db = pd->impl_data;
    const tsr_memory_desc_t *src0_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *src1_md = &pd->md[TSR_MD_SRC_1];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    binary_rt_t rt;
    binary_rt_init(&rt, pd, ctx);
    dense_ctx_t c = {.db = db, .dst_md = dst_md};
    c.es0 = tsr_data_type_size(src0_md->data_type);
    c.es1 = tsr_data_type_size(src1_md->data_type);
    c.esd = tsr_data_type_size(dst_md->data_type);
    c.src0 = (const char *)rt.src0 + src0_md->offset0 * (tsr_dim_t)c.es0;
    c.src1 = (const char *)rt.src1 + src1_md->offset0 * (tsr_dim_t)c.es1;
    c.dst = (char *)rt.dst + dst_md->offset0 * (tsr_dim_t)c.esd;
    c.k = (binary_kernel_t){
            .op = pd->op.binary.alg_kind,
            .src0_dt = src0_md->data_type,
            .src1_dt = src1_md->data_type,
            .dst_dt = dst_md->data_type,
            .scale0 = rt.scale0,
            .scale1 = rt.scale1,
            .round_mode = pd->attr.round_mode,
            .nt_store = tsr_memory_desc_get_size(dst_md) >=
                        DENSE_BINARY_NT_MIN_BYTES,
            .ld = db->plan.ld,
            .src1_ld = db->plan.op_ld,
            .src1_bcast = db->plan.op_bcast,
    };
    if (db->with_post_ops) {
        tsr_epilogue_resolve(&db->ep, ctx, &c.ep_rt);
        bcast_plan_run(&db->plan, rows_post_ops, &c);
    } else {
        binary_kernel_run_plan(&db->plan, db->kernel, &c.k, c.src0, c.src1,
                               c.dst);
    }
    md_zero_pad(dst_md, rt.dst);
    return tsr_success;
}

static tsr_status_t dense_binary_init_avx512(struct tsr_primitive_desc *pd) {
    return dense_binary_init_with(pd, binary_kernel_rows_avx512, 1);
}
static tsr_status_t dense_binary_init_avx2(struct tsr_primitive_desc *pd) {
    return dense_binary_init_with(pd, binary_kernel_rows_avx2, 1);
}
static tsr_status_t dense_binary_init_c(struct tsr_primitive_desc *pd) {
    return dense_binary_init_with(pd, binary_kernel_rows_c, 0);
}

const tsr_impl_t tsr_dense_binary_avx512_impl = {
        .name = "avx512_core:dense",
        .isa = tsr_cpu_isa_avx512_core,
        .init = dense_binary_init_avx512,
        .execute = dense_binary_execute,
        .fini = dense_binary_fini,
};

const tsr_impl_t tsr_dense_binary_avx2_impl = {
        .name = "avx2:dense",
        .isa = tsr_cpu_isa_avx2,
        .init = dense_binary_init_avx2,
        .execute = dense_binary_execute,
        .fini = dense_binary_fini,
};

const tsr_impl_t tsr_dense_binary_c_impl = {
        .name = "simple:dense",
        .isa = tsr_cpu_isa_generic,
        .init = dense_binary_init_c,
        .execute = dense_binary_execute,
        .fini = dense_binary_fini,
};
