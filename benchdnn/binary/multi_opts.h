/* Per-input option values of the multi-input drivers (binary, prelu):
 * `--sdt=f32:s8`, `--stag=abx:any`, one item per input tensor. */
#ifndef BENCHDNN_BINARY_MULTI_OPTS_H
#define BENCHDNN_BINARY_MULTI_OPTS_H

#include "common/opt_lists.h"
#include "tessera.h"

#define MULTI_OPTS_MAX 8

/* The ':'-separated items of `value` (at most `max`, each shorter than
 * OPT_VALUE_LEN): their count, or -1 for an empty item or too many. */
int multi_opt_split(const char *value, char items[][OPT_VALUE_LEN], int max);

/* 0 when `value` has min..max items and each is a data type name (one
 * Tessera lacks, such as f64, too: the problem then reports
 * UNIMPLEMENTED); else -1 with a message naming --option and the text. */
int multi_opt_validate_dts(const char *option, const char *value, int min,
                           int max, char *err);
/* The same for layout tags ("any" or a tag of some rank). */
int multi_opt_validate_tags(const char *option, const char *value, int min,
                            int max, char *err);

/* The data types of `value`'s items (validated), in dts[0..count-1];
 * the first name Tessera lacks goes to `unsupported` (16 bytes, "" when
 * none) and its entry is undef. Returns the count. */
int multi_opt_dts(const char *value, tsr_data_type_t *dts, char *unsupported);

#endif
