/* Layout tags as the drivers' --stag/--wtag/--dtag options give them:
 * library tags, "any", and meta-tags that stand for a layout of any rank. */
#ifndef BENCHDNN_COMMON_LAYOUT_TAG_H
#define BENCHDNN_COMMON_LAYOUT_TAG_H

#include <stddef.h>
#include <stdint.h>

#include "common/benchdnn.h"
#include "tessera.h"

/* The highest rank a driver's tensors have. */
#define BENCH_TAG_MAX_NDIMS 6

/* Expands a meta-tag (abx, axb, xba, aBx4b, aBx8b, aBx16b, ABx16a16b) for
 * a tensor of rank `ndims` into a library tag; other tags are copied. */
void bench_resolve_tag(const char *tag, int ndims, char *out, size_t len);

/* A tag is valid when it names a layout for some rank (meta-tags expanded
 * for that rank); "any" always is. */
int bench_tag_is_valid(const char *tag);

/* Sets `err` to "--OPTION: unknown tag 'TAG'" with a hint (the closest
 * common tag, else what tags look like) and returns -1. */
int bench_tag_error(char *err, const char *option, const char *tag);

/* Initializes `md` by `tag` (meta-tags resolved) and returns 1; on failure
 * returns 0 with res set, blaming the tag ("OPTION=TAG does not describe
 * a N-dimensional tensor") only when it has no layout of that rank, and
 * otherwise the dims ("WHAT memory descriptor: STATUS"). */
int bench_md_init_by_tag(tsr_memory_desc_t *md, int ndims, const int64_t *dims,
                         tsr_data_type_t dt, const char *tag,
                         const char *option, const char *what, res_t *res);

#endif
