/* The performance line of reorder and zeropad (see reorder_perf.h). */
#include "reorder/reorder_perf.h"

#include "common/perf_report.h"

void reorder_perf_report(const reorder_perf_t *perf, const res_t *res) {
    const dims_desc_t *d = perf->desc;
    char desc[512], attr[1024];
    dims_desc_print(d, desc, sizeof(desc));
    perf_fields_t f;
    perf_fields_init(&f, res, d->name, perf->repro, desc, perf->ibytes,
                     perf->obytes);
    f.attr = perf_attr_text(perf->attr, attr, sizeof(attr));
    f.dt = perf->dt;
    f.tag = perf->tag;
    f.mb = d->dims[0];
    perf_report_ncsp(&f, d->dims, d->ndims, &res->timer);
}
