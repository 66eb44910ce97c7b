/* Format tag strings: parsing into an outer dim order plus inner blocks.
 * memory_desc.c turns the result into strides (md_init_blocked). */
#ifndef TSR_COMMON_FORMAT_TAG_H
#define TSR_COMMON_FORMAT_TAG_H

#include "tessera.h"

typedef struct {
    int is_any; /* "any": no layout, any rank */
    int ndims;
    /* Logical dims from the outermost to the innermost. */
    int outer_order[TSR_MAX_NDIMS];
    /* Inner blocks from the outermost to the innermost. */
    int inner_nblks;
    tsr_dim_t inner_blks[TSR_MAX_NDIMS];
    int inner_idxs[TSR_MAX_NDIMS];
} tsr_tag_layout_t;

/* Parses oneDNN's letter form ("aBcd16b"), the classic aliases ("nchw",
 * "OIhw16i16o"), the OpenVINO GPU plugin names ("bfyx", "b_fs_yx_fsv16")
 * and "any". Returns tsr_invalid_arguments for anything else; `layout` is
 * written only on success. */
tsr_status_t tsr_format_tag_parse(const char *tag, tsr_tag_layout_t *layout);

#endif
