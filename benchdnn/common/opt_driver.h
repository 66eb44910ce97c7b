/* The token loop of a driver whose options are an opt_lists_t table: each
 * descriptor is multiplied by the option combinations, each problem is
 * selected by index and filters and handed to bench_run_libs. The driver
 * supplies its descriptor parser, its problem builder and its run. */
#ifndef BENCHDNN_COMMON_OPT_DRIVER_H
#define BENCHDNN_COMMON_OPT_DRIVER_H

#include <stddef.h>
#include <stdio.h>

#include "common/attr.h"
#include "common/bench_lib.h"
#include "common/benchdnn.h"
#include "common/opt_lists.h"

typedef struct {
    const char *name; /* "ip" */
    const opt_def_t *defs;
    int ndefs;
    /* Options from this index on vary faster than the --attr-* lists (0:
     * none; see opt_lists_t). */
    int after_attr_from;
    /* {k, owner} pairs, n_shared of them: defs[k] sets defs[owner]'s list
     * (opt_lists_share). */
    int shared[OPT_MAX][2];
    int n_shared;
    size_t desc_size, prb_size; /* of the driver's descriptor and problem */
    /* 0, or -1 with a message in err (a usage error). */
    int (*parse_desc)(const char *text, void *desc, char *err);
    /* The problem of one combination and its repro line. */
    void (*make_prb)(const void *desc, const char *const *values,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len);
    /* Runs the problem on `lib` (Tessera, or oneDNN for --lib=onednn|both;
     * without oneDNN built in, a oneDNN run is UNIMPLEMENTED). */
    void (*run)(const void *prb, bench_lib_t lib, const char *repro,
                res_t *res);
} opt_driver_t;

/* The driver's entry: runs every problem of `tokens`; returns 0 (usage
 * errors exit). A lone "--help" token prints the driver's options
 * (opt_driver_print_options) instead. */
int opt_driver_bench(const opt_driver_t *drv, int ntokens, char **tokens);

/* `lists` as the driver's loop starts them: the table's defaults, its
 * after_attr_from and shared lists. */
void opt_driver_lists_init(const opt_driver_t *drv, opt_lists_t *lists);

/* The options of a table, with their defaults, then the --attr-* ones. */
void opt_driver_print_options(FILE *f, const opt_def_t *defs, int ndefs);

/* Usage error for an option token the table, the driver's `extra` options
 * (n_extra names, outside the table) and the common and --attr-* options
 * do not have, naming the closest option (see cli_help.h). */
void opt_driver_unknown_option(const char *tok, const char *driver,
                               const opt_def_t *defs, int ndefs,
                               const char *const *extra, int n_extra)
        __attribute__((noreturn));

#endif
