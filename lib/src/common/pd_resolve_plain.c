/* The plain layout choice for "any" that the reference implementations (and
 * the GEMM ones, for the arguments they do not choose themselves) of
 * convolution, inner product and matmul share. */
#include "memory_desc.h"
#include "primitive.h"

/* Dense layout in logical order (abc..., or goihw for grouped weights). */
static tsr_status_t resolve_plain(tsr_memory_desc_t *md) {
    if (!md_is_any(md))
        return tsr_success;
    int order[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++)
        order[d] = d;
    tsr_memory_desc_t plain;
    tsr_status_t st = md_init_blocked(&plain, md->ndims, md->dims,
                                      md->data_type, order, 0, NULL, NULL);
    if (st == tsr_success)
        *md = plain;
    return st;
}

tsr_status_t tsr_pd_resolve_any_plain(struct tsr_primitive_desc *pd) {
    static const tsr_md_slot_t slots[] = {TSR_MD_SRC, TSR_MD_WEIGHTS,
                                          TSR_MD_BIAS, TSR_MD_DST};
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
        tsr_memory_desc_t *md = &pd->md[slots[i]];
        if (md_is_zero(md))
            continue;
        tsr_status_t st = resolve_plain(md);
        if (st != tsr_success)
            return st;
    }
    return tsr_success;
}
