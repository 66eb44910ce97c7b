# Command-line behaviour of benchdnn that needs no convolution problem:
# exit codes and the messages naming what was wrong. Each test runs
# ${BENCHDNN} from the source root through expect_exit.cmake.
set(BENCHDNN_EXPECT_EXIT ${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake)

# benchdnn_cli_test(NAME EXIT_CODE OUTPUT_REGEX ARGS...)
function(benchdnn_cli_test name code regex)
  add_test(NAME benchdnn_cli_${name}
    COMMAND ${CMAKE_COMMAND} -P ${BENCHDNN_EXPECT_EXIT} ${code} "${regex}"
            ${BENCHDNN} ${ARGN}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()

# benchdnn_hardening_test(NAME EXIT_CODE OUTPUT_REGEX ARGS...): hostile
# input (hardening_*_tests.cmake), test benchdnn_cli_hardening_NAME, with a
# timeout that only a hang or a problem materialised in full reaches.
function(benchdnn_hardening_test name code regex)
  benchdnn_cli_test(hardening_${name} ${code} "${regex}" ${ARGN})
  set_tests_properties(benchdnn_cli_hardening_${name} PROPERTIES TIMEOUT 60)
endfunction()

benchdnn_cli_test(help 0 "Usage: benchdnn" --help)
benchdnn_cli_test(help_after_driver 0 "Usage: benchdnn" --conv --help)
benchdnn_cli_test(no_arguments 2 "Usage: benchdnn")
benchdnn_cli_test(unknown_driver 2 "ERROR: unknown driver or option '--frobnicate'"
  --frobnicate)
benchdnn_cli_test(onednn_only_driver 2 "ERROR: unknown driver '--softmax'"
  --softmax 2x2)
benchdnn_cli_test(no_driver 2 "ERROR: no driver given" --mode=L)
benchdnn_cli_test(unknown_option 2 "ERROR: unknown option '--no-such-option'"
  --conv --no-such-option)
benchdnn_cli_test(missing_batch_file 2 "ERROR: .*'no_such_batch_file'"
  --conv --batch=no_such_batch_file)
benchdnn_cli_test(bad_mode 2 "ERROR: --mode: unknown mode 'Q'" --conv --mode=Q)
benchdnn_cli_test(bad_match 2 "ERROR: --match: bad regular expression '\\(ic'"
  --conv --match=\(ic)
benchdnn_cli_test(bad_engine 2 "ERROR: --engine: .*'gpu'" --engine=gpu --conv)
benchdnn_cli_test(bad_perf_template 2 "ERROR: --perf-template: unknown field '%nope%'"
  --conv --perf-template=%nope%)
benchdnn_cli_test(bad_shard 2 "ERROR: --shard: .*'2/2'" --conv --shard=2/2)
# Common options may come before the driver; no problem: an empty summary.
benchdnn_cli_test(options_before_driver 0
  "tests:0 passed:0 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0 listed:0"
  --engine=cpu --mode=L --conv)
benchdnn_cli_test(trailing_option_warning 0 "WARNING: 1 option\\(s\\) after the last problem"
  --conv --mode=L)
