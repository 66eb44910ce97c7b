/* The "dst = src x weights" task (mm_task.h) on oneDNN: what the matmul
 * and inner product drivers' *_onednn.c share. Built only with oneDNN. */
#ifndef BENCHDNN_MATMUL_MM_TASK_ONEDNN_H
#define BENCHDNN_MATMUL_MM_TASK_ONEDNN_H

#include "matmul/mm_task.h"
#include "onednn/onednn_args.h"

/* Builds the driver's oneDNN op descriptor from the tensors' descriptors
 * (bia NULL without bias) into `op` (storage of the driver's type) and
 * points *op_desc at it; 0 with res set when oneDNN rejects it. */
typedef int (*mm_task_onednn_op_fn)(const mm_task_t *t,
                                    const dnnl_memory_desc_t *src,
                                    const dnnl_memory_desc_t *wei,
                                    const dnnl_memory_desc_t *bia,
                                    const dnnl_memory_desc_t *dst, void *op,
                                    const_dnnl_op_desc_t *op_desc, res_t *res);

/* oneDNN's create of the task (r->prb): the harness' checks
 * (mm_task_prepare), the tensors' descriptors, `op_fn`, the attributes and
 * the pd, then the arguments (mm_task_declare). */
int mm_task_onednn_create(bench_args_run_t *r, mm_task_onednn_op_fn op_fn,
                          res_t *res);

#endif
