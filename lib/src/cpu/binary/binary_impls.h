/* The binary implementations, for the list in binary_list.c. */
#ifndef TSR_CPU_BINARY_BINARY_IMPLS_H
#define TSR_CPU_BINARY_BINARY_IMPLS_H

#include "common/primitive.h"

extern const tsr_impl_t tsr_dense_binary_avx512_impl,
        tsr_dense_binary_avx2_impl, tsr_dense_binary_c_impl;
extern const tsr_impl_t tsr_ref_binary_impl;

#endif
