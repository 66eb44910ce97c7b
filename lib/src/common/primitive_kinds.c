/* The primitive kinds the library has: adding one is an entry here and
 * its tsr_prim_kind_info_t next to its op descriptor code. */
#include <stddef.h>

#include "primitive.h"

extern const tsr_prim_kind_info_t tsr_reorder_kind, tsr_convolution_kind,
        tsr_inner_product_kind, tsr_matmul_kind;
extern const tsr_prim_kind_info_t tsr_sum_kind, tsr_concat_kind,
        tsr_shuffle_kind;

extern const tsr_prim_kind_info_t tsr_binary_kind, tsr_prelu_kind;
extern const tsr_prim_kind_info_t tsr_eltwise_kind;

static const tsr_prim_kind_info_t *const kinds[] = {
        &tsr_reorder_kind,
        &tsr_convolution_kind,
        &tsr_inner_product_kind,
        &tsr_matmul_kind,
        &tsr_sum_kind,
        &tsr_concat_kind,
        &tsr_shuffle_kind,
        &tsr_binary_kind,
        &tsr_prelu_kind,
        &tsr_eltwise_kind,
};

const tsr_prim_kind_info_t *tsr_prim_kind_info(tsr_primitive_kind_t kind) {
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (kinds[i]->kind == kind)
            return kinds[i];
    return NULL;
}

const char *tsr_prim_kind2str(tsr_primitive_kind_t kind) {
    const tsr_prim_kind_info_t *info = tsr_prim_kind_info(kind);
    return info ? info->name : "undef";
}
