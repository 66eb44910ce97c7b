/* Overflow-checked sizes: the reason of a problem too large to describe
 * (see checked_math.h). */
#include "common/checked_math.h"

#include <stdio.h>

int bench_check_nelems(const char *what, int ndims, const int64_t *dims,
                       res_t *res) {
    int64_t n;
    if (bench_prod_i64(dims, ndims, &n))
        return 1;
    res->state = STATE_INVALID_ARGUMENTS;
    size_t used =
            (size_t)snprintf(res->reason, sizeof(res->reason), "%s dims", what);
    for (int d = 0; d < ndims && used < sizeof(res->reason); d++)
        used += (size_t)snprintf(res->reason + used, sizeof(res->reason) - used,
                                 "%s%lld", d ? " x " : " ", (long long)dims[d]);
    if (used < sizeof(res->reason))
        snprintf(res->reason + used, sizeof(res->reason) - used,
                 ": more elements than a 64-bit size holds");
    return 0;
}
