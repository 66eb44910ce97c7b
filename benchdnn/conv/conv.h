/* benchdnn convolution driver: the problem (descriptor, direction, data
 * types, layouts, algorithm, attributes), its parsing and printing, the
 * per-data-type fill and comparison rules, and the reference.
 *
 *   benchdnn --conv [--dir=..] [--cfg=..|--dt=..] [--bia-dt=..] [--stag=..]
 *                   [--wtag=..] [--dtag=..] [--alg=..] [--mb=N]
 *                   [--attr-*=..] DESCRIPTOR...
 *
 * Spatial parameters are kept as arrays indexed depth, height, width (see
 * CONV_D/H/W); a problem with fewer spatial dims reads the missing ones as
 * size 1, stride 1, padding 0, dilation 0, so every loop can be 3D. */
#ifndef BENCHDNN_CONV_CONV_H
#define BENCHDNN_CONV_CONV_H

#include <stddef.h>
#include <stdint.h>

#include "common/attr.h"
#include "common/bench_args.h"
#include "common/benchdnn.h"
#include "common/dt_cfg.h"
#include "common/fill_compare.h"
#include "common/layout_tag.h"
#include "common/opt_driver.h"
#include "tessera.h"

enum { CONV_D = 0, CONV_H = 1, CONV_W = 2, CONV_NSPATIAL = 3 };

/* ------------------------------------------------------------------------ */
/* Descriptor: gXmbX_icXidXihXiwX_ocXodXohXowX_kdXkhXkwX_sdXshXswX_pdXphXpwX_
 * ddXdhXdwX_nNAME (conv_desc.c). */

#define CONV_NAME_LEN 128

typedef struct {
    int64_t g, mb, ic, oc;
    int64_t in[CONV_NSPATIAL];    /* id ih iw */
    int64_t out[CONV_NSPATIAL];   /* od oh ow */
    int64_t ker[CONV_NSPATIAL];   /* kd kh kw */
    int64_t str[CONV_NSPATIAL];   /* sd sh sw */
    int64_t pad[CONV_NSPATIAL];   /* pd ph pw: front, top, left */
    int64_t pad_r[CONV_NSPATIAL]; /* back, bottom, right: derived */
    int64_t dil[CONV_NSPATIAL];   /* dd dh dw, counted from 0 */
    /* `g` was written: the weights carry a groups dim even for g1. */
    int has_groups;
    int ndims;                /* of src/dst: 3 (1D), 4 (2D) or 5 (3D) */
    char name[CONV_NAME_LEN]; /* without quotes; "" when none */
} conv_desc_t;

/* Parses `str`. Returns 0, or -1 with a message naming the offending text
 * in `err` (BENCH_ERR_LEN bytes; may be NULL). `desc` is written only on
 * success. */
int conv_desc_parse_try(const char *str, conv_desc_t *desc, char *err);

/* Short form (oneDNN's printing rules): g when given (g1 written means
 * grouped weights), mb when not 2, the smaller spatial dims only when they
 * differ from the largest, strides when not 1, dilations when not 0;
 * outputs and left paddings always. With `canonical` every spatial dim,
 * mb, strides and dilations are printed. Parsing the result gives back the
 * same descriptor. Truncates to `len`. */
void conv_desc_print(const conv_desc_t *d, int canonical, char *buf,
                     size_t len);

int conv_desc_equal(const conv_desc_t *a, const conv_desc_t *b);

/* The extent of the dilated kernel along spatial dim i. */
int64_t conv_desc_kernel_extent(const conv_desc_t *d, int i);

/* ------------------------------------------------------------------------ */
/* Directions and algorithms (conv_prb.c). */

typedef enum {
    CONV_FWD_B = 0, /* forward training with bias (the default) */
    CONV_FWD_D,     /* forward training without bias */
    CONV_FWD_I,     /* forward inference without bias */
    CONV_BWD_D,
    CONV_BWD_W,
    CONV_BWD_WB,
} conv_dir_t;

typedef enum {
    CONV_ALG_DIRECT = 0,
    CONV_ALG_WINO,
    CONV_ALG_AUTO,
} conv_alg_t;

/* Parse a name (case-insensitive); -1 when unknown. */
int conv_str2dir(const char *s);
const char *conv_dir2str(conv_dir_t dir);
int conv_str2alg(const char *s);
const char *conv_alg2str(conv_alg_t alg);

/* Data types: common/dt_cfg.h. */

/* ------------------------------------------------------------------------ */
/* The problem. */

#define CONV_TAG_LEN 32
#define CONV_FPMATH_LEN 24

typedef struct {
    conv_desc_t desc; /* mb already replaced by --mb when given */
    conv_dir_t dir;
    bench_dt_cfg_t cfg;
    bench_bia_dt_t bia;
    char stag[CONV_TAG_LEN], wtag[CONV_TAG_LEN], dtag[CONV_TAG_LEN];
    conv_alg_t alg;
    /* --attr-fpmath ("strict" by default) only permits lower internal
     * precision; the library always computes strictly, so the strict
     * comparison rules stay valid and the value is only carried to the
     * repro line. */
    char fpmath[CONV_FPMATH_LEN];
    bench_attr_t attr;
} conv_prb_t;

static inline int conv_prb_with_bias(const conv_prb_t *p) {
    return p->dir == CONV_FWD_B || p->dir == CONV_BWD_WB;
}

/* Logical dims of the tensors; return the rank. */
int conv_src_dims(const conv_prb_t *p, int64_t *dims);
int conv_wei_dims(const conv_prb_t *p, int64_t *dims);
int conv_dst_dims(const conv_prb_t *p, int64_t *dims);
/* 1 when the element count of src, weights and dst each fits in int64;
 * otherwise 0 with res INVALID_ARGUMENTS naming the tensor. The sizes
 * below saturate at INT64_MAX for a problem it did not accept. */
int conv_prb_check_sizes(const conv_prb_t *p, res_t *res);
int64_t conv_src_nelems(const conv_prb_t *p);
int64_t conv_wei_nelems(const conv_prb_t *p);
int64_t conv_dst_nelems(const conv_prb_t *p);
/* f32 elements of the harness' dense copies: inputs, bias, and dst's
 * contents before execution, as read, the reference and the result (what
 * is allocated whichever library runs). */
double conv_harness_elems(const conv_prb_t *p);

/* Reduction length of one output point: IC/G * KD * KH * KW. */
int64_t conv_reduction_len(const conv_prb_t *p);
/* 2 * MB * OC * OD*OH*OW * IC/G * KD*KH*KW. */
double conv_ops(const conv_prb_t *p);

/* The command line reproducing the problem: "--conv" + non-default driver
 * options (all with `canonical`) + the descriptor. */
void conv_prb_repro(const conv_prb_t *p, int canonical, char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Fill and compare rules per data type (conv_cfg.c). */

typedef enum {
    CONV_DATA_SRC = 0,
    CONV_DATA_WEI,
    CONV_DATA_BIA,
    CONV_DATA_DST, /* dst before execution (sum post-op) */
} conv_data_kind_t;

typedef fill_rule_t conv_fill_t;

void conv_fill_cfg(const conv_prb_t *p, conv_data_kind_t kind,
                   conv_fill_t *fill);

/* Values for a binary post-op's second input, of data type `dt` under
 * algorithm `alg` (divisions get non-zero powers of two). */
void conv_fill_binary_src1(tsr_alg_kind_t alg, tsr_data_type_t dt,
                           int post_op_index, float *buf, int64_t n);

/* Thresholds for comparing dst against the reference. */
void conv_compare_cfg(const conv_prb_t *p, compare_cfg_t *cmp);

/* ------------------------------------------------------------------------ */
/* Reference (conv_ref.c). */

/* What the reference reads and writes: dense logical f32 buffers. */
typedef struct {
    const float *src, *wei, *bia; /* bia may be NULL */
    const float *dst_old;   /* dst before execution, as the sum post-op reads
                               it; may be NULL without a sum post-op */
    float *const *bin_src1; /* per post-op, dense over its dims, or NULL */
    float *dst;             /* output */
} conv_ref_args_t;

/* Forward convolution with the problem's attributes, rounded and
 * saturated to the dst data type. */
void conv_ref_fwd(const conv_prb_t *p, const conv_ref_args_t *args);

/* ------------------------------------------------------------------------ */
/* Scales and zero points (conv_cfg.c). */

/* Scales and zero points as masks over the logical dims of the argument
 * they belong to (the masks attr_create_tsr gives the library) and the
 * number of values each takes, dense over the mask's dims; value i is
 * attr_scale_value(s, i) / attr_zp_value(z, i). */
typedef struct {
    int set, mask;
    int64_t count;
} conv_q_entry_t;

typedef struct {
    conv_q_entry_t oscale; /* over dst dims */
    conv_q_entry_t scales[QARG_COUNT];
    conv_q_entry_t zero_points[QARG_COUNT];
} conv_quant_t;

/* The weights mask meaning "per output channel": 1, or 3 with groups. */
static inline int conv_wei_oc_mask(const conv_prb_t *p) {
    return p->desc.has_groups ? 3 : 1;
}

/* Fills `q`. Returns 0, or -1 with a reason when a mask is one the
 * reference cannot apply: scales and zero points may vary over the
 * minibatch and the channels (src scales: common only, since they would
 * not factor out of the sum; weights: over output channels only). */
int conv_quant_init(const conv_prb_t *p, conv_quant_t *q, char *reason,
                    size_t reason_len);

/* The fill keeps every sum exact only while the zero points are small
 * enough: 1 when they are, 0 with a reason naming the zero point when
 * the sums over the reduction reach 2^23 even with the smallest fill
 * values (src and weights zero points), or when a dst or sum post-op
 * zero point exceeds 2^23 in magnitude. */
int conv_zero_points_checkable(const conv_prb_t *p, char *reason,
                               size_t reason_len);

/* ------------------------------------------------------------------------ */
/* Driver (conv_bench.c) and one problem (conv_run.c). */

/* The options as an opt_lists table (each a comma list, multiplied), the
 * descriptor, the problem of a combination and its run. */
extern const opt_driver_t conv_driver;
int conv_bench(int ntokens, char **tokens);
/* The first problem of a command line's tokens (a repro line split at
 * blanks, with or without the leading --conv). */
int conv_prb_from_args_try(int n, char **toks, conv_prb_t *p, char *err);
/* Creates, runs, checks and times `p` on `lib` per bench_settings.mode
 * (LIST is the caller's); `repro` goes into performance lines. */
void conv_run_problem(const conv_prb_t *p, bench_lib_t lib, const char *repro,
                      res_t *res);

/* The steps of a run both libraries share (conv_run.c); r->prb is the
 * conv_prb_t. */
/* The harness' own checks before any library is asked (sizes, forward
 * only, data types, attributes and zero points the reference checks, the
 * harness' copies within the available memory), with reasons naming the
 * library or, for oneDNN, the harness. 0 with res set when it stops. */
int conv_prepare(bench_args_run_t *r, bench_lib_t lib, res_t *res);
/* After the pd: the scales and zero points the reference applies (else
 * SKIPPED), their value counts, and the arguments. 0 with res set. */
int conv_declare(bench_args_run_t *r, res_t *res);
/* src, weights, dst (checked; its fill is what a sum post-op reads) and,
 * `with_bias`, bias, each filled by `fill_fn` (shared with the matmul and
 * inner product task). */
void conv_declare_args(bench_args_run_t *r, int with_bias,
                       bench_fill_fn fill_fn);
/* The values of argument `arg` (TSR_ARG_SRC, _WEIGHTS, _BIAS, _DST) of
 * `p`, n points, by conv_fill_cfg. */
void conv_fill_values(const conv_prb_t *p, int arg, float *buf, int64_t n);
/* oneDNN's descriptors of the problem (conv_onednn.c, built with oneDNN). */
int conv_onednn_create(bench_args_run_t *r, res_t *res);

#endif
