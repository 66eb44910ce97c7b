/* The sum and concat drivers' shared oneDNN steps (multi_src_onednn.c,
 * built only with oneDNN). */
#ifndef BENCHDNN_SUM_MULTI_SRC_ONEDNN_H
#define BENCHDNN_SUM_MULTI_SRC_ONEDNN_H

#include "onednn/onednn_args.h"
#include "sum/multi_src.h"

/* The problem's attributes (scratchpad mode) over a dst of `dims`, owned
 * by the run; 0 with res set when oneDNN cannot express them. */
int multi_src_onednn_attr(bench_args_run_t *r, int ndims, const int64_t *dims,
                          dnnl_primitive_attr_t *attr, res_t *res);
/* Hands the pd of a direct creation that returned `st` to the run (what:
 * "sum", "concat"); 0 with res set when the problem stops. */
int multi_src_onednn_adopt(bench_args_run_t *r, dnnl_status_t st,
                           dnnl_primitive_desc_t pd, const char *what,
                           res_t *res);

#endif
