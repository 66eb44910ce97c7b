/* The steps of running a problem (bench_args.h) that do not depend on
 * argument ids: the primitive descriptor under --impl/--skip-impl, the bytes a descriptor's
 * memories take, the attribute memories (scales, zero points, binary
 * post-op inputs), and the list of execution arguments. */
#ifndef BENCHDNN_COMMON_BENCH_PRIM_H
#define BENCHDNN_COMMON_BENCH_PRIM_H

#include <stddef.h>
#include <stdint.h>

#include "common/attr.h"
#include "common/benchdnn.h"
#include "common/dnn_mem.h"
#include "tessera.h"

/* The execution arguments of one primitive. */
#define BENCH_EXEC_MAX_ARGS (TSR_MAX_MULTIPLE_SRC + 16 + BENCH_MAX_POST_OPS)
typedef struct {
    int n;
    tsr_exec_arg_t a[BENCH_EXEC_MAX_ARGS];
} bench_exec_args_t;

/* Appends (arg, m) to args (ignored when full: the limit exceeds what any
 * primitive takes). */
void bench_exec_args_add(tsr_exec_arg_t *args, int *nargs, int arg,
                         const dnn_mem_t *m);

/* *pd for `op_desc` with `attr` (NULL: defaults) and, for a backward
 * problem, its forward descriptor `hint` (may be NULL). With
 * `filter_impl`, moves to the first implementation --impl/--skip-impl
 * allow and names it in res->impl_name. 1 on success; 0 with res set
 * (and *pd NULL) when the problem stops. */
int bench_create_pd(tsr_primitive_desc_t *pd, const void *op_desc,
                    const_tsr_primitive_attr_t attr,
                    const_tsr_primitive_desc_t hint, int filter_impl,
                    res_t *res);

/* The execution argument ids a primitive may take, in a fixed order
 * (TSR_ARG_SRC ... TSR_ARG_DIFF_SHIFT, then TSR_ARG_MULTIPLE_SRC + i);
 * scratchpad and attribute arguments are not among them. */
int bench_arg_id_count(void);
int bench_arg_id(int i);
/* A short name of an argument id ("src", "diff_dst", "msrc3"). */
const char *bench_arg_name(int arg, char *buf, size_t len);

/* Bytes of the memories of every argument `pd` uses, and of its
 * scratchpad. */
size_t bench_pd_memory_bytes(const_tsr_primitive_desc_t pd);

/* Values of binary post-op `index`'s second input (n points, dense). */
typedef void (*bench_fill_binary_src1_fn)(tsr_alg_kind_t alg,
                                          tsr_data_type_t dt, int index,
                                          float *buf, int64_t n);

/* The memories of the attributes: per-argument scales and zero points
 * (count -1: not set) and each binary post-op's second input, whose f32
 * values as the memory holds them land in bin_f32[i] (owned by the
 * caller, freed with free()). Each is appended to the execution
 * arguments. 0 when out of memory. */
typedef struct {
    dnn_mem_t scales[QARG_COUNT], zps[QARG_COUNT];
    dnn_mem_t bin[BENCH_MAX_POST_OPS];
} bench_attr_mems_t;

int bench_attr_mems_create(bench_attr_mems_t *m, const bench_attr_t *battr,
                           const_tsr_primitive_attr_t attr,
                           const int64_t scale_count[QARG_COUNT],
                           const int64_t zp_count[QARG_COUNT],
                           bench_fill_binary_src1_fn fill_binary_src1,
                           float *bin_f32[BENCH_MAX_POST_OPS],
                           tsr_exec_arg_t *args, int *nargs);
void bench_attr_mems_free(bench_attr_mems_t *m);

/* The user scratchpad memory of `pd` when --attr-scratchpad=user asks for
 * one and the primitive needs it, appended as TSR_ARG_SCRATCHPAD. 0 when
 * out of memory. */
int bench_scratchpad_create(dnn_mem_t *m, const_tsr_primitive_desc_t pd,
                            const bench_attr_t *battr, tsr_exec_arg_t *args,
                            int *nargs);

/* The first sum post-op's data type (undef: dst's own), with which the sum
 * reads dst's previous contents. */
tsr_data_type_t bench_sum_dt(const bench_attr_t *battr);

#endif
