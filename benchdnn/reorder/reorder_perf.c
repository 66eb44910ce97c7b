/* The performance line of reorder and zeropad (see reorder_perf.h). */
#include "reorder/reorder_perf.h"

#include <string.h>

#include "common/checked_math.h"
#include "common/perf_report.h"

void reorder_perf_report(const reorder_perf_t *perf, const res_t *res) {
    const dims_desc_t *d = perf->desc;
    char desc[512], attr[1024] = "";
    dims_desc_print(d, desc, sizeof(desc));
    if (perf->attr)
        attr_to_repro(perf->attr, 0, attr, sizeof(attr));
    perf_fields_t f;
    memset(&f, 0, sizeof(f));
    f.impl = res->impl_name;
    f.name = d->name;
    f.prb = perf->repro;
    f.desc = desc;
    f.dir = "";
    f.dt = perf->dt;
    f.tag = perf->tag;
    f.alg = "";
    f.attr = attr[0] == ' ' ? attr + 1 : attr;
    f.mb = d->dims[0];
    f.ibytes = perf->ibytes;
    f.obytes = perf->obytes;
    const int64_t spatial = bench_prod_i64_sat(d->dims + 2, d->ndims - 2);
    static const char *const names[] = {"n", "c", "sp"};
    const int64_t values[] = {d->dims[0], d->ndims > 1 ? d->dims[1] : 1,
                              spatial};
    char text[3][PERF_EXTRA_LEN];
    perf_fields_set_extra(&f, 3, names, values, text);
    perf_report(&f, &res->timer);
}
