# The direct f32 convolution's batch (inputs/conv/test_conv_direct_f32):
# every problem runs on "direct:f32" and passes, with the AVX2 tiles and
# with the portable ones (TSR_MAX_CPU_ISA=generic). The first run is capped
# at AVX2: with AVX-512, first layers of open or channels-last sources go
# to gemm:f32 instead.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "conv_direct_cli_tests.cmake needs benchdnn_cli_test()")
endif()

set(conv_direct_summary
  "tests:511 passed:511 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0")
benchdnn_cli_test(conv_direct_f32_batch 0 "${conv_direct_summary}"
  --conv --batch=inputs/conv/test_conv_direct_f32)
benchdnn_cli_test(conv_direct_f32_batch_generic 0 "${conv_direct_summary}"
  --conv --batch=inputs/conv/test_conv_direct_f32)
set_tests_properties(benchdnn_cli_conv_direct_f32_batch
  PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=avx2)
set_tests_properties(benchdnn_cli_conv_direct_f32_batch_generic
  PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=generic)
set_tests_properties(benchdnn_cli_conv_direct_f32_batch
  benchdnn_cli_conv_direct_f32_batch_generic PROPERTIES TIMEOUT 600)
