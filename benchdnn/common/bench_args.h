/* One problem's run with its memories keyed by execution argument id, the
 * pipeline every driver after conv/ip/matmul is built on:
 *
 *   create (driver)  -> attributes, [forward pd,] pd (bench_args_create_pd)
 *                       and the declared arguments (bench_args_declare)
 *   memories         -> one per argument the pd (and the forward pd) uses,
 *                       by tsr_primitive_desc_query_arg_usage/_arg_md;
 *                       scratchpad, scales, zero points, binary post-ops
 *   fill             -> each declared input by its fill callback, written
 *                       to the memory and read back: the reference sees
 *                       what the library reads
 *   forward pass     -> a backward problem runs its forward pd first; its
 *                       outputs (DST, WORKSPACE) are the backward inputs
 *   execute, check   -> outputs read to dense f32; the driver's reference
 *                       computes every output from the inputs; each
 *                       checked output is rounded to its data type and
 *                       compared under the driver's compare_cfg_t
 *   modes            -> C (check), P (time), CP, I (create only), B (two
 *                       runs agree bit for bit); L never gets here
 *
 * In place: an output declared `inplace_of` an input uses the input's
 * memory; the input is restored before every execution and the reference
 * keeps its own copy.
 *
 * Both libraries run on this one pipeline: the harness allocates every
 * memory from a Tessera memory descriptor (oneDNN's layouts translated)
 * and converts it to and from f32 with its own code, so the same fills,
 * reference and comparison judge both. A driver gives oneDNN's op
 * descriptor in <drv>/<drv>_onednn.c (ops.create_onednn, onednn/onednn_args.h).
 * See benchdnn/common/README.md for a driver's recipe. */
#ifndef BENCHDNN_COMMON_BENCH_ARGS_H
#define BENCHDNN_COMMON_BENCH_ARGS_H

#include <stdint.h>

#include "common/attr.h"
#include "common/bench_prim.h"
#include "common/benchdnn.h"
#include "common/dnn_mem.h"
#include "common/fill_compare.h"
#include "tessera.h"

/* Sets res's state and reason. */
void bench_set_state(res_t *res, res_state_t state, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* Library status of a creation step -> problem state, "WHAT: status". */
void bench_set_status_state(res_t *res, tsr_status_t st, const char *what);

/* n floats (at least one); NULL when out of memory. */
float *bench_alloc_f32(int64_t n);

/* Memories of one problem: its arguments and the forward pass' (a sum or
 * concat of the library's most sources, dst and a few more). */
#define BENCH_ARGS_MAX (TSR_MAX_MULTIPLE_SRC + 8)

/* Values of argument `arg` of problem `prb` (dense f32 in logical order, n
 * points), before rounding to the memory's data type. A function of the
 * index (or of fixed chunks of indices), never of the thread count. For
 * an output, its contents before execution (what a sum post-op reads). */
typedef void (*bench_fill_fn)(const void *prb, int arg, float *buf, int64_t n);

/* What a driver says about one argument. */
typedef struct {
    int arg;            /* TSR_ARG_* */
    bench_fill_fn fill; /* inputs: required unless the forward pass makes
                           the argument; outputs: NULL means zeros */
    int check;          /* output compared with the reference */
    int inplace_of;     /* output: uses this input's memory (0: own) */
} bench_arg_decl_t;

typedef struct bench_args_run bench_args_run_t;

typedef struct {
    /* Harness checks, r->attr (attr_create_tsr), r->fwd_pd for a backward
     * problem (bench_args_create_fwd_pd), r->pd (bench_args_create_pd) and
     * the arguments (bench_args_declare). 0 with res set when the problem
     * stops. */
    int (*create)(bench_args_run_t *r, res_t *res);
    /* The reference: every checked output (bench_args_ref) from the inputs
     * (bench_args_in), before rounding to the output's data type. 0 with
     * res set when it cannot run. */
    int (*ref)(bench_args_run_t *r, res_t *res);
    /* The comparison of output `arg` (memset to 0 before the call; dt is
     * the memory's). */
    void (*compare_cfg)(const bench_args_run_t *r, int arg, compare_cfg_t *cmp);
    /* The performance line, given the bytes of the memories the primitive
     * reads and writes. */
    void (*report_perf)(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res);
    /* Values of binary post-op `index`'s second input (NULL without binary
     * post-ops). */
    bench_fill_binary_src1_fn fill_binary_src1;
    /* As create, with oneDNN's descriptors (onednn/onednn_args.h); set it
     * with BENCH_ARGS_ONEDNN(fn). NULL: the driver has no oneDNN path. */
    int (*create_onednn)(bench_args_run_t *r, res_t *res);
} bench_args_ops_t;

/* A driver's oneDNN create function where oneDNN is built in, else NULL
 * (the function is then neither compiled nor referenced). */
#ifdef BENCHDNN_WITH_ONEDNN
#define BENCH_ARGS_ONEDNN(fn) (fn)
#else
#define BENCH_ARGS_ONEDNN(fn) NULL
#endif

/* The library calls of a run (common/bench_args_lib.h). */
typedef struct bench_args_lib bench_args_lib_t;

/* One argument's memory and the harness' dense f32 copies of it. */
typedef struct {
    int arg;
    tsr_arg_usage_t usage;        /* in r->pd; unused: a forward-pass memory */
    tsr_arg_usage_t fwd_usage;    /* in r->fwd_pd */
    const bench_arg_decl_t *decl; /* NULL when the driver declared none */
    dnn_mem_t mem;
    int alias; /* index of the entry whose memory this one uses, or -1 */
    int64_t n; /* logical points */
    /* Inputs: the values as the memory holds them. Outputs: the result. */
    float *f32;
    float *init; /* outputs with a fill: the contents before execution */
    float *ref;  /* checked outputs: the reference */
    float *old;  /* outputs: contents before execution as read (sum) */
} bench_arg_mem_t;

struct bench_args_run {
    /* As given to bench_args_run_problem. */
    const void *prb;
    const bench_attr_t *battr;
    const bench_args_lib_t *lib;
    void *lib_state; /* the library's objects (oneDNN's), owned by lib */
    /* Set by ops->create. */
    int ndecl;
    bench_arg_decl_t decl[BENCH_ARGS_MAX];
    int64_t scale_count[QARG_COUNT], zp_count[QARG_COUNT]; /* -1: none */
    /* Owned. Tessera's objects (oneDNN's are in lib_state). */
    tsr_primitive_attr_t attr;
    tsr_primitive_desc_t pd, fwd_pd;
    tsr_primitive_t prim, fwd_prim;
    int nmems;
    bench_arg_mem_t mems[BENCH_ARGS_MAX];
    dnn_mem_t scratchpad;
    bench_attr_mems_t attr_mems;
    float *bin_f32[BENCH_MAX_POST_OPS];
    bench_exec_args_t args, fwd_args;
};

/* The forward-training pd a backward problem pairs with (no attributes, no
 * implementation filter); then bench_args_create_pd passes it as hint. */
int bench_args_create_fwd_pd(bench_args_run_t *r, const void *op_desc,
                             res_t *res);
/* r->pd of `op_desc` with r->attr (and r->fwd_pd as hint), at the first
 * implementation --impl/--skip-impl allow. */
int bench_args_create_pd(bench_args_run_t *r, const void *op_desc, res_t *res);
/* Declares the problem's arguments (n <= BENCH_ARGS_MAX). */
void bench_args_declare(bench_args_run_t *r, const bench_arg_decl_t *decl,
                        int n);

/* The reference's view: an input's values as the memory holds them, an
 * output's contents before execution (decoded with the sum post-op's data
 * type for DST), a checked output's reference buffer, an argument's
 * memory descriptor; NULL when the problem has no such argument. */
const float *bench_args_in(const bench_args_run_t *r, int arg);
const float *bench_args_old(const bench_args_run_t *r, int arg);
float *bench_args_ref(const bench_args_run_t *r, int arg);
const tsr_memory_desc_t *bench_args_md(const bench_args_run_t *r, int arg);

/* Creates, fills, runs, checks and times problem `prb` (the driver's) on
 * library `lib` with attributes `attr` per bench_settings.mode; the
 * outcome lands in res, everything created is released. */
void bench_args_run_problem(const bench_args_ops_t *ops, bench_lib_t lib,
                            const void *prb, const bench_attr_t *attr,
                            const char *repro, res_t *res);

/* A uniform double in [0, 1) from (seed, index): a fill that is a function
 * of the index alone. */
double bench_index_uniform(uint64_t seed, int64_t index);

/* Dense logical coordinates of index `idx` over md's dims ("2,0,5"), for
 * mismatch lines: an idx2str_fn whose ctx is a tsr_memory_desc_t. */
void bench_md_idx2str(const void *md, int64_t idx, char *buf, size_t len);

#endif
