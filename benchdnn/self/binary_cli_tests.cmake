# Command-line behaviour of the binary driver, through benchdnn_cli_test()
# of common_cli_tests.cmake. Its CI sets, inputs/binary/test_binary_*ci, are
# registered by benchdnn/CMakeLists.txt.
# This file sorts before common_cli_tests.cmake in the glob, so it defines
# the same function first (the common file redefines it identically).
if(NOT COMMAND benchdnn_cli_test)
  set(BENCHDNN_EXPECT_EXIT ${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake)
  function(benchdnn_cli_test name code regex)
    add_test(NAME benchdnn_cli_${name}
      COMMAND ${CMAKE_COMMAND} -P ${BENCHDNN_EXPECT_EXIT} ${code} "${regex}"
              ${BENCHDNN} ${ARGN}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endfunction()
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(binary_one_tensor 2
  "ERROR: bad binary descriptor '2x3': 1 tensor given, 2 needed"
  --binary 2x3)
benchdnn_cli_test(binary_three_tensors 2
  "ERROR: bad binary descriptor '2x3:2x3:2x3': more than 2 tensors"
  --binary 2x3:2x3:2x3)
benchdnn_cli_test(binary_bad_dim 2
  "ERROR: bad binary descriptor '2xq:2x3': tensor 0: expected a dimension"
  --binary 2xq:2x3)
benchdnn_cli_test(binary_longer_src1 2
  "ERROR: bad binary descriptor '2x3:2x3x4': tensor 1 has 3 dims"
  --binary 2x3:2x3x4)
benchdnn_cli_test(binary_bad_alg 2
  "ERROR: --alg: 'relu' is not a binary algorithm"
  --binary --alg=relu 2x3:2x3)
benchdnn_cli_test(binary_one_sdt 2
  "ERROR: --sdt: 'f32' needs exactly 2 ':'-separated values"
  --binary --sdt=f32 2x3:2x3)
benchdnn_cli_test(binary_bad_sdt 2 "ERROR: --sdt: 'f31' is not a data type"
  --binary --sdt=f32:f31 2x3:2x3)
benchdnn_cli_test(binary_one_stag 2
  "ERROR: --stag: 'abx' needs exactly 2 ':'-separated values"
  --binary --stag=abx 2x3:2x3)
benchdnn_cli_test(binary_bad_scales 2
  "ERROR: --attr-scales: bad value 'src2:common:2'"
  --binary --attr-scales=src2:common:2 2x3:2x3)

# The repro line: src1 padded with 1s, algorithm and types in lower case,
# src1 scales next to src's; fed back, the same line.
set(binary_repro
  "--binary --sdt=s8:u8 --ddt=s8 --stag=axb:any --alg=mul --inplace=true --attr-scales=src:common:0.25\\+src1:common:0.5\\* --attr-post-ops=sum:0.5 2x16x3x4:1x16x1x1_nse")
benchdnn_cli_test(binary_repro_from_options 0 "0:PASSED __REPRO: ${binary_repro}\n"
  --binary --sdt=S8:U8 --ddt=s8 --stag=axb:any --alg=BINARY_MUL --inplace
  --attr-scales=src1:common:0.5*+src0:common:0.25 --attr-post-ops=sum:0.5
  2x16x3x4:1x16_nse)
benchdnn_cli_test(binary_repro_fed_back 0 "0:PASSED __REPRO: ${binary_repro}\n"
  --binary --sdt=s8:u8 --ddt=s8 --stag=axb:any --alg=mul --inplace=true
  --attr-scales=src:common:0.25+src1:common:0.5* --attr-post-ops=sum:0.5
  2x16x3x4:1x16x1x1_nse)

# Iteration: scales vary slower than post-ops, --inplace fastest; an
# empty list item is the default.
benchdnn_cli_test(binary_iteration_order 0
  "0:LISTED __REPRO: --binary 2x3:1x3\n1:LISTED __REPRO: --binary --inplace=true 2x3:1x3\n2:LISTED __REPRO: --binary --attr-post-ops=relu 2x3:1x3\n.*4:LISTED __REPRO: --binary --attr-scales=src1:common:2 2x3:1x3\n.*listed:8"
  --binary --mode=L --inplace=false,true --attr-scales=,src1:common:2
  --attr-post-ops=,relu 2x3:1x3)

# Invalid cases are SKIPPED with the reason; a skip is not a failure.
benchdnn_cli_test(binary_skip_inplace_bcast 0
  "SKIPPED \\(in place needs src0 with dst's dims\\).*failed:0"
  --binary --inplace=true 1x3x4:2x3x4)
benchdnn_cli_test(binary_skip_sum_bcast 0
  "SKIPPED \\(a sum post-op needs src0 with dst's dims\\).*failed:0"
  --binary --attr-post-ops=sum 1x3x4:2x3x4)
benchdnn_cli_test(binary_skip_per_oc_scales 0
  "SKIPPED \\(binary takes common scales only\\).*failed:0"
  --binary --attr-scales=src1:per_oc:2 2x3x4:2x3x4)

# Performance mode prints GB/s.
benchdnn_cli_test(binary_mode_perf 0 "--binary 64x64:1x64,[0-9.e+-]+\n.*total perf"
  --binary --mode=P --fix-times-per-prb=2 --perf-template=%prb%,%-Gbw%
  64x64:1x64)

# Both libraries on the same problems (oneDNN builds only): per-source
# scales (runtime too), a sum post-op, src1 `any`, in place with a
# binary post-op; each passes on both.
if(BENCHDNN_WITH_ONEDNN)
  benchdnn_cli_test(binary_lib_both 0
    "0:PASSED __REPRO: --binary --attr-scales=src:common:0.25\\+src1:common:0.5 --attr-post-ops=sum:0.5 2x16x3x4:2x16x3x4\n0:PASSED __REPRO: --lib=onednn --binary --attr-scales=src:common:0.25\\+src1:common:0.5 --attr-post-ops=sum:0.5 2x16x3x4:2x16x3x4\n.*3:PASSED __REPRO: --lib=onednn --binary --sdt=u8:s8 --attr-scales=src1:common:2\\* 4x8:1x8\ntests:8 passed:8 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
    --binary --lib=both --attr-scales=src:common:0.25+src1:common:0.5
    --attr-post-ops=sum:0.5 2x16x3x4:2x16x3x4
    --reset --stag=axb:any --alg=DIV 2x16x3x4:1x16
    --reset --inplace=true --alg=GE --attr-post-ops=mul:s8:per_oc
    3x5x6x9:3x5x6x9
    --reset --sdt=u8:s8 --ddt=f32 --attr-scales=src1:common:2* 4x8:1x8)
endif()
