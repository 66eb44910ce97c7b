/* Dims descriptors (eltwise, softmax, shuffle, sum, reorder, ...):
 * `D0xD1x...[_]nNAME`, 1 to TSR_MAX_NDIMS positive dims split on 'x' and an
 * optional name after the first 'n'; '_' may follow a dim. Printed back as
 * `D0xD1x..._nNAME`, which parses to the same descriptor. */
#ifndef BENCHDNN_COMMON_DIMS_DESC_H
#define BENCHDNN_COMMON_DIMS_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "tessera.h"

#define DIMS_DESC_NAME_LEN 128

typedef struct {
    int ndims;
    int64_t dims[TSR_MAX_NDIMS];
    char name[DIMS_DESC_NAME_LEN];
} dims_desc_t;

/* Parses `str`; `what` names the driver in messages ("eltwise"). Returns
 * 0, or -1 with "bad WHAT descriptor 'STR': ..." in err (BENCH_ERR_LEN
 * bytes); desc is written only on success. */
int dims_desc_parse_try(const char *str, const char *what, dims_desc_t *desc,
                        char *err);
void dims_desc_print(const dims_desc_t *d, char *buf, size_t len);
/* Product of the dims, INT64_MAX when it overflows. */
int64_t dims_desc_nelems(const dims_desc_t *d);

#endif
