/* Multi-dims descriptors (binary, prelu; DRIVERS.md §0.1):
 * `A0xA1x...:B0xB1x...[:...][_]nNAME`, one dims list per input tensor.
 * The first tensor gives the rank; a later one with fewer dims is padded
 * with trailing 1s (`8x7x6:1x7` is `8x7x6:1x7x1`), one with more is an
 * error. Printed back in the padded form, which parses to the same
 * descriptor. */
#ifndef BENCHDNN_BINARY_MULTI_DIMS_DESC_H
#define BENCHDNN_BINARY_MULTI_DIMS_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "common/dims_desc.h"
#include "tessera.h"

#define MULTI_DIMS_MAX_INPUTS 8

typedef struct {
    int n_inputs;
    int ndims;
    int64_t dims[MULTI_DIMS_MAX_INPUTS][TSR_MAX_NDIMS];
    char name[DIMS_DESC_NAME_LEN];
} multi_dims_desc_t;

/* Parses `str` with min_inputs..max_inputs tensors; `what` names the
 * driver in messages ("binary"). Returns 0, or -1 with "bad WHAT
 * descriptor 'STR': ..." in err (BENCH_ERR_LEN bytes); desc is written
 * only on success. */
int multi_dims_desc_parse_try(const char *str, const char *what, int min_inputs,
                              int max_inputs, multi_dims_desc_t *desc,
                              char *err);
void multi_dims_desc_print(const multi_dims_desc_t *d, char *buf, size_t len);
/* The element-wise maximum of the inputs' dims (a broadcast's result). */
void multi_dims_desc_max_dims(const multi_dims_desc_t *d, int64_t *dims);
/* Product of the dims, INT64_MAX when it overflows. */
int64_t multi_dims_nelems(int ndims, const int64_t *dims);

#endif
