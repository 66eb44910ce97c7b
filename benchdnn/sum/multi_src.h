/* What the sum and concat drivers share: colon lists of per-source values
 * (--sdt=f32:s8, --stag=abx:axb, --scales=0.25:2), the sources' memory
 * descriptors, the implementation filter for primitive descriptors that
 * are created directly (not from an op descriptor), the arguments they
 * declare and the performance line. */
#ifndef BENCHDNN_SUM_MULTI_SRC_H
#define BENCHDNN_SUM_MULTI_SRC_H

#include <stddef.h>
#include <stdint.h>

#include "common/bench_args.h"
#include "common/benchdnn.h"
#include "tessera.h"

/* Sources a problem may have: as many as the library takes. */
#define MULTI_SRC_MAX TSR_MAX_MULTIPLE_SRC
#define MULTI_SRC_ITEM_LEN 32

/* The items of a colon list ("f32:s8" -> "f32", "s8"). */
typedef struct {
    int n;
    char item[MULTI_SRC_MAX][MULTI_SRC_ITEM_LEN];
} multi_src_list_t;

/* 0, or -1 for an empty or too long item or more than MULTI_SRC_MAX. */
int multi_src_split(const char *value, multi_src_list_t *list);
/* One value stands for all n sources; 0 when the list has 1 or n items. */
int multi_src_broadcast(multi_src_list_t *list, int n);
/* "a:b:c" */
void multi_src_join(const multi_src_list_t *list, char *buf, size_t len);
/* 1 when every item equals `value`. */
int multi_src_all_equal(const multi_src_list_t *list, const char *value);

/* A data type name, lower-cased into `text` (MULTI_SRC_ITEM_LEN bytes):
 * the library's type, or undef with the name in `unsupported` (16 bytes)
 * for oneDNN's types the library lacks. -1 when not a type name. */
int multi_src_dt(const char *name, tsr_data_type_t *dt, char *text,
                 char *unsupported);

/* opt_def_t validators: a colon list of data types; a colon list of
 * source tags (no "any"); one dst tag, "any" or "undef"; one data type. */
int multi_src_validate_dts(const char *option, const char *value, char *err);
int multi_src_validate_tags(const char *option, const char *value, char *err);
int multi_src_validate_dtag(const char *option, const char *value, char *err);
int multi_src_validate_dt(const char *option, const char *value, char *err);

/* Takes r->pd from a direct creation that returned `st`, moved to the
 * first implementation --impl / --skip-impl allow. 0 with res set when
 * the problem stops. */
int multi_src_take_pd(bench_args_run_t *r, tsr_status_t st, res_t *res);

/* Declares n sources filled by `fill` and a checked dst (in place of
 * source 0 with `inplace`). */
void multi_src_declare(bench_args_run_t *r, int n, bench_fill_fn fill,
                       int inplace);

/* The performance line of a sum or concat problem. */
typedef struct {
    const char *dt, *tag; /* sources' types and tags as printed */
    const char *desc, *name;
    int64_t mb;
} multi_src_perf_t;

void multi_src_report_perf(const multi_src_perf_t *p, const bench_attr_t *attr,
                           const char *repro, double ibytes, double obytes,
                           res_t *res);

#endif
