# The int8 GEMM convolution's batch (inputs/conv/test_conv_gemm_s8): every
# problem runs on "gemm:s8" and passes, with the CPU's best int8 GEMM
# kernel, with the VNNI one (TSR_MAX_CPU_ISA=avx512_core_vnni, below AMX),
# the AVX2 one and the portable one (TSR_MAX_CPU_ISA=generic). As for the
# f32 batch (conv_gemm_cli_tests.cmake), CI runs the batch's paths
# (inputs/conv/test_conv_gemm_s8_paths) at every ISA, and the whole batch
# capped is labelled long, as is the whole batch at the best ISA in
# sanitizer builds.
if(NOT COMMAND conv_gemm_batch_tests)
  message(FATAL_ERROR "conv_gemm_s8_cli_tests.cmake needs conv_gemm_batch_tests() "
                      "(conv_gemm_cli_tests.cmake, included before this file)")
endif()

conv_gemm_batch_tests(conv_gemm_s8_batch inputs/conv/test_conv_gemm_s8
  "tests:5522 passed:5522 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  BEST_LABELS ${conv_gemm_best_labels}
  CAPPED_LABELS long ISAS avx512_core_vnni avx2 generic)
conv_gemm_batch_tests(conv_gemm_s8_paths inputs/conv/test_conv_gemm_s8_paths
  "tests:1942 passed:1942 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  ISAS avx512_core_vnni avx2 generic)
