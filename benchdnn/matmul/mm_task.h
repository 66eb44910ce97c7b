/* A "dst = src x weights" problem as the library call and the reference
 * see it, shared by the matmul and inner product drivers: each driver
 * parses its own descriptor and options and builds an mm_task_t; this part
 * creates the primitive, fills the memories, runs, checks against the
 * harness' own reference and times.
 *
 * The product is batched over dst's leading dims (matmul) or a single
 * MB x K by K x OC product (inner product, whose K runs over IC and the
 * spatial dims, weights stored OC x K). Fill and comparison rules are the
 * convolution driver's (conv_cfg.c) for the reduction length K: an inner
 * product or matmul is, for those rules, a 1x1 convolution with IC = K. */
#ifndef BENCHDNN_MATMUL_MM_TASK_H
#define BENCHDNN_MATMUL_MM_TASK_H

#include <stdint.h>

#include "common/attr.h"
#include "common/bench_args.h"
#include "common/benchdnn.h"
#include "conv/conv.h"
#include "tessera.h"

#define MM_MAX_NDIMS 6

typedef struct {
    int is_ip;               /* inner product (else matmul) */
    tsr_prop_kind_t ip_prop; /* inner product only */
    /* Logical dims. For the inner product dst is MB x OC and src/weights
     * MB/OC x IC [x spatial]. */
    int src_ndims, wei_ndims, dst_ndims;
    int64_t src_dims[MM_MAX_NDIMS], wei_dims[MM_MAX_NDIMS],
            dst_dims[MM_MAX_NDIMS];
    /* Bias: with_bias, its dims in dst rank (1 where it broadcasts); the
     * inner product passes the library a 1D (OC) bias. */
    int with_bias;
    int64_t bia_dims[MM_MAX_NDIMS];
    bench_dt_cfg_t cfg;
    tsr_data_type_t bia_dt;
    /* Layout of each of src, weights, dst: a tag (meta-tags allowed) or,
     * when has_strides is set, explicit element strides. */
    const char *tag[3];
    int has_strides[3];
    int64_t strides[3][MM_MAX_NDIMS];
    const bench_attr_t *attr;
    /* The weights mask of per_oc scales and zero points. */
    int wei_oc_mask;
    int64_t M, N, K, batch;
    /* Performance line fields. */
    const char *name, *desc, *dir, *tags_text;
    int64_t mb;
} mm_task_t;

/* The operands, numbered as the quantization arguments (QARG_*). */
enum { MM_SRC = 0, MM_WEI = 1, MM_DST = 2 };

/* Dims of operand `which` (MM_*), its rank in *ndims and, when dt is not
 * NULL, its data type in *dt. */
static inline const int64_t *mm_task_arg(const mm_task_t *t, int which,
                                         int *ndims, tsr_data_type_t *dt) {
    if (which == MM_SRC) {
        *ndims = t->src_ndims;
        if (dt)
            *dt = t->cfg.src;
        return t->src_dims;
    }
    if (which == MM_WEI) {
        *ndims = t->wei_ndims;
        if (dt)
            *dt = t->cfg.wei;
        return t->wei_dims;
    }
    *ndims = t->dst_ndims;
    if (dt)
        *dt = t->cfg.dst;
    return t->dst_dims;
}

/* Option validators shared by the matmul and inner product drivers:
 * --dt/--cfg values, data type names (--bia-dt) and layout tags (a tag
 * valid for some rank, meta-tags such as abx included, or "any"). */
int mm_validate_dt(const char *option, const char *value, char *err);
int mm_validate_data_type(const char *option, const char *value, char *err);
int mm_validate_tag(const char *option, const char *value, char *err);
/* --attr-fpmath=MODE[:BOOL]: strict, bf16, f16, tf32 or any. The library
 * always computes strictly (which every mode permits), so the value only
 * travels to the repro line. */
int mm_validate_fpmath(const char *option, const char *value, char *err);
/* Parses a --dt (SRC:WEI:DST or one type) or v2.x --cfg value. */
int mm_dt_cfg_parse_try(const char *value, bench_dt_cfg_t *cfg, char *err);

/* The problem for the fill and comparison rules (see above). */
void mm_task_rules_prb(const mm_task_t *t, conv_prb_t *p);

/* 2 * batch * M * N * K. */
double mm_task_ops(const mm_task_t *t);

/* Runs the task on `lib` with the performance line fields set (the
 * problem's name, descriptor, direction, its three tags as the option
 * values, joined "src:wei:dst", and mb): the argument-keyed pipeline with
 * the driver's `ops`, whose create functions build its op descriptor
 * (mm_task_create; oneDNN's in mm_task_onednn.h) and whose other steps are the
 * task's (MM_TASK_OPS). */
void mm_task_run_described(mm_task_t *t, const bench_args_ops_t *ops,
                           bench_lib_t lib, const char *name, const char *desc,
                           const char *dir, const char *const tags[3],
                           int64_t mb, const char *repro, res_t *res);

/* The steps of a task's run on either library (mm_task_run.c); r->prb is
 * the mm_task_t. */
/* Builds the driver's op descriptor from the tensors' descriptors (bia
 * NULL without bias), then the attributes (mm_task_attr) and r->pd. 0
 * with res set. */
typedef int (*mm_task_pd_fn)(bench_args_run_t *r, const tsr_memory_desc_t *src,
                             const tsr_memory_desc_t *wei,
                             const tsr_memory_desc_t *bia,
                             const tsr_memory_desc_t *dst, res_t *res);
/* Tessera's create: the harness' checks (mm_task_prepare), the tensors'
 * descriptors, `pd_fn`, and the arguments (mm_task_declare). */
int mm_task_create(bench_args_run_t *r, mm_task_pd_fn pd_fn, res_t *res);
/* r->attr from the task's attributes. 0 with res set. */
int mm_task_attr(bench_args_run_t *r, res_t *res);
/* The harness' own checks before any library is asked: tensors whose
 * element counts fit in int64 (else INVALID_ARGUMENTS naming the dims),
 * data types the library (or, on oneDNN, the harness) supports,
 * attributes, scales and zero points the reference applies exactly, and
 * the harness' copies within the available memory. 0 with res set. */
int mm_task_prepare(bench_args_run_t *r, bench_lib_t lib, res_t *res);
/* After the pd: scale and zero-point value counts and the arguments (src,
 * weights, bias, dst checked). */
void mm_task_declare(bench_args_run_t *r);
int mm_task_ref(bench_args_run_t *r, res_t *res);
void mm_task_compare_cfg(const bench_args_run_t *r, int arg,
                         compare_cfg_t *cmp);
void mm_task_report_perf(const bench_args_run_t *r, const char *repro,
                         double ibytes, double obytes, res_t *res);
/* The task's steps in a driver's bench_args_ops_t. */
#define MM_TASK_OPS                                                            \
    .ref = mm_task_ref, .compare_cfg = mm_task_compare_cfg,                    \
    .report_perf = mm_task_report_perf,                                        \
    .fill_binary_src1 = conv_fill_binary_src1

/* The reference: dense logical f32 buffers in, dst (dense, rounded to the
 * dst type) out. Scales and zero points are looked up by their masks over
 * each argument's logical dims, values as attr_scale_value/attr_zp_value
 * give them. */
typedef conv_ref_args_t mm_ref_args_t;

/* Returns 0, or -1 (dst then left unwritten) when out of memory. */
int mm_ref(const mm_task_t *t, const mm_ref_args_t *args);

/* Scale / zero-point masks over the argument's logical dims, the ones the
 * library is given (attr_policy_mask with the task's weights mask). */
int mm_task_q_mask(const mm_task_t *t, bench_policy_t policy, int qarg);

#endif
