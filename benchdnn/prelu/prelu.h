/* benchdnn prelu driver (DRIVERS.md §16):
 *
 *   benchdnn --prelu [--dir=FWD_D|FWD_I|BWD_DW] [--sdt=SRC:WEI]
 *                    [--stag=SRC:WEI] [--attr-scratchpad=..]
 *                    N0xN1x...:W0xW1x...[_nNAME]...
 *
 * Lists multiply in that order. The weights dims broadcast (trailing 1s
 * added, `256x128x7x7:1x128`); the data (src, dst and the diffs) has src's
 * data type and layout, the diff weights the weights'. --sdt and --stag
 * take one value for both (v3.x) or exactly two. Any backward direction
 * runs backward data and weights (v2.6.3 looks at the forward bit only).
 * The run is the argument-keyed pipeline (common/bench_args.h). */
#ifndef BENCHDNN_PRELU_PRELU_H
#define BENCHDNN_PRELU_PRELU_H

#include <stddef.h>

#include "binary/multi_dims_desc.h"
#include "common/attr.h"
#include "common/benchdnn.h"
#include "common/opt_lists.h"
#include "tessera.h"

typedef struct {
    multi_dims_desc_t desc;  /* [0] src, [1] weights */
    char dir[OPT_VALUE_LEN]; /* as printed, upper case */
    int is_fwd, is_inference;
    tsr_data_type_t dt[2];    /* src, weights; undef: see unsupported */
    char unsupported[16];     /* a data type name Tessera lacks */
    char sdt[OPT_VALUE_LEN];  /* as given, lower case */
    char stag[OPT_VALUE_LEN]; /* as given */
    char tag[2][OPT_VALUE_LEN];
    bench_attr_t attr;
} prelu_prb_t;

void prelu_prb_repro(const prelu_prb_t *p, int canonical, char *buf,
                     size_t len);
int prelu_bench(int ntokens, char **tokens);

/* Reference math (prelu_ref.c), independent of the library: dense
 * row-major f32 buffers, weights broadcast along their dims of size 1. */
void prelu_ref_fwd(const prelu_prb_t *p, const float *src, const float *wei,
                   float *dst);
/* 0 when out of memory. */
int prelu_ref_bwd(const prelu_prb_t *p, const float *src, const float *wei,
                  const float *diff_dst, float *diff_src, float *diff_wei);

/* The run (prelu_run.c): the checks and the declared arguments both
 * libraries share, oneDNN's descriptors of the problem (prelu_onednn.c,
 * built with oneDNN only), the run on `lib`. */
typedef struct bench_args_run bench_args_run_t;
int prelu_prepare(bench_args_run_t *r, res_t *res);
int prelu_onednn_create(bench_args_run_t *r, res_t *res);
void prelu_run_problem(const prelu_prb_t *p, bench_lib_t lib, const char *repro,
                       res_t *res);

#endif
