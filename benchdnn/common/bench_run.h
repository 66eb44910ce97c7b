/* What every driver's run of one problem shares, on the library
 * (bench_run_t) and on any library (bench_f32_t, bench_set_state): the
 * harness' dense f32 copies, the memories and their fills, the
 * execution arguments, and the pipeline create -> fill -> run -> check
 * -> bitwise -> time. A driver supplies only what is its own through
 * bench_run_ops_t: the op descriptor, the fill rules, the reference and
 * the performance line. */
#ifndef BENCHDNN_COMMON_BENCH_RUN_H
#define BENCHDNN_COMMON_BENCH_RUN_H

#include <stdint.h>

#include "common/attr.h"
#include "common/bench_prim.h"
#include "common/benchdnn.h"
#include "common/dnn_mem.h"
#include "common/fill_compare.h"
#include "tessera.h"

#define BENCH_RUN_MAX_ARGS BENCH_EXEC_MAX_ARGS

/* Sets res's state and reason. */
void bench_set_state(res_t *res, res_state_t state, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* Library status of a creation step -> problem state, "WHAT: status". */
void bench_set_status_state(res_t *res, tsr_status_t st, const char *what);

/* n floats (at least one); NULL when out of memory. */
float *bench_alloc_f32(int64_t n);

/* The harness' dense f32 copies of one problem: the inputs as the
 * memories hold them, dst before execution (initial fill and as the sum
 * post-op reads it), the reference and the result, and each binary
 * post-op's second input. Zero-initialized; bench_f32_free frees what is
 * set. */
typedef struct {
    float *src, *wei, *bia, *dst_init, *dst_old, *ref, *got;
    float *bin[BENCH_MAX_POST_OPS];
} bench_f32_t;

/* What a reference reads and writes: dense logical f32 buffers. */
typedef struct {
    const float *src, *wei, *bia; /* bia may be NULL */
    const float *dst_old;   /* dst before execution, as the sum post-op reads
                               it; may be NULL without a sum post-op */
    float *const *bin_src1; /* per post-op, dense over its dims, or NULL */
    float *dst;             /* output */
} bench_ref_args_t;

/* The reference's view of `f`: the copies in, f->ref out. */
bench_ref_args_t bench_f32_ref_args(const bench_f32_t *f);

void bench_f32_free(bench_f32_t *f);
/* dst_old, ref and got, of n points each; 0 when out of memory. */
int bench_f32_alloc_dst(bench_f32_t *f, int64_t n);

/* --mode=B: `first` and `second_run` (dense f32 dst, n points) must agree
 * bit for bit under `cmp` (thresholds are zeroed, all zeros trusted);
 * FAILED when not, PASSED when res was EXECUTED. */
void bench_compare_bitwise(const compare_cfg_t *cmp, const float *first,
                           const float *second_run, int64_t n, res_t *res);

/* The kinds of data a problem fills, indexing bench_run_t.fill. */
typedef enum {
    BENCH_DATA_SRC = 0,
    BENCH_DATA_WEI,
    BENCH_DATA_BIA,
    BENCH_DATA_DST, /* the values dst holds before execution (sum post-op) */
    BENCH_DATA_COUNT,
} bench_data_kind_t;

/* One problem on the library (see bench_run_problem). */
typedef struct bench_run bench_run_t;

typedef struct {
    /* Harness checks, the op descriptor and attributes, then r->pd by
     * bench_run_create_pd; also sets r->fill and r->quant_count.
     * 0 with res set when the problem stops. */
    int (*create)(bench_run_t *r, res_t *res);
    /* f32 elements the harness' copies and reference take. */
    double (*harness_elems)(const bench_run_t *r);
    /* The reference into r->f.ref and its comparison with r->f.got. */
    void (*check)(bench_run_t *r, res_t *res);
    /* Comparison settings and dst points for --mode=B. */
    void (*bitwise_cfg)(const bench_run_t *r, compare_cfg_t *cmp, int64_t *n);
    /* The performance line, given the bytes of the memories. */
    void (*report_perf)(const bench_run_t *r, const char *repro, double ibytes,
                        double obytes, res_t *res);
    /* Values of binary post-op `index`'s second input. */
    bench_fill_binary_src1_fn fill_binary_src1;
} bench_run_ops_t;

struct bench_run {
    /* As given to bench_run_problem. */
    const void *prb; /* the driver's problem */
    const bench_attr_t *battr;
    int with_bias;
    int64_t dst_nelems;
    /* Set by ops->create: the fill of each data kind and the number of
     * values of each scale / zero point (-1: not set). */
    fill_rule_t fill[BENCH_DATA_COUNT];
    int64_t scale_count[QARG_COUNT], zp_count[QARG_COUNT];
    /* Owned. */
    tsr_primitive_attr_t attr;
    tsr_primitive_desc_t pd;
    tsr_primitive_t prim;
    dnn_mem_t src, wei, bia, dst, scratchpad;
    bench_attr_mems_t attr_mems;
    bench_f32_t f;
    int nargs;
    tsr_exec_arg_t args[BENCH_RUN_MAX_ARGS];
};

/* The primitive descriptor of `op_desc` with r->attr, at the first
 * implementation --impl/--skip-impl allow; its name goes to res. */
int bench_run_create_pd(bench_run_t *r, const void *op_desc, res_t *res);
const tsr_memory_desc_t *bench_run_md(const bench_run_t *r, tsr_query_t q);
/* Creates, runs, checks and times problem `prb` (the driver's) with
 * attributes `attr` per bench_settings.mode; the outcome lands in `res`,
 * everything created is released. */
void bench_run_problem(const bench_run_ops_t *ops, const void *prb,
                       const bench_attr_t *attr, int with_bias,
                       int64_t dst_nelems, const char *repro, res_t *res);

#endif
