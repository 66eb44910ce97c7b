/* What the sum and concat drivers' oneDNN paths share: the attributes
 * and the adoption of the primitive descriptor oneDNN creates directly. */
#include "sum/multi_src_onednn.h"

int multi_src_onednn_attr(bench_args_run_t *r, int ndims, const int64_t *dims,
                          dnnl_primitive_attr_t *attr, res_t *res) {
    *attr = onednn_args_attr(r, r->battr, ndims, dims, res);
    return *attr != NULL;
}

int multi_src_onednn_adopt(bench_args_run_t *r, dnnl_status_t st,
                           dnnl_primitive_desc_t pd, const char *what,
                           res_t *res) {
    if (st != dnnl_success) {
        bench_set_state(res, onednn_status_state(st),
                        "oneDNN %s primitive descriptor: %s", what,
                        dnnl_status2str(st));
        return 0;
    }
    return onednn_args_adopt_pd(r, pd, res);
}
