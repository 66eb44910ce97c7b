# Command-line behaviour of the prelu driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file). Its CI set,
# inputs/prelu/test_prelu_ci, is registered by benchdnn/CMakeLists.txt.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "prelu_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(prelu_one_tensor 2
  "ERROR: bad prelu descriptor '2x3': 1 tensor given, 2 needed"
  --prelu 2x3)
benchdnn_cli_test(prelu_bad_dir 2 "ERROR: --dir: unknown direction 'FWD_X'"
  --prelu --dir=FWD_X 2x3:1x3)
benchdnn_cli_test(prelu_three_sdt 2
  "ERROR: --sdt: 'f32:f32:f32' needs 1 to 2 ':'-separated values"
  --prelu --sdt=f32:f32:f32 2x3:1x3)
benchdnn_cli_test(prelu_bad_stag 2 "ERROR: --stag: unknown tag 'qq'"
  --prelu --stag=abx:qq 2x3:1x3)

# The repro line: weights padded with 1s; fed back, the same line.
set(prelu_repro "--prelu --dir=BWD_DW --sdt=bf16:bf16 --stag=axb:axb 8x16x3x4:1x16x1x1")
benchdnn_cli_test(prelu_repro_from_options 0 "0:PASSED __REPRO: ${prelu_repro}\n"
  --prelu --dir=bwd_dw --sdt=BF16:bf16 --stag=axb:axb 8x16x3x4:1x16)
benchdnn_cli_test(prelu_repro_fed_back 0 "0:PASSED __REPRO: ${prelu_repro}\n"
  --prelu --dir=BWD_DW --sdt=bf16:bf16 --stag=axb:axb 8x16x3x4:1x16x1x1)
benchdnn_cli_test(prelu_defaults_not_printed 0
  "0:PASSED __REPRO: --prelu 3x64:3x1\n"
  --prelu --dir=FWD_D --sdt=f32:f32 --stag=abx:any 3x64:3x1)

# Integer backward is SKIPPED with the reason, not a failure.
benchdnn_cli_test(prelu_skip_int_bwd 0
  "SKIPPED \\(backward needs floating-point data types\\).*failed:0"
  --prelu --dir=BWD_DW --sdt=s8:s8 2x3:1x3)

# Performance mode prints GB/s.
benchdnn_cli_test(prelu_mode_perf 0 "--prelu 64x64:1x64,[0-9.e+-]+\n.*total perf"
  --prelu --mode=P --fix-times-per-prb=2 --perf-template=%prb%,%-Gbw%
  64x64:1x64)

# Both libraries on the same problems (oneDNN builds only): forward and
# backward with per-channel and scalar weights, weights `any`, integer
# data with f32 weights; each passes on both.
if(BENCHDNN_WITH_ONEDNN)
  benchdnn_cli_test(prelu_lib_both 0
    "1:PASSED __REPRO: --prelu --dir=BWD_DW --stag=axb:any 2x16x3x4:1x16x1x1\n1:PASSED __REPRO: --lib=onednn --prelu --dir=BWD_DW --stag=axb:any 2x16x3x4:1x16x1x1\n.*tests:10 passed:10 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
    --prelu --lib=both --dir=FWD_D,BWD_DW --stag=axb:any 2x16x3x4:1x16
    8x7x5:1x1x1 --reset --dir=FWD_I --sdt=s8:f32 3x64:3x1)
endif()
