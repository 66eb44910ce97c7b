/* The portable row kernel (contract in binary_kernel.h). */
#include "cpu/binary/binary_kernel.h"
#include "common/data_type.h"

void binary_kernel_rows_c(const binary_kernel_t *k, const void *src0,
                          const void *src1, void *dst, int64_t rows,
                          int64_t n) {
    for (int64_t r = 0; r < rows; r++) {
        const int64_t off = r * k->ld, off1 = r * k->src1_ld;
        const float b_row =
                k->scale1 * tsr_load_f32_inline(k->src1_dt, src1, off1);
        for (int64_t i = 0; i < n; i++) {
            const float a =
                    k->scale0 * tsr_load_f32_inline(k->src0_dt, src0, off + i);
            const float b =
                    k->src1_bcast
                            ? b_row
                            : k->scale1 * tsr_load_f32_inline(k->src1_dt, src1,
                                                              off1 + i);
            tsr_store_f32_inline(k->dst_dt, dst, off + i,
                                 binary_kernel_op(k->op, a, b), k->round_mode);
        }
    }
}

typedef struct {
    binary_kernel_fn fn;
    binary_kernel_t k;
    const char *src0, *src1;
    char *dst;
    tsr_dim_t es0, es1, esd;
} run_ctx_t;

static void run_rows(void *ctx, tsr_dim_t data_off, tsr_dim_t op_off,
                     tsr_dim_t rows, tsr_dim_t n) {
    const run_ctx_t *c = ctx;
    c->fn(&c->k, c->src0 + data_off * c->es0, c->src1 + op_off * c->es1,
          c->dst + data_off * c->esd, rows, n);
}

void binary_kernel_run_plan(const bcast_plan_t *plan, binary_kernel_fn fn,
                            const binary_kernel_t *k, const void *src0,
                            const void *src1, void *dst) {
    run_ctx_t c = {fn,
                   *k,
                   src0,
                   src1,
                   dst,
                   (tsr_dim_t)tsr_data_type_size(k->src0_dt),
                   (tsr_dim_t)tsr_data_type_size(k->src1_dt),
                   (tsr_dim_t)tsr_data_type_size(k->dst_dt)};
    c.k.ld = plan->ld;
    c.k.src1_ld = plan->op_ld;
    c.k.src1_bcast = plan->op_bcast;
    bcast_plan_run(plan, run_rows, &c);
}
