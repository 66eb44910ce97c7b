/* benchdnn eltwise driver (DRIVERS.md §3):
 *
 *   benchdnn --eltwise [--dir=FWD_D|FWD_I|BWD_D] [--dt=f32|bf16|f16|s32|s8|u8]
 *                      [--tag=abx] [--alg=relu] [--alpha=..] [--beta=..]
 *                      [--mb=N] [--inplace=BOOL] [--attr-post-ops=..]
 *                      [--attr-scratchpad=..] NxC[xD][xH][xW][_nNAME]...
 *
 * Lists multiply in that order (alpha and beta default to {0, 0.25,
 * -0.25}, so a bare problem runs 9 cases). A backward problem runs the
 * forward-training primitive first: its dst feeds the *_dst algorithms.
 * The run is the argument-keyed pipeline (common/bench_args.h). */
#ifndef BENCHDNN_ELTWISE_ELTWISE_H
#define BENCHDNN_ELTWISE_ELTWISE_H

#include <stddef.h>

#include "common/attr.h"
#include "common/bench_lib.h"
#include "common/benchdnn.h"
#include "common/dims_desc.h"
#include "common/opt_lists.h"
#include "tessera.h"

/* ------------------------------------------------------------------------ */
/* Algorithms (eltwise_alg.c) */

typedef struct {
    const char *name; /* as repro lines print it: "relu_dst" */
    tsr_alg_kind_t alg;
    tsr_alg_kind_t math; /* the forward function: relu for relu_dst */
    int use_dst;         /* backward reads dst */
} eltwise_alg_info_t;

/* The algorithm named `s` (case-insensitive; "relu", "eltwise_relu",
 * "relu_dst", "eltwise_relu_use_dst_for_bwd", "brelu", ...), or NULL. */
const eltwise_alg_info_t *eltwise_alg_find(const char *s);
/* Every algorithm, once each, in table order (i < eltwise_alg_count()). */
int eltwise_alg_count(void);
const eltwise_alg_info_t *eltwise_alg_at(int i);

/* ------------------------------------------------------------------------ */
/* The problem (eltwise_bench.c) */

typedef struct {
    dims_desc_t desc;        /* dims[0] already replaced by --mb when given */
    char dir[OPT_VALUE_LEN]; /* as given, upper case */
    int is_fwd, is_inference;
    tsr_data_type_t dt;
    char dt_text[OPT_VALUE_LEN];
    char tag[OPT_VALUE_LEN];
    const eltwise_alg_info_t *alg;
    float alpha, beta; /* as given */
    int inplace;
    bench_attr_t attr;
} eltwise_prb_t;

void eltwise_prb_repro(const eltwise_prb_t *p, int canonical, char *buf,
                       size_t len);
int eltwise_bench(int ntokens, char **tokens);

/* ------------------------------------------------------------------------ */
/* Reference math (eltwise_ref.c), in double, independent of the library */

/* The alpha and beta a problem means: v2.x batch files pass 0 where the
 * v3.x definitions take a parameter (soft_relu alpha 0 -> 1; hardswish
 * alpha = beta = 0 -> 1/6, 1/2). */
void eltwise_effective_params(tsr_alg_kind_t alg, float alpha, float beta,
                              float *eff_alpha, float *eff_beta);
/* y = f(x) of forward algorithm `alg` (the *_dst variants as their base;
 * alpha, beta effective). */
double eltwise_ref_fwd(tsr_alg_kind_t alg, double x, double alpha, double beta);
/* diff_src = dd * f'(.) of algorithm `alg`: `s` is x, or y = f(x) for the
 * *_use_dst_for_bwd algorithms. */
double eltwise_ref_bwd(tsr_alg_kind_t alg, double dd, double s, double alpha,
                       double beta);

/* ------------------------------------------------------------------------ */
/* The run (eltwise_run.c) */

/* Why the problem is not run (DRIVERS.md §3 skips), or NULL. */
const char *eltwise_skip_reason(const eltwise_prb_t *p);
/* The input values: index mod 13 picks a category (small integers, small
 * fractions, their tens, 88/22/44 plus a fraction, alpha, beta; log: an
 * infinity instead of beta); `seed` differs per argument. */
float eltwise_fill_value(const eltwise_prb_t *p, uint64_t seed, int64_t i);
/* The relative threshold of the check (DRIVERS.md §3). */
float eltwise_threshold(const eltwise_prb_t *p);
/* 1 when a mismatch at input value `s` (x, or y for *_dst backward) is
 * accepted for the cancellation it suffers, as an absolute diff <= trh. */
int eltwise_cancellation_expected(const eltwise_prb_t *p, float s);
/* The share of zeros past which the result is MISTRUSTED. */
float eltwise_zero_trust(const eltwise_prb_t *p);
/* The checks and the declared arguments both libraries share. */
typedef struct bench_args_run bench_args_run_t;
int eltwise_prepare(bench_args_run_t *r, res_t *res);
/* oneDNN's descriptors of the problem (eltwise_onednn.c, built with
 * oneDNN only). */
int eltwise_onednn_create(bench_args_run_t *r, res_t *res);
/* Runs the problem on `lib`. */
void eltwise_run_problem(const eltwise_prb_t *p, bench_lib_t lib,
                         const char *repro, res_t *res);

#endif
