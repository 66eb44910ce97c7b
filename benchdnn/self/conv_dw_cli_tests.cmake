# The depthwise convolution's batch (inputs/conv/test_conv_dw_ci): every
# problem runs on "dw:f32" (or "dw:s8" for int8) and passes, with the CPU's best kernel (AVX-512
# or AVX2), with the AVX2 one (TSR_MAX_CPU_ISA=avx2: the same as the best on
# an AVX2-only CPU) and with the portable one (TSR_MAX_CPU_ISA=generic).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "conv_dw_cli_tests.cmake needs benchdnn_cli_test()")
endif()

set(conv_dw_summary
  "tests:5236 passed:5236 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0")
benchdnn_cli_test(conv_dw_f32_batch 0 "${conv_dw_summary}"
  --conv --batch=inputs/conv/test_conv_dw_ci)
benchdnn_cli_test(conv_dw_f32_batch_generic 0 "${conv_dw_summary}"
  --conv --batch=inputs/conv/test_conv_dw_ci)
set_tests_properties(benchdnn_cli_conv_dw_f32_batch_generic
  PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=generic)
benchdnn_cli_test(conv_dw_f32_batch_isa_avx2 0 "${conv_dw_summary}"
  --conv --batch=inputs/conv/test_conv_dw_ci)
set_tests_properties(benchdnn_cli_conv_dw_f32_batch_isa_avx2
  PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=avx2)
set_tests_properties(benchdnn_cli_conv_dw_f32_batch
  benchdnn_cli_conv_dw_f32_batch_isa_avx2
  benchdnn_cli_conv_dw_f32_batch_generic PROPERTIES TIMEOUT 600)
