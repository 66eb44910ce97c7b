/* benchdnn reorder driver (DRIVERS.md §17):
 *
 *   benchdnn --reorder [--sdt=f32] [--ddt=f32] [--stag=abx] [--dtag=abx]
 *                      [--oflag=FLAG:MASK[+...]] [--cross-engine=none]
 *                      [--runtime-dim-mask=0] [--def-scales=0.125,...,8]
 *                      [--attr-oscale=..|--attr-scales=src:..+dst:..]
 *                      [--attr-zero-points=src:common:Z+dst:common:Z]
 *                      [--attr-post-ops=sum[:SCALE]] [--attr-scratchpad=..]
 *                      [--attr-round-mode=..] D0xD1x...[_nNAME]...
 *
 * Lists multiply in oneDNN's order: sdt, ddt, stag, dtag, oflag,
 * cross-engine, the attributes, runtime-dim-mask; an oscale of 0 then runs
 * once per --def-scales value. The run is the argument-keyed pipeline
 * (common/bench_args.h) with the library's reorder, or oneDNN's with
 * --lib=onednn|both (reorder_onednn.c). */
#ifndef BENCHDNN_REORDER_REORDER_H
#define BENCHDNN_REORDER_REORDER_H

#include <stddef.h>
#include <stdint.h>

#include "common/attr.h"
#include "common/bench_args.h"
#include "common/benchdnn.h"
#include "common/dims_desc.h"
#include "common/opt_lists.h"
#include "tessera.h"

/* --oflag entries: memory-descriptor extra data asked of the dst. */
typedef enum {
    REORDER_OFLAG_S8S8_COMP = 0,
    REORDER_OFLAG_ZP_COMP,
    REORDER_OFLAG_COUNT,
} reorder_oflag_t;

typedef struct {
    dims_desc_t desc;
    tsr_data_type_t sdt, ddt; /* undef: a oneDNN type the library lacks */
    char sdt_text[OPT_VALUE_LEN], ddt_text[OPT_VALUE_LEN];
    char stag[OPT_VALUE_LEN], dtag[OPT_VALUE_LEN];
    /* Compensation masks per flag, -1 when the flag is absent. */
    int comp_mask[REORDER_OFLAG_COUNT];
    int runtime_dim_mask;
    char cross_engine[OPT_VALUE_LEN];
    /* The oscale's value is the --def-scales one when 0 was given. */
    bench_attr_t attr;
} reorder_prb_t;

/* ------------------------------------------------------------------------ */
/* Options and problems (reorder_bench.c) */

/* Parses an --oflag value ("", "s8s8_comp:1", "zp_comp:1+s8s8_comp:1")
 * into masks per flag; 0, or -1 with a message naming the text. */
int reorder_oflag_parse_try(const char *value, int comp_mask[], char *err);
void reorder_prb_repro(const reorder_prb_t *p, int canonical, char *buf,
                       size_t len);
int reorder_bench(int ntokens, char **tokens);
/* --reorder --help: the options, their defaults, the --attr-* options. */
void reorder_print_options(FILE *f);

/* ------------------------------------------------------------------------ */
/* The harness' own math (reorder_ref.c), independent of the library */

/* The mask of the legacy oscale or of the v3 scales of `q` (src, dst),
 * 0 without them; -1 when the policy has no mask for `ndims` dims. */
int reorder_scale_mask(const reorder_prb_t *p, bench_qarg_t q);
/* The legacy oscale's value at index `i` of `count`: all p's scale but
 * the last, which is half of it (oneDNN's vector, so that a mask that
 * selects the wrong value shows). */
float reorder_oscale_value(const reorder_prb_t *p, int64_t i, int64_t count);
/* The factor that multiplies src - src_zp at logical point `pos`:
 * oscale, or src scale / dst scale; 1 without scales. */
float reorder_alpha(const reorder_prb_t *p, const int64_t *pos);
/* Input values (DRIVERS.md §17 fills) of `arg` (TSR_ARG_SRC, or
 * TSR_ARG_DST for a sum post-op's previous dst), dense logical order. */
void reorder_fill(const void *prb, int arg, float *buf, int64_t n);
/* dst before rounding at logical point `pos`, from the src value and the
 * previous dst value (read as the sum post-op reads it). */
float reorder_ref_value(const reorder_prb_t *p, const int64_t *pos, float src,
                        float dst_old);
/* The compensation the dst carries: per point of the masked dims, the sum
 * over the other dims of the s8 dst values `dst_s8` (dense, already
 * rounded). `sums` has attr_mask_count(mask) entries. */
void reorder_ref_comp(const reorder_prb_t *p, int mask, const float *dst_s8,
                      int64_t *sums);

/* ------------------------------------------------------------------------ */
/* The run (reorder_run.c) */

/* Why the problem is not run (DRIVERS.md §17 skips), or NULL. */
const char *reorder_skip_reason(const reorder_prb_t *p);
/* The compensation mask of the problem (the flags must agree), or -1
 * without --oflag. */
int reorder_comp_mask(const reorder_prb_t *p);
/* What both libraries share before their descriptors: the skips and the
 * argument declarations; 0 with res set when the problem stops. */
int reorder_prepare(bench_args_run_t *r, res_t *res);
/* The problem with oneDNN's descriptors and attributes (reorder_onednn.c). */
int reorder_onednn_create(bench_args_run_t *r, res_t *res);
void reorder_run_problem(const reorder_prb_t *p, bench_lib_t lib,
                         const char *repro, res_t *res);

#endif
