/* The harness' PReLU reference: y = x > 0 ? x : w * x; backward
 * dx = dy * (x > 0 ? 1 : w) and dw = the sum of min(0, x) * dy over the
 * dims the weights broadcast, accumulated in double. */
#include <stdlib.h>

#include "prelu/prelu.h"

/* Dense index into the weights of the data point at dense index i. */
static int64_t wei_index(const prelu_prb_t *p, int64_t i) {
    const multi_dims_desc_t *d = &p->desc;
    int64_t w = 0, stride = 1;
    for (int k = d->ndims - 1; k >= 0; k--) {
        const int64_t pos = i % d->dims[0][k];
        i /= d->dims[0][k];
        if (d->dims[1][k] != 1)
            w += pos * stride;
        stride *= d->dims[1][k];
    }
    return w;
}

void prelu_ref_fwd(const prelu_prb_t *p, const float *src, const float *wei,
                   float *dst) {
    const int64_t n = multi_dims_nelems(p->desc.ndims, p->desc.dims[0]);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        const float x = src[i];
        dst[i] = x > 0 ? x : wei[wei_index(p, i)] * x;
    }
}

int prelu_ref_bwd(const prelu_prb_t *p, const float *src, const float *wei,
                  const float *diff_dst, float *diff_src, float *diff_wei) {
    const int64_t n = multi_dims_nelems(p->desc.ndims, p->desc.dims[0]);
    const int64_t nw = multi_dims_nelems(p->desc.ndims, p->desc.dims[1]);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        const float x = src[i];
        diff_src[i] = x > 0 ? diff_dst[i] : diff_dst[i] * wei[wei_index(p, i)];
    }
    /* One pass in index order: the sums do not depend on the threads. */
    double *acc = calloc((size_t)nw, sizeof(double));
    if (!acc)
        return 0;
    for (int64_t i = 0; i < n; i++)
        if (src[i] < 0)
            acc[wei_index(p, i)] += (double)src[i] * diff_dst[i];
    for (int64_t j = 0; j < nw; j++)
        diff_wei[j] = (float)acc[j];
    free(acc);
    return 1;
}
