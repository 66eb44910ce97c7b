# Command-line behaviour of the convolution driver: exit codes, messages
# and lines, by running ${BENCHDNN} from the source root through
# benchdnn_cli_test() (common_cli_tests.cmake, included before this file).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "conv_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(conv_bad_descriptor 2
  "ERROR: bad convolution descriptor 'ic3ihXoc4kh3': 'ih' needs"
  --conv ic3ihXoc4kh3)
benchdnn_cli_test(conv_inconsistent_descriptor 2 "ERROR: .*'oh1' is inconsistent"
  --conv ic3ih6oc4oh1kh3sh2ph0)
benchdnn_cli_test(conv_bad_dir 2 "ERROR: --dir: unknown direction 'FWD_X'"
  --conv --dir=FWD_X ic3ih5oc4kh3)
benchdnn_cli_test(conv_bad_cfg 2 "ERROR: --cfg: unknown configuration 'u8u8'"
  --conv --cfg=u8u8 ic3ih5oc4kh3)
benchdnn_cli_test(conv_bad_tag 2 "ERROR: --stag: unknown tag 'nchw17'"
  --conv --stag=nchw17 ic3ih5oc4kh3)

# The batch files: all problems pass.
benchdnn_cli_test(conv_ci_batch 0 "failed:0"
  --conv --batch=inputs/conv/test_conv_ci)
benchdnn_cli_test(conv_alexnet_batch 0
  "tests:6 passed:6 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  --conv --batch=inputs/alexnet)
set_tests_properties(benchdnn_cli_conv_ci_batch benchdnn_cli_conv_alexnet_batch
  PROPERTIES TIMEOUT 600)

# Modes: list prints problems without running them; performance prints a
# perf line per problem and the total.
benchdnn_cli_test(conv_mode_list 0 "0:LISTED __REPRO: --conv ic3ih5oc4oh3kh3ph0\n.*listed:2"
  --conv --mode=L --dir=FWD_B,FWD_D ic3ih5oc4kh3)
benchdnn_cli_test(conv_mode_perf 0
  "perf,cpu,[^,]+,\"small\",--conv ic3ih5oc4oh3kh3ph0n\"small\",[0-9.e-]+,.*total perf: min\\(ms\\)"
  --conv --mode=P --fix-times-per-prb=2 ic3ih5oc4kh3n"small")
benchdnn_cli_test(conv_mode_bitwise 0 "0:PASSED"
  --conv --mode=B --cfg=u8s8u8 --attr-oscale=per_oc:0.5 ic16ih7oc16kh3ph1)

# A repro line fed back gives the same line.
set(conv_repro
  "--conv --dir=FWD_D --cfg=u8s8s8 --dtag=axb --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5\\+relu mb1ic16ih7oc16oh7kh3ph1")
benchdnn_cli_test(conv_repro_from_options 0 "0:PASSED __REPRO: ${conv_repro}\n"
  --conv --mb=1 --dtag=axb --attr-post-ops=sum:0.5+relu --dir=FWD_D
  --attr-oscale=per_oc:0.5 --cfg=u8s8s8 kh3_ic16ih7ph1_oc16)
benchdnn_cli_test(conv_repro_fed_back 0 "0:PASSED __REPRO: ${conv_repro}\n"
  --conv --dir=FWD_D --cfg=u8s8s8 --dtag=axb --attr-oscale=per_oc:0.5
  --attr-post-ops=sum:0.5+relu mb1ic16ih7oc16oh7kh3ph1)

# What the library lacks is reported, not run: backward directions and
# oneDNN data types are UNIMPLEMENTED (a failure), exit 1.
benchdnn_cli_test(conv_backward_unimplemented 1
  "UNIMPLEMENTED \\(BWD_W: the library has forward convolution only\\)"
  --conv --dir=BWD_W ic3ih5oc4kh3)
