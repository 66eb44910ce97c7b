# Command-line behaviour of the shuffle driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "shuffle_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text. As in
# oneDNN v2.6.3, a direction other than FWD_D and BWD_* stops the run.
benchdnn_cli_test(shuffle_bad_descriptor 2 "ERROR: bad shuffle descriptor '2xQ'"
  --shuffle 2xQ)
benchdnn_cli_test(shuffle_bad_dir 2
  "ERROR: --dir: shuffle takes FWD_D or a BWD_\\* direction, not 'FWD_I'"
  --shuffle --dir=FWD_I 2x12)
benchdnn_cli_test(shuffle_bad_group 2 "ERROR: --group: '0' is not a positive integer"
  --shuffle --group=0 2x12)
benchdnn_cli_test(shuffle_bad_dt 2 "ERROR: --dt: 'f31' is not a data type"
  --shuffle --dt=f31 2x12)

# The repro line: fed back, it gives the same line; BWD_W runs backward
# data, as v2.6.3 does.
set(shuffle_repro
  "--shuffle --dir=BWD_D --dt=s8 --tag=axb --group=3 --axis=2 2x12x6x4_nsh")
benchdnn_cli_test(shuffle_repro_fed_back 0 "0:PASSED __REPRO: ${shuffle_repro}\n"
  --shuffle --dir=BWD_D --dt=s8 --tag=axb --group=3 --axis=2 2x12x6x4_nsh)
benchdnn_cli_test(shuffle_bwd_w 0 "0:PASSED __REPRO: --shuffle --dir=BWD_W --group=2 2x4x3\n"
  --shuffle --dir=BWD_W --group=2 2x4x3)
benchdnn_cli_test(shuffle_mode_perf 0
  "perf,cpu,[^,]+,\"sh\",--shuffle --group=4 8x64x8x8_nsh,.*total perf: min\\(ms\\)"
  --shuffle --mode=P --fix-times-per-prb=2 --group=4 8x64x8x8n"sh")

# Both libraries on the same problems (oneDNN builds only): forward and
# backward, channels-last and 16c-blocked, each passing on both; f16,
# which oneDNN 2.6 lacks here, is UNIMPLEMENTED for its run with why.
if(BENCHDNN_WITH_ONEDNN)
  benchdnn_cli_test(shuffle_lib_both 0
    "3:PASSED __REPRO: --shuffle --dir=BWD_D --tag=aBx16b --group=3 2x48x5x5\n3:PASSED __REPRO: --lib=onednn --shuffle --dir=BWD_D --tag=aBx16b --group=3 2x48x5x5\ntests:8 passed:8 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
    --shuffle --lib=both --dir=FWD_D,BWD_D --tag=axb,aBx16b --group=3
    2x48x5x5)
  benchdnn_cli_test(shuffle_lib_both_f16 1
    "0:PASSED __REPRO: --shuffle --dt=f16 2x12x4\n0:UNIMPLEMENTED \\(oneDNN 2.6 has no f16 shuffle on this CPU .*failed:0"
    --shuffle --lib=both --dt=f16 2x12x4)
endif()
