/* The performance line of the dims-descriptor data movers, reorder and
 * zeropad: bytes moved per second from the bytes each reads and writes,
 * with the problem's dims as csv columns (n, c and the product of the
 * rest). */
#ifndef BENCHDNN_REORDER_REORDER_PERF_H
#define BENCHDNN_REORDER_REORDER_PERF_H

#include "common/attr.h"
#include "common/benchdnn.h"
#include "common/dims_desc.h"

typedef struct {
    const dims_desc_t *desc;
    const char *repro;
    const char *dt, *tag;     /* as printed in the %dt% and %tag% fields */
    const bench_attr_t *attr; /* NULL: none */
    double ibytes, obytes;
} reorder_perf_t;

/* Prints the line for res's timer and implementation. */
void reorder_perf_report(const reorder_perf_t *perf, const res_t *res);

#endif
