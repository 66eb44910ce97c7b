/* Packing of A and B blocks into the panel layout the micro-kernels read:
 * one helper serves both matrices and both transpositions. */
#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/gemm_pack_f32_copy.h"

void tsr_gemm_f32_pack(const float *src, int64_t stride_x, int64_t stride_p,
                       int64_t lines, int64_t depth, int width, float *dst) {
    pack_f32_copy(src, stride_x, stride_p, lines, depth, width, dst);
}
