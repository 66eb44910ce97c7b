# The f32 GEMM convolution's batch (inputs/conv/test_conv_gemm_f32): every
# problem runs on "gemm:f32" and passes, with the CPU's best GEMM kernel,
# capped at AVX2 (whose kernel reads sources by taps too) and with the
# portable one (TSR_MAX_CPU_ISA=generic). Two threads at least, so that
# small images batched into per-thread items take a padding order over
# several images.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "conv_gemm_cli_tests.cmake needs benchdnn_cli_test()")
endif()

set(conv_gemm_summary
  "tests:2294 passed:2294 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0")
benchdnn_cli_test(conv_gemm_f32_batch 0 "${conv_gemm_summary}"
  --conv --batch=inputs/conv/test_conv_gemm_f32)
benchdnn_cli_test(conv_gemm_f32_batch_generic 0 "${conv_gemm_summary}"
  --conv --batch=inputs/conv/test_conv_gemm_f32)
set_tests_properties(benchdnn_cli_conv_gemm_f32_batch_generic
  PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=generic)
benchdnn_cli_test(conv_gemm_f32_batch_isa_avx2 0 "${conv_gemm_summary}"
  --conv --batch=inputs/conv/test_conv_gemm_f32)
set_tests_properties(benchdnn_cli_conv_gemm_f32_batch_isa_avx2
  PROPERTIES ENVIRONMENT "TSR_MAX_CPU_ISA=avx2;OMP_NUM_THREADS=2")
set_tests_properties(benchdnn_cli_conv_gemm_f32_batch
  PROPERTIES ENVIRONMENT OMP_NUM_THREADS=2)
set_tests_properties(benchdnn_cli_conv_gemm_f32_batch
  benchdnn_cli_conv_gemm_f32_batch_generic
  benchdnn_cli_conv_gemm_f32_batch_isa_avx2 PROPERTIES TIMEOUT 600
  # The longest tests of the suite: started first so that -j packs them.
  COST 1000)
