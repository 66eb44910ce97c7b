/* Layout tags as the drivers' --stag/--wtag/--dtag options give them:
 * library tags, "any", and meta-tags that stand for a layout of any rank. */
#ifndef BENCHDNN_COMMON_LAYOUT_TAG_H
#define BENCHDNN_COMMON_LAYOUT_TAG_H

#include <stddef.h>

#include "tessera.h"

/* The highest rank a driver's tensors have. */
#define BENCH_TAG_MAX_NDIMS 6

/* Expands a meta-tag (abx, axb, xba, aBx4b, aBx8b, aBx16b, ABx16a16b) for
 * a tensor of rank `ndims` into a library tag; other tags are copied. */
void bench_resolve_tag(const char *tag, int ndims, char *out, size_t len);

/* A tag is valid when it names a layout for some rank (meta-tags expanded
 * for that rank); "any" always is. */
int bench_tag_is_valid(const char *tag);

#endif
