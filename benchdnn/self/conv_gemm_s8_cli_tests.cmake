# The int8 GEMM convolution's batch (inputs/conv/test_conv_gemm_s8): every
# problem runs on "gemm:s8" and passes, with the CPU's best int8 GEMM
# kernel, with the VNNI one (TSR_MAX_CPU_ISA=avx512_core_vnni, below AMX)
# and with the portable one (TSR_MAX_CPU_ISA=generic).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "conv_gemm_s8_cli_tests.cmake needs benchdnn_cli_test()")
endif()

set(conv_gemm_s8_summary
  "tests:5522 passed:5522 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0")
benchdnn_cli_test(conv_gemm_s8_batch 0 "${conv_gemm_s8_summary}"
  --conv --batch=inputs/conv/test_conv_gemm_s8)
benchdnn_cli_test(conv_gemm_s8_batch_generic 0 "${conv_gemm_s8_summary}"
  --conv --batch=inputs/conv/test_conv_gemm_s8)
set_tests_properties(benchdnn_cli_conv_gemm_s8_batch_generic
  PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=generic)
benchdnn_cli_test(conv_gemm_s8_batch_isa_avx512_core_vnni 0
  "${conv_gemm_s8_summary}" --conv --batch=inputs/conv/test_conv_gemm_s8)
set_tests_properties(benchdnn_cli_conv_gemm_s8_batch_isa_avx512_core_vnni
  PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=avx512_core_vnni)
set_tests_properties(benchdnn_cli_conv_gemm_s8_batch
  benchdnn_cli_conv_gemm_s8_batch_isa_avx512_core_vnni
  benchdnn_cli_conv_gemm_s8_batch_generic PROPERTIES TIMEOUT 600
  # The longest tests of the suite: started first so that -j packs them.
  COST 1000)
