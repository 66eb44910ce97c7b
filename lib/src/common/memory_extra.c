/* The extra data of a memory descriptor (tessera.h,
 * tsr_memory_extra_desc_t): where it sits in the buffer, which extras are
 * valid, and what a reorder writes after the values: the compensation
 * sums, then one s32 word saying whether the values are "pair narrow". */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/memory_desc.h"
#include "common/utils.h"

size_t md_values_size(const tsr_memory_desc_t *md) {
    return (size_t)md_nelems_padded(md) * tsr_data_type_size(md->data_type);
}

size_t md_extra_offset(const tsr_memory_desc_t *md) {
    return (size_t)tsr_rnd_up((int64_t)md_values_size(md), 64);
}

/* Number of leading dims the compensation mask covers; 0 when the mask is
 * not a non-empty prefix of the dims. */
static int comp_mask_dims(const tsr_memory_desc_t *md) {
    const int mask = md->extra.compensation_mask;
    for (int k = 1; k <= md->ndims && k <= 2; ++k)
        if (mask == (1 << k) - 1)
            return k;
    return 0;
}

tsr_dim_t md_extra_comp_count(const tsr_memory_desc_t *md) {
    if (!(md->extra.flags & tsr_memory_extra_flag_compensation))
        return 0;
    tsr_dim_t count = 1;
    for (int d = 0; d < comp_mask_dims(md); ++d)
        count *= md->dims[d];
    return count;
}

int md_extra_ok(const tsr_memory_desc_t *md) {
    if (md->extra.flags == tsr_memory_extra_flag_none)
        return 1;
    return md->extra.flags == tsr_memory_extra_flag_compensation &&
           md->data_type == tsr_s8 && comp_mask_dims(md) > 0;
}

int md_extra_equal(const tsr_memory_desc_t *a, const tsr_memory_desc_t *b) {
    if (a->extra.flags != b->extra.flags)
        return 0;
    return !a->extra.flags ||
           a->extra.compensation_mask == b->extra.compensation_mask;
}

const int32_t *md_extra_comp(const tsr_memory_desc_t *md, const void *data) {
    if (!md_extra_comp_count(md) || !data)
        return NULL;
    return (const int32_t *)((const char *)data + md_extra_offset(md));
}

size_t md_extra_size(const tsr_memory_desc_t *md) {
    const tsr_dim_t count = md_extra_comp_count(md);
    return count ? (size_t)(count + 1) * sizeof(int32_t) : 0;
}

/* The word after the sums. */
static int32_t *pairs_narrow_word(const tsr_memory_desc_t *md, void *data) {
    return (int32_t *)((char *)data + md_extra_offset(md)) +
           md_extra_comp_count(md);
}

int md_extra_pairs_narrow(const tsr_memory_desc_t *md, const void *data) {
    if (!md_extra_comp_count(md) || !data)
        return 0;
    return *pairs_narrow_word(md, (void *)data) == 1;
}

/* 1 when every pair of s8 values at bytes (2j, 2j + 1) of the values,
 * padding included, has |a| + |b| <= 128. */
static int32_t scan_pairs_narrow(const int8_t *v, size_t bytes) {
    const ptrdiff_t pairs = (ptrdiff_t)(bytes / 2);
    int wide = 0;
#pragma omp parallel for schedule(static)                                      \
        reduction(|                                                            \
                  : wide) if (pairs >= 65536)
    for (ptrdiff_t j = 0; j < pairs; ++j)
        wide |= abs(v[2 * j]) + abs(v[2 * j + 1]) > 128;
    return !wide;
}

void md_extra_compute(const tsr_memory_desc_t *md, void *data) {
    const tsr_dim_t count = md_extra_comp_count(md);
    if (!count || !data)
        return;
    /* The masked dims lead, so sum i covers row-major points
     * [i * inner, (i + 1) * inner). */
    const tsr_dim_t inner = tsr_memory_desc_nelems(md) / count;
    const int8_t *values = data;
    int32_t *sums = (int32_t *)((char *)data + md_extra_offset(md));
#pragma omp parallel for schedule(static) if (count * inner >= 65536)
    for (tsr_dim_t i = 0; i < count; ++i) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        md_l2pos(md, i * inner, pos);
        uint32_t s = 0; /* wraps modulo 2^32, as documented */
        for (tsr_dim_t r = 0; r < inner; ++r) {
            s += (uint32_t)(int32_t)values[md_off_v(md, pos)];
            for (int d = md->ndims - 1; d >= 0; --d) {
                if (++pos[d] < md->dims[d])
                    break;
                pos[d] = 0;
            }
        }
        sums[i] = (int32_t)s;
    }
    *pairs_narrow_word(md, data) =
            scan_pairs_narrow(values, md_values_size(md));
}
