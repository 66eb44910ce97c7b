/* AVX-512 packing for the 6x32 kernel: lines contiguous in memory (B as
 * stored, A transposed) take the packing copy compiled here, in 64-byte
 * moves; the transposing case goes to the AVX2 packing's register
 * transposes. */
#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/gemm_pack_f32_copy.h"

void tsr_gemm_f32_pack_avx512(const float *src, int64_t stride_x,
                              int64_t stride_p, int64_t lines, int64_t depth,
                              int width, float *dst) {
    if (stride_x == 1)
        pack_f32_copy(src, stride_x, stride_p, lines, depth, width, dst);
    else
        tsr_gemm_f32_pack_avx2(src, stride_x, stride_p, lines, depth, width,
                               dst);
}
