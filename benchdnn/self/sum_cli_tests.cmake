# Command-line behaviour of the sum driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "sum_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(sum_bad_descriptor 2 "ERROR: bad sum descriptor '3xQ'"
  --sum 3xQ)
benchdnn_cli_test(sum_bad_sdt 2 "ERROR: --sdt: 'f31' is not a data type"
  --sum --sdt=f32:f31 3x4)
benchdnn_cli_test(sum_one_source 2 "ERROR: --sdt=f32: sum needs at least 2 sources"
  --sum --sdt=f32 3x4)
benchdnn_cli_test(sum_scales_count 2 "ERROR: --scales=1:2: 2 scales for 3 sources"
  --sum --sdt=f32:f32:f32 --scales=1:2 3x4)
benchdnn_cli_test(sum_stag_count 2 "ERROR: --stag=abx:axb: 2 tags for 3 sources"
  --sum --sdt=f32:f32:f32 --stag=abx:axb 3x4)
benchdnn_cli_test(sum_bad_stag 2 "ERROR: --stag: unknown tag 'foo'"
  --sum --stag=abx:foo 3x4)
benchdnn_cli_test(sum_bad_scale 2 "ERROR: --scales: 'x' is not a number"
  --sum --scales=1:x 3x4)

# The repro line: fed back, it gives the same line; one --stag or --scales
# value stands for every source and is printed per source.
set(sum_repro
  "--sum --sdt=f32:s8:u8 --ddt=s8 --stag=axb:abx:axb --dtag=abx --scales=0.5:2:1 --attr-scratchpad=user 3x17x5x7_nres")
benchdnn_cli_test(sum_repro_fed_back 0 "0:PASSED __REPRO: ${sum_repro}\n"
  --sum --sdt=f32:s8:u8 --ddt=s8 --stag=axb:abx:axb --dtag=abx
  --scales=0.5:2:1 --attr-scratchpad=user 3x17x5x7_nres)
benchdnn_cli_test(sum_repro_broadcast 0
  "0:PASSED __REPRO: --sum --stag=axb:axb --scales=0.5:0.5 3x17x5x7\n"
  --sum --scales=0.5 --stag=axb 3x17x5x7)
# Without a dst descriptor --ddt is ignored and not printed.
benchdnn_cli_test(sum_dtag_undef_drops_ddt 0
  "0:PASSED __REPRO: --sum --sdt=s8:f32 --scales=1:1 3x4\n"
  --sum --sdt=s8:f32 --ddt=f32 3x4)
benchdnn_cli_test(sum_inplace 0
  "0:PASSED __REPRO: --sum --sdt=f32:bf16 --stag=axb:abx --dtag=axb --scales=1:1 --inplace=true 2x17x5x7\n"
  --sum --sdt=f32:bf16 --stag=axb:abx --dtag=axb --inplace 2x17x5x7)
benchdnn_cli_test(sum_inplace_skip 0
  "SKIPPED \\(in place needs dst's data type and tag to be src 0's\\)"
  --sum --ddt=s8 --dtag=abx --inplace=true 2x17x5x7)
benchdnn_cli_test(sum_mode_list 0
  "1:LISTED __REPRO: --sum --stag=axb:axb --scales=1:1 3x4\n.*listed:2"
  --sum --mode=L --stag=abx,axb 3x4)
benchdnn_cli_test(sum_mode_perf 0
  "perf,cpu,[^,]+,\"res\",--sum --scales=1:1 8x64x8x8_nres,.*total perf: min\\(ms\\)"
  --sum --mode=P --fix-times-per-prb=2 8x64x8x8n"res")

# oneDNN's path (--lib=both): mixed types, per-source scales and layouts, a
# dst of "any", in place; every problem passes on both libraries.
if(BENCHDNN_WITH_ONEDNN)
  benchdnn_cli_test(sum_lib_both 0
    "0:PASSED __REPRO: --lib=onednn --sum --sdt=f32:s8:u8 .*tests:10 passed:10 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
    --sum --lib=both --sdt=f32:s8:u8 --stag=abx:axb:aBx16b --dtag=any,abx
    --ddt=f32,s8 --scales=0.25:2:0.5 3x17x5x7
    --reset --sdt=f32:f32 --stag=axb --dtag=axb --inplace
    --attr-scratchpad=user --scales=0.5:2 2x19x3x3)
endif()
