# Command-line behaviour of the matmul driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "matmul_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(matmul_bad_descriptor 2
  "ERROR: bad matmul descriptor '2x3:4x5': src K" --matmul 2x3:4x5)
benchdnn_cli_test(matmul_bad_broadcast 2
  "ERROR: bad matmul descriptor '2x3x4:3x4x5': batch dims" --matmul 2x3x4:3x4x5)
benchdnn_cli_test(matmul_bad_bia_dt 2 "ERROR: --bia-dt: 'f31' is not a data type"
  --matmul --bia-dt=f31 2x3:3x4)
benchdnn_cli_test(matmul_bad_strides 2 "ERROR: --strides: '4xq::'"
  --matmul --strides=4xq:: 2x3:3x4)
benchdnn_cli_test(matmul_bad_runtime_masks 2
  "ERROR: --runtime_dims_masks: 'x' is not" --matmul --runtime_dims_masks=x 2x3:3x4)

# The CI set: every problem passes, also on the portable kernels.
benchdnn_cli_test(matmul_ci_batch 0 "failed:0"
  --matmul --batch=inputs/matmul/test_matmul_ci)
add_test(NAME benchdnn_cli_matmul_ci_batch_generic
  COMMAND ${CMAKE_COMMAND} -E env TSR_MAX_CPU_ISA=generic
          ${CMAKE_COMMAND} -P ${BENCHDNN_EXPECT_EXIT} 0 "failed:0"
          ${BENCHDNN} --matmul --batch=inputs/matmul/test_matmul_ci
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(benchdnn_cli_matmul_ci_batch
  benchdnn_cli_matmul_ci_batch_generic PROPERTIES TIMEOUT 600)

# The repro line fed back gives the same line.
set(matmul_repro
  "--matmul --dt=u8:s8:s8 --bia-dt=f32 --bia_mask=4 --wtag=ba --attr-zero-points=src:common:2 2x3x4:1x4x5n\"bcast\"")
benchdnn_cli_test(matmul_repro_fed_back 0 "0:PASSED __REPRO: ${matmul_repro}\n"
  --matmul --dt=u8:s8:s8 --bia-dt=f32 --bia_mask=4 --wtag=ba
  --attr-zero-points=src:common:2 2x3x4:1x4x5n"bcast")
benchdnn_cli_test(matmul_mode_perf 0
  "perf,cpu,gemm:f32,,--matmul 64x64:64x64,[0-9.e-]+,.*total perf: min\\(ms\\)"
  --matmul --mode=P --fix-times-per-prb=2 64x64:64x64)
benchdnn_cli_test(matmul_mode_bitwise 0 "0:PASSED"
  --matmul --mode=B --bia-dt=f32 --attr-post-ops=relu 4x16x32:4x32x8)
# Runtime dims are reported, not run.
benchdnn_cli_test(matmul_runtime_dims_unimplemented 1
  "UNIMPLEMENTED \\(runtime dimensions are not supported\\)"
  --matmul --runtime_dims_masks=3:3 10x30:30x20)
