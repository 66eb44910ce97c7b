/* oneDNN on the argument-keyed pipeline (common/bench_args.h): what a
 * driver's <drv>/<drv>_onednn.c calls from its create_onednn. It builds
 * oneDNN's op descriptor from the same problem, declares the same
 * arguments (bench_args_declare) and creates the pds here; the pipeline
 * then runs, checks and times oneDNN exactly as it does Tessera.
 * Built only with oneDNN (BENCHDNN_WITH_ONEDNN). */
#ifndef BENCHDNN_ONEDNN_ONEDNN_ARGS_H
#define BENCHDNN_ONEDNN_ONEDNN_ARGS_H

#include "common/bench_args.h"
#include "onednn/onednn_common.h"

/* A oneDNN memory descriptor from a driver's tag (meta-tags resolved for
 * the rank); 0 with res UNIMPLEMENTED and the reason when oneDNN cannot
 * describe it. */
int onednn_args_md(dnnl_memory_desc_t *md, int ndims, const int64_t *dims,
                   tsr_data_type_t dt, const char *tag, res_t *res);

/* oneDNN's attributes of `attr` (the problem's r->battr, or a driver's
 * adjusted copy: post-ops, scales, zero points, scratchpad mode;
 * onednn_attr_create) where every tensor has the `ndims` dims `dims`, as
 * in the element-wise family. Owned by the run; a driver may add to them
 * (per-source scales) before creating the pd. NULL with res set when
 * oneDNN cannot express them. */
dnnl_primitive_attr_t onednn_args_attr(bench_args_run_t *r,
                                       const bench_attr_t *attr, int ndims,
                                       const int64_t *dims, res_t *res);

/* The same where each tensor has its own dims and the channels their
 * masks (convolution, inner product, matmul: see onednn_attr_shape_t). */
dnnl_primitive_attr_t onednn_args_attr_shape(bench_args_run_t *r,
                                             const bench_attr_t *attr,
                                             const onednn_attr_shape_t *shape,
                                             res_t *res);

/* The forward-training pd of a backward problem (default attributes), as
 * bench_args_create_fwd_pd. */
int onednn_args_create_fwd_pd(bench_args_run_t *r, const_dnnl_op_desc_t op,
                              res_t *res);
/* The problem's pd of `op` with the attributes of onednn_args_attr (made
 * with an empty shape if the driver made none) and the forward pd as hint,
 * at the first implementation --impl/--skip-impl allow. */
int onednn_args_create_pd(bench_args_run_t *r, const_dnnl_op_desc_t op,
                          res_t *res);
/* The same for a backward pd whose forward pd `fwd` is only a creation
 * hint (prelu, shuffle: the backward pass reads no forward output), so
 * the run has no forward pass. */
int onednn_args_create_pd_with_hint(bench_args_run_t *r,
                                    const_dnnl_op_desc_t fwd,
                                    const_dnnl_op_desc_t op, res_t *res);
/* A pd the driver created itself (sum, concat, reorder), owned by the run
 * from here on, even when 0 is returned (filtered out by --impl). */
int onednn_args_adopt_pd(bench_args_run_t *r, dnnl_primitive_desc_t pd,
                         res_t *res);

/* Tessera's descriptor of a oneDNN memory descriptor (the same blocking
 * model); -1 with a reason for what Tessera cannot describe. An input
 * whose layout carries oneDNN's extra data (int8 weights' compensation)
 * or has no blocking (Winograd weights) is not translated: the run
 * describes it to the harness as a plain memory of its dims and data type
 * and writes the values into oneDNN's own memory with oneDNN's reorder
 * (bench_args_lib_t.store). */
int onednn_md_to_tsr(const dnnl_memory_desc_t *in, tsr_memory_desc_t *out,
                     char *reason);

#endif
