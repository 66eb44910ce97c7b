/* The oneDNN comparison mode (--lib=onednn|both, see common/bench_lib.h):
 * each driver's problem run on oneDNN, checked by the driver's own
 * reference and comparison, timed by the harness timer and reported with
 * "onednn:" + oneDNN's implementation name as %impl%.
 *
 * Built when CMake finds oneDNN (TSR_WITH_ONEDNN, BENCHDNN_WITH_ONEDNN
 * defined); without it the declarations below are stubs that report
 * UNIMPLEMENTED, although --lib=onednn is refused as a usage error first.
 *
 * The argument-keyed drivers (eltwise, binary, ...) run oneDNN on their
 * own pipeline instead: onednn_args.h and benchdnn/common/README.md.
 *
 * Adding a driver to this older pipeline (conv, ip, matmul):
 *   1. benchdnn/onednn/<driver>_onednn.c defining
 *        void <driver>_onednn_run_problem(const <driver>_prb_t *p,
 *                                         const char *repro, res_t *res);
 *      which calls onednn_run_problem (onednn_run.h) with a create
 *      callback building the oneDNN op descriptor (memory descriptors by
 *      onednn_run_md_init, attributes and implementation by
 *      onednn_run_create_pd); fills, reference, comparison and the perf
 *      line come from the driver's shared helpers, as conv_onednn.c does
 *      with conv.h's and mm_onednn.c with mm_task.h's.
 *   2. Its declaration and stub below.
 *   3. In the driver's loop, bench_run_libs() with a callback that calls
 *      it when lib == BENCH_LIB_ONEDNN (conv_bench.c: run_on_lib; the
 *      opt_driver.h drivers set opt_driver_t.run_onednn). */
#ifndef BENCHDNN_ONEDNN_ONEDNN_H
#define BENCHDNN_ONEDNN_ONEDNN_H

#include <stdio.h>

#include "common/benchdnn.h"
#include "conv/conv.h"
#include "matmul/mm_task.h"

#ifdef BENCHDNN_WITH_ONEDNN

void conv_onednn_run_problem(const conv_prb_t *p, const char *repro,
                             res_t *res);
/* The matmul and inner product drivers' task (matmul/mm_task.h). */
void mm_onednn_run_task(const mm_task_t *t, const char *repro, res_t *res);

#else

static inline void onednn_unavailable(res_t *res) {
    res->state = STATE_UNIMPLEMENTED;
    snprintf(res->reason, sizeof(res->reason),
             "this benchdnn was built without oneDNN");
}

static inline void conv_onednn_run_problem(const conv_prb_t *p,
                                           const char *repro, res_t *res) {
    (void)p;
    (void)repro;
    onednn_unavailable(res);
}

static inline void mm_onednn_run_task(const mm_task_t *t, const char *repro,
                                      res_t *res) {
    (void)t;
    (void)repro;
    onednn_unavailable(res);
}

#endif

#endif
