/* One problem on oneDNN, whatever its driver: the memories the primitive
 * descriptor asks for, filled with the values Tessera's run gets, the run,
 * the driver's own reference check, --mode=B, the timing and the
 * performance line; the oneDNN twin of common/bench_run.h. A driver
 * supplies only what is its own through onednn_run_ops_t: the op
 * descriptor (create), the reference and comparison, the perf line.
 * Built only with oneDNN (BENCHDNN_WITH_ONEDNN). */
#ifndef BENCHDNN_ONEDNN_ONEDNN_RUN_H
#define BENCHDNN_ONEDNN_ONEDNN_RUN_H

#include <stdint.h>

#include "common/attr.h"
#include "common/bench_run.h"
#include "common/benchdnn.h"
#include "onednn/onednn_common.h"

#define ONEDNN_RUN_MAX_ARGS (8 + BENCH_MAX_POST_OPS)

typedef struct onednn_run onednn_run_t;

typedef struct {
    /* Harness checks, the op descriptor and attributes, then r->attr and
     * r->pd (onednn_pd_create) and r->fill. 0 with res set when the
     * problem stops. */
    int (*create)(onednn_run_t *r, res_t *res);
    /* f32 elements the reference takes beyond the dense copies of the
     * memories (NULL: none). */
    double (*ref_elems)(const void *prb);
    /* The reference of f's inputs into f->ref, compared with f->got. */
    void (*check)(const void *prb, const bench_f32_t *f, res_t *res);
    /* --mode=B: two runs' dst must agree bit for bit. */
    void (*compare_bitwise)(const void *prb, const float *first,
                            const float *second_run, res_t *res);
    /* The performance line, given the bytes of the memories. */
    void (*report_perf)(const void *prb, const char *repro, const char *impl,
                        double ibytes, double obytes, const bench_timer_t *t);
    /* Values of binary post-op `index`'s second input. */
    void (*fill_binary_src1)(tsr_alg_kind_t alg, tsr_data_type_t dt,
                             int post_op_index, float *buf, int64_t n);
} onednn_run_ops_t;

struct onednn_run {
    /* As given to onednn_run_problem. */
    const void *prb; /* the driver's problem */
    const bench_attr_t *battr;
    int with_bias;
    /* Set by ops->create: the fill of each data kind. */
    fill_rule_t fill[BENCH_DATA_COUNT];
    /* Owned. */
    dnnl_primitive_attr_t attr;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t src, wei, bia, dst, scratchpad;
    dnnl_memory_t bin[BENCH_MAX_POST_OPS];
    bench_f32_t f;
    int nargs;
    dnnl_exec_arg_t args[ONEDNN_RUN_MAX_ARGS];
};

/* A memory descriptor from a driver's tag (meta-tags resolved for the
 * rank, see onednn_md_init); 0 with res UNIMPLEMENTED and oneDNN's reason
 * when oneDNN cannot describe it. */
int onednn_run_md_init(dnnl_memory_desc_t *md, int ndims, const int64_t *dims,
                       tsr_data_type_t dt, const char *tag, res_t *res);

/* r->attr from the problem's attributes and r->pd of `op_desc` (the first
 * implementation --impl/--skip-impl allow, named in res->impl_name); 0
 * with res set when oneDNN cannot express or run it. */
int onednn_run_create_pd(onednn_run_t *r, const_dnnl_op_desc_t op_desc,
                         const onednn_attr_shape_t *shape, res_t *res);

/* Creates, runs, checks and times problem `prb` (the driver's) on oneDNN
 * per bench_settings.mode; the outcome lands in `res`, everything created
 * is released. */
void onednn_run_problem(const onednn_run_ops_t *ops, const void *prb,
                        const bench_attr_t *attr, int with_bias,
                        const char *repro, res_t *res);

#endif
