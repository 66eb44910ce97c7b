/* Memory descriptors: construction from tags and strides, the offset
 * function every reference implementation uses, size and equality queries,
 * and zero padding of blocked tails. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checked_math.h"
#include "data_type.h"
#include "format_tag.h"
#include "memory_desc.h"
#include "utils.h"

/* Rank within bounds, each dim positive and the product of all of them
 * within TSR_MAX_ELEMS. */
static int dims_are_valid(int ndims, const tsr_dim_t *dims) {
    if (ndims < 1 || ndims > TSR_MAX_NDIMS || !dims)
        return 0;
    tsr_dim_t n = 1;
    for (int d = 0; d < ndims; d++)
        if (dims[d] <= 0 || (n = md_mul_elems(n, dims[d])) < 0)
            return 0;
    return 1;
}

static int data_type_is_valid(tsr_data_type_t dt) {
    return tsr_data_type_size(dt) != 0;
}

void md_dim_blocks(const tsr_memory_desc_t *md, tsr_dim_t *blocks) {
    for (int d = 0; d < md->ndims; d++)
        blocks[d] = 1;
    for (int k = 0; k < md->blocking.inner_nblks; k++)
        blocks[md->blocking.inner_idxs[k]] *= md->blocking.inner_blks[k];
}

static tsr_dim_t inner_block_size(const tsr_memory_desc_t *md) {
    tsr_dim_t size = 1;
    for (int k = 0; k < md->blocking.inner_nblks; k++)
        size *= md->blocking.inner_blks[k];
    return size;
}

/* Inner blocks within bounds: a known count, dims that exist, positive
 * sizes whose product stays within TSR_MAX_ELEMS. */
static int inner_blocks_are_valid(const tsr_memory_desc_t *md) {
    const tsr_blocking_desc_t *blk = &md->blocking;
    if (blk->inner_nblks < 0 || blk->inner_nblks > TSR_MAX_NDIMS)
        return 0;
    tsr_dim_t size = 1;
    for (int k = 0; k < blk->inner_nblks; k++)
        if (blk->inner_idxs[k] < 0 || blk->inner_idxs[k] >= md->ndims ||
            blk->inner_blks[k] <= 0 ||
            (size = md_mul_elems(size, blk->inner_blks[k])) < 0)
            return 0;
    return 1;
}

/* Padded dims cover the dims in whole blocks, with no offsets, and the
 * padded buffer's points stay within TSR_MAX_ELEMS. */
static int padded_dims_are_valid(const tsr_memory_desc_t *md,
                                 const tsr_dim_t *blocks) {
    tsr_dim_t n = 1;
    for (int d = 0; d < md->ndims; d++) {
        const tsr_dim_t pd = md->padded_dims[d];
        if (pd < md->dims[d] || pd % blocks[d] != 0 ||
            md->padded_offsets[d] != 0 || (n = md_mul_elems(n, pd)) < 0)
            return 0;
    }
    return 1;
}

/* Strides never negative (nor above TSR_MAX_ELEMS), and no two points at
 * one offset: ordered by stride, each dim with more than one outer index
 * steps over the whole extent of the dims (and inner blocks) inside it.
 * On success *span is that extent for all dims: the buffer's points from
 * offset0. */
static int strides_are_valid(const tsr_memory_desc_t *md,
                             const tsr_dim_t *blocks, tsr_dim_t *span) {
    const tsr_dim_t *strides = md->blocking.strides;
    int order[TSR_MAX_NDIMS], n = 0;
    for (int d = 0; d < md->ndims; d++) {
        if (strides[d] < 0 || strides[d] > TSR_MAX_ELEMS)
            return 0;
        if (md->padded_dims[d] / blocks[d] > 1)
            order[n++] = d;
    }
    for (int i = 1; i < n; i++) /* insertion sort by ascending stride */
        for (int j = i; j > 0 && strides[order[j]] < strides[order[j - 1]];
             j--) {
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    tsr_dim_t extent = inner_block_size(md);
    for (int i = 0; i < n; i++) {
        const int d = order[i];
        if (strides[d] < extent)
            return 0;
        extent = md_mul_elems(strides[d], md->padded_dims[d] / blocks[d]);
        if (extent < 0)
            return 0;
    }
    *span = extent;
    return 1;
}

int md_is_valid(const tsr_memory_desc_t *md) {
    if (!md || !dims_are_valid(md->ndims, md->dims) ||
        !data_type_is_valid(md->data_type) || !md_extra_ok(md))
        return 0;
    if (md->format_kind == tsr_format_kind_any)
        return 1;
    if (md->format_kind != tsr_format_kind_blocked ||
        !inner_blocks_are_valid(md))
        return 0;
    tsr_dim_t blocks[TSR_MAX_NDIMS], span, end;
    md_dim_blocks(md, blocks);
    return padded_dims_are_valid(md, blocks) &&
           strides_are_valid(md, blocks, &span) && md->offset0 >= 0 &&
           tsr_add_i64(md->offset0, span, &end) && end <= TSR_MAX_ELEMS;
}

/* A blocked descriptor of these dims with nothing else set yet. */
static void blocked_start(tsr_memory_desc_t *built, int ndims,
                          const tsr_dim_t *dims, tsr_data_type_t dt) {
    memset(built, 0, sizeof(*built));
    built->ndims = ndims;
    built->data_type = dt;
    built->format_kind = tsr_format_kind_blocked;
    memcpy(built->dims, dims, sizeof(*dims) * (size_t)ndims);
}

tsr_status_t md_init_blocked(tsr_memory_desc_t *md, int ndims,
                             const tsr_dim_t *dims, tsr_data_type_t dt,
                             const int *outer_order, int inner_nblks,
                             const tsr_dim_t *inner_blks,
                             const int *inner_idxs) {
    if (!md || !dims_are_valid(ndims, dims) || !data_type_is_valid(dt) ||
        !outer_order || inner_nblks < 0 || inner_nblks > TSR_MAX_NDIMS ||
        (inner_nblks > 0 && (!inner_blks || !inner_idxs)))
        return tsr_invalid_arguments;

    tsr_memory_desc_t built;
    blocked_start(&built, ndims, dims, dt);

    int seen[TSR_MAX_NDIMS] = {0};
    for (int i = 0; i < ndims; i++) {
        const int d = outer_order[i];
        if (d < 0 || d >= ndims || seen[d])
            return tsr_invalid_arguments;
        seen[d] = 1;
    }
    tsr_dim_t inner_size = 1;
    for (int k = 0; k < inner_nblks; k++) {
        if (inner_idxs[k] < 0 || inner_idxs[k] >= ndims || inner_blks[k] <= 0)
            return tsr_invalid_arguments;
        built.blocking.inner_blks[k] = inner_blks[k];
        built.blocking.inner_idxs[k] = inner_idxs[k];
        inner_size = md_mul_elems(inner_size, inner_blks[k]);
        if (inner_size < 0)
            return tsr_invalid_arguments;
    }
    built.blocking.inner_nblks = inner_nblks;

    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(&built, blocks);
    for (int d = 0; d < ndims; d++)
        built.padded_dims[d] = tsr_rnd_up(dims[d], blocks[d]);

    /* Dense: each outer dim's stride is the size of everything inside it. */
    tsr_dim_t stride = inner_size;
    for (int i = ndims - 1; i >= 0; i--) {
        const int d = outer_order[i];
        built.blocking.strides[d] = stride;
        stride = md_mul_elems(stride, built.padded_dims[d] / blocks[d]);
        if (stride < 0)
            return tsr_invalid_arguments;
    }
    if (!md_is_valid(&built))
        return tsr_invalid_arguments;
    *md = built;
    return tsr_success;
}

tsr_status_t tsr_memory_desc_init_by_tag(tsr_memory_desc_t *md, int ndims,
                                         const tsr_dim_t *dims,
                                         tsr_data_type_t data_type,
                                         const char *tag) {
    tsr_tag_layout_t layout;
    if (!md || !dims_are_valid(ndims, dims) || !data_type_is_valid(data_type) ||
        tsr_format_tag_parse(tag, &layout) != tsr_success)
        return tsr_invalid_arguments;
    if (layout.is_any) {
        memset(md, 0, sizeof(*md));
        md->ndims = ndims;
        md->data_type = data_type;
        md->format_kind = tsr_format_kind_any;
        memcpy(md->dims, dims, sizeof(*dims) * (size_t)ndims);
        memcpy(md->padded_dims, dims, sizeof(*dims) * (size_t)ndims);
        return tsr_success;
    }
    if (layout.ndims != ndims)
        return tsr_invalid_arguments;
    return md_init_blocked(md, ndims, dims, data_type, layout.outer_order,
                           layout.inner_nblks, layout.inner_blks,
                           layout.inner_idxs);
}

tsr_status_t tsr_memory_desc_init_by_strides(tsr_memory_desc_t *md, int ndims,
                                             const tsr_dim_t *dims,
                                             tsr_data_type_t data_type,
                                             const tsr_dim_t *strides) {
    if (!md || !dims_are_valid(ndims, dims) || !data_type_is_valid(data_type))
        return tsr_invalid_arguments;
    if (!strides) {
        int row_major[TSR_MAX_NDIMS];
        for (int d = 0; d < ndims; d++)
            row_major[d] = d;
        return md_init_blocked(md, ndims, dims, data_type, row_major, 0, NULL,
                               NULL);
    }
    /* dims and strides may point into *md itself. */
    tsr_memory_desc_t built;
    blocked_start(&built, ndims, dims, data_type);
    memcpy(built.padded_dims, dims, sizeof(*dims) * (size_t)ndims);
    for (int d = 0; d < ndims; d++) {
        if (strides[d] <= 0)
            return tsr_invalid_arguments;
        built.blocking.strides[d] = strides[d];
    }
    if (!md_is_valid(&built))
        return tsr_invalid_arguments;
    *md = built;
    return tsr_success;
}

tsr_dim_t md_off_v(const tsr_memory_desc_t *md, const tsr_dim_t *pos) {
    const tsr_blocking_desc_t *blk = &md->blocking;
    if (blk->inner_nblks == 0) {
        tsr_dim_t offset = md->offset0;
        for (int d = 0; d < md->ndims; d++)
            offset += pos[d] * blk->strides[d];
        return offset;
    }
    tsr_dim_t outer[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++)
        outer[d] = pos[d];
    /* Peel the blocks from the innermost: each takes the lowest part of
     * what is left of its dim's index. */
    tsr_dim_t inner_offset = 0, inner_stride = 1;
    for (int k = blk->inner_nblks - 1; k >= 0; k--) {
        const int d = (int)blk->inner_idxs[k];
        const tsr_dim_t b = blk->inner_blks[k];
        inner_offset += (outer[d] % b) * inner_stride;
        outer[d] /= b;
        inner_stride *= b;
    }
    tsr_dim_t offset = md->offset0 + inner_offset;
    for (int d = 0; d < md->ndims; d++)
        offset += outer[d] * blk->strides[d];
    return offset;
}

void md_l2pos(const tsr_memory_desc_t *md, tsr_dim_t l, tsr_dim_t *pos) {
    for (int d = md->ndims - 1; d >= 0; d--) {
        pos[d] = l % md->dims[d];
        l /= md->dims[d];
    }
}

tsr_dim_t md_off_l(const tsr_memory_desc_t *md, tsr_dim_t l) {
    tsr_dim_t pos[TSR_MAX_NDIMS];
    md_l2pos(md, l, pos);
    return md_off_v(md, pos);
}

/* Highest element offset of the padded buffer, offset0 included. */
static tsr_dim_t max_offset(const tsr_memory_desc_t *md) {
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(md, blocks);
    tsr_dim_t last = md->offset0 + inner_block_size(md) - 1;
    for (int d = 0; d < md->ndims; d++) {
        const tsr_dim_t outer_extent = md->padded_dims[d] / blocks[d];
        if (md->blocking.strides[d] > 0)
            last += (outer_extent - 1) * md->blocking.strides[d];
    }
    return last;
}

tsr_dim_t md_nelems_padded(const tsr_memory_desc_t *md) {
    if (md_is_zero(md) || md_is_any(md))
        return 0;
    return max_offset(md) + 1;
}

size_t tsr_memory_desc_get_size(const tsr_memory_desc_t *md) {
    if (!md_is_valid(md) || md_is_any(md))
        return 0;
    const size_t extra = md_extra_size(md);
    if (extra == 0 || md_nelems_padded(md) == 0)
        return md_values_size(md);
    return md_extra_offset(md) + extra;
}

tsr_dim_t tsr_memory_desc_nelems(const tsr_memory_desc_t *md) {
    if (!md || !dims_are_valid(md->ndims, md->dims))
        return 0;
    tsr_dim_t n = 1;
    for (int d = 0; d < md->ndims; d++)
        n *= md->dims[d];
    return n;
}

int md_blocking_in_bounds(const tsr_memory_desc_t *md) {
    if (md->ndims < 1 || md->ndims > TSR_MAX_NDIMS ||
        md->format_kind != tsr_format_kind_blocked)
        return 0;
    return inner_blocks_are_valid(md);
}

/* md_off_v with every step checked, so that a descriptor nobody validated
 * gives -1 instead of an overflow (the public query is called per point by
 * callers that validated once, so it does not validate the whole
 * descriptor each time). */
tsr_dim_t tsr_memory_desc_offset(const tsr_memory_desc_t *md,
                                 const tsr_dim_t *pos) {
    if (!md || !pos || !md_blocking_in_bounds(md))
        return -1;
    tsr_dim_t outer[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++) {
        if (pos[d] < 0 || pos[d] >= md->dims[d])
            return -1;
        outer[d] = pos[d];
    }
    const tsr_blocking_desc_t *blk = &md->blocking;
    tsr_dim_t offset = md->offset0, inner_stride = 1;
    for (int k = blk->inner_nblks - 1; k >= 0; k--) {
        const int d = (int)blk->inner_idxs[k];
        const tsr_dim_t b = blk->inner_blks[k];
        tsr_dim_t term;
        if (!tsr_mul_i64(outer[d] % b, inner_stride, &term) ||
            !tsr_add_i64(offset, term, &offset) ||
            !tsr_mul_i64(inner_stride, b, &inner_stride))
            return -1;
        outer[d] /= b;
    }
    for (int d = 0; d < md->ndims; d++) {
        tsr_dim_t term;
        if (!tsr_mul_i64(outer[d], blk->strides[d], &term) ||
            !tsr_add_i64(offset, term, &offset))
            return -1;
    }
    return offset < 0 ? -1 : offset;
}

int md_has_padding(const tsr_memory_desc_t *md) {
    for (int d = 0; d < md->ndims; d++)
        if (md->padded_dims[d] != md->dims[d])
            return 1;
    return 0;
}

int md_same_layout(const tsr_memory_desc_t *a, const tsr_memory_desc_t *b) {
    if (a->format_kind != tsr_format_kind_blocked ||
        b->format_kind != tsr_format_kind_blocked || a->ndims != b->ndims ||
        a->blocking.inner_nblks != b->blocking.inner_nblks)
        return 0;
    for (int k = 0; k < a->blocking.inner_nblks; k++)
        if (a->blocking.inner_blks[k] != b->blocking.inner_blks[k] ||
            a->blocking.inner_idxs[k] != b->blocking.inner_idxs[k])
            return 0;
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(a, blocks);
    for (int d = 0; d < a->ndims; d++) {
        if (a->padded_dims[d] != b->padded_dims[d])
            return 0;
        /* A dim with one outer index never uses its stride. */
        if (a->padded_dims[d] / blocks[d] > 1 &&
            a->blocking.strides[d] != b->blocking.strides[d])
            return 0;
    }
    return 1;
}

int tsr_memory_desc_equal(const tsr_memory_desc_t *a,
                          const tsr_memory_desc_t *b) {
    if (!a || !b || a->ndims != b->ndims || a->ndims < 0 ||
        a->ndims > TSR_MAX_NDIMS || a->data_type != b->data_type ||
        a->format_kind != b->format_kind)
        return 0;
    for (int d = 0; d < a->ndims; d++)
        if (a->dims[d] != b->dims[d])
            return 0;
    if (a->format_kind != tsr_format_kind_blocked)
        return 1;
    return md_blocking_in_bounds(a) && md_blocking_in_bounds(b) &&
           a->offset0 == b->offset0 && md_same_layout(a, b) &&
           md_extra_equal(a, b);
}

int tsr_memory_desc_matches_tag(const tsr_memory_desc_t *md, const char *tag) {
    tsr_tag_layout_t layout;
    if (!md || tsr_format_tag_parse(tag, &layout) != tsr_success)
        return 0;
    if (layout.is_any)
        return md_is_any(md);
    if (!md_blocking_in_bounds(md) || layout.ndims != md->ndims)
        return 0;
    tsr_memory_desc_t expected;
    if (md_init_blocked(&expected, md->ndims, md->dims, md->data_type,
                        layout.outer_order, layout.inner_nblks,
                        layout.inner_blks, layout.inner_idxs) != tsr_success)
        return 0;
    return md_same_layout(md, &expected);
}

tsr_status_t tsr_memory_desc_layout_str(const tsr_memory_desc_t *md, char *buf,
                                        size_t len) {
    if (!md || !buf || len == 0)
        return tsr_invalid_arguments;
    if (md->format_kind == tsr_format_kind_any) {
        snprintf(buf, len, "any");
        return tsr_success;
    }
    if (!md_blocking_in_bounds(md)) {
        snprintf(buf, len, "undef");
        return tsr_success;
    }
    /* Outer dims by descending stride; on a tie the dim with more outer
     * indices is the outer one (a size-1 dim's stride means nothing), then
     * the lower dim index. */
    tsr_dim_t blocks[TSR_MAX_NDIMS], extent[TSR_MAX_NDIMS];
    int order[TSR_MAX_NDIMS];
    const int ndims = md->ndims;
    md_dim_blocks(md, blocks);
    for (int d = 0; d < ndims; d++) {
        order[d] = d;
        extent[d] = md->padded_dims[d] / blocks[d];
    }
    for (int i = 1; i < ndims; i++)
        for (int j = i; j > 0; j--) {
            const int x = order[j - 1], y = order[j];
            const tsr_dim_t sx = md->blocking.strides[x];
            const tsr_dim_t sy = md->blocking.strides[y];
            const int y_is_outer =
                    sy > sx || (sy == sx && extent[y] > extent[x]);
            if (!y_is_outer)
                break;
            order[j - 1] = y;
            order[j] = x;
        }
    /* Letters, then up to 20 digits and a letter per block. */
    char str[TSR_MAX_NDIMS + 21 * TSR_MAX_NDIMS + 1];
    size_t n = 0;
    for (int i = 0; i < ndims; i++) {
        const int d = order[i];
        str[n++] = (char)((blocks[d] > 1 ? 'A' : 'a') + d);
    }
    str[n] = '\0';
    for (int k = 0; k < md->blocking.inner_nblks && k < TSR_MAX_NDIMS; k++) {
        const int written = snprintf(str + n, sizeof(str) - n, "%lld%c",
                                     (long long)md->blocking.inner_blks[k],
                                     (char)('a' + md->blocking.inner_idxs[k]));
        if (written < 0 || (size_t)written >= sizeof(str) - n)
            break;
        n += (size_t)written;
    }
    snprintf(buf, len, "%s", str);
    return tsr_success;
}

void md_zero_pad(const tsr_memory_desc_t *md, void *data) {
    const size_t esize = tsr_data_type_size(md->data_type);
    if (!data || esize == 0 || md->format_kind != tsr_format_kind_blocked ||
        !md_has_padding(md))
        return;
    const int ndims = md->ndims;
    /* For each padded dim: every point whose index on that dim lies in the
     * padding, the other dims over their padded range. Corners are visited
     * more than once, which is harmless for zeros. */
    for (int pd = 0; pd < ndims; pd++) {
        const tsr_dim_t pad = md->padded_dims[pd] - md->dims[pd];
        if (pad <= 0)
            continue;
        tsr_dim_t count = pad;
        for (int d = 0; d < ndims; d++)
            if (d != pd)
                count *= md->padded_dims[d];
#pragma omp parallel for schedule(static) if (count > 4096)
        for (tsr_dim_t l = 0; l < count; l++) {
            tsr_dim_t pos[TSR_MAX_NDIMS], rest = l;
            for (int d = ndims - 1; d >= 0; d--) {
                const tsr_dim_t extent = d == pd ? pad : md->padded_dims[d];
                pos[d] = rest % extent;
                rest /= extent;
            }
            pos[pd] += md->dims[pd];
            const tsr_dim_t off = md_off_v(md, pos);
            switch (esize) {
            case 4:
                ((uint32_t *)data)[off] = 0;
                break;
            case 2:
                ((uint16_t *)data)[off] = 0;
                break;
            default:
                ((uint8_t *)data)[off] = 0;
                break;
            }
        }
    }
}
