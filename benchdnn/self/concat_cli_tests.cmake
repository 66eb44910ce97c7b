# Command-line behaviour of the concat driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "concat_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(concat_one_tensor 2
  "ERROR: bad concat descriptor '2x3': needs at least 2 tensors" --concat 2x3)
benchdnn_cli_test(concat_bad_tensor 2
  "ERROR: bad concat descriptor '2x3:2xQ': tensor '2xQ'" --concat 2x3:2xQ)
benchdnn_cli_test(concat_dims_mismatch 2
  "ERROR: bad concat descriptor '2x3x4:2x5x5': tensor 1 differs from tensor 0 in dim 2"
  --concat 2x3x4:2x5x5)
benchdnn_cli_test(concat_axis_out_of_range 2
  "ERROR: --axis=3 is out of range for concat descriptor '2x3x4:2x3x4'"
  --concat --axis=3 2x3x4:2x3x4)
benchdnn_cli_test(concat_stag_count 2 "ERROR: --stag=abx:axb: 2 tags for 3 sources"
  --concat --stag=abx:axb 2x3:2x3:2x3)
benchdnn_cli_test(concat_bad_sdt 2 "ERROR: --sdt: 'f31' is not a data type"
  --concat --sdt=f31 2x3:2x3)
benchdnn_cli_test(concat_source_scales 2
  "ERROR: --attr-scales=msrc0:common:1.5\\+msrc1:common:2: per-source scales are not supported"
  --concat --attr-scales=msrc0:common:1.5+msrc1:common:2 2x3:2x4)

# The repro line: fed back, it gives the same line; the padded form of
# the descriptor; without a dst descriptor --ddt is not printed.
set(concat_repro
  "--concat --sdt=s8 --ddt=u8 --stag=axb:abx --dtag=axb 2x16x3x4:2x8x3x4_nfoo")
benchdnn_cli_test(concat_repro_fed_back 0 "0:PASSED __REPRO: ${concat_repro}\n"
  --concat --sdt=s8 --ddt=u8 --stag=axb:abx --dtag=axb --axis=1
  2x16x3x4:2x8x3x4_nfoo)
benchdnn_cli_test(concat_repro_padded 0
  "0:PASSED __REPRO: --concat --axis=0 2x3x1:5x3x1\n"
  --concat --axis=0 --ddt=s8 2x3x1:5x3)
benchdnn_cli_test(concat_bf16_skip 0
  "SKIPPED \\(bf16 sources need an f32 or bf16 dst\\)"
  --concat --sdt=bf16 --ddt=s8 --dtag=abx 2x3:2x4)
benchdnn_cli_test(concat_mode_perf 0
  "perf,cpu,[^,]+,\"inc\",--concat 8x64x8x8:8x32x8x8_ninc,.*total perf: min\\(ms\\)"
  --concat --mode=P --fix-times-per-prb=2 8x64x8x8:8x32x8x8n"inc")

# oneDNN's path (--lib=both): along channels with per-source and blocked
# layouts (padded channels), int8, along the minibatch; every problem
# passes on both libraries.
if(BENCHDNN_WITH_ONEDNN)
  benchdnn_cli_test(concat_lib_both 0
    "0:PASSED __REPRO: --lib=onednn --concat .*tests:8 passed:8 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
    --concat --lib=both --stag=abx:axb:aBx16b --dtag=aBx16b,any
    2x12x5x7:2x20x5x7:2x3x5x7
    --reset --sdt=s8 --ddt=s8,u8 --stag=axb --dtag=undef --axis=0
    2x13x3x4:3x13x3x4)
endif()
