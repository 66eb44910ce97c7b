# Command-line behaviour of the inner product driver, through
# benchdnn_cli_test() (common_cli_tests.cmake, included before this file).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "ip_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(ip_bad_descriptor 2
  "ERROR: bad inner product descriptor 'ic3ocX': 'oc' needs" --ip ic3ocX)
benchdnn_cli_test(ip_missing_oc 2
  "ERROR: bad inner product descriptor 'mb2ic3': ic and oc are required"
  --ip mb2ic3)
benchdnn_cli_test(ip_bad_dir 2 "ERROR: --dir: unknown direction 'FWD_X'"
  --ip --dir=FWD_X ic3oc4)
benchdnn_cli_test(ip_bad_dt 2 "ERROR: --dt: .*'f31'" --ip --dt=f31 ic3oc4)
benchdnn_cli_test(ip_bad_tag 2 "ERROR: --wtag: unknown tag 'oi17'"
  --ip --wtag=oi17 ic3oc4)

# The CI set: every problem passes, also on the portable kernels.
benchdnn_cli_test(ip_ci_batch 0 "failed:0" --ip --batch=inputs/ip/test_ip_ci)
add_test(NAME benchdnn_cli_ip_ci_batch_generic
  COMMAND ${CMAKE_COMMAND} -E env TSR_MAX_CPU_ISA=generic
          ${CMAKE_COMMAND} -P ${BENCHDNN_EXPECT_EXIT} 0 "failed:0"
          ${BENCHDNN} --ip --batch=inputs/ip/test_ip_ci
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(benchdnn_cli_ip_ci_batch benchdnn_cli_ip_ci_batch_generic
  PROPERTIES TIMEOUT 600)

# Modes and the repro line: fed back, it gives the same line.
set(ip_repro
  "--ip --dir=FWD_D --dt=u8:s8:u8 --stag=axb --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5\\+relu mb3ic16ih5iw5oc8")
benchdnn_cli_test(ip_repro_from_options 0 "0:PASSED __REPRO: ${ip_repro}\n"
  --ip --mb=3 --stag=axb --attr-post-ops=sum:0.5+relu --dir=FWD_D
  --attr-oscale=per_oc:0.5 --dt=u8:s8:u8 ih5_ic16_oc8)
benchdnn_cli_test(ip_repro_fed_back 0 "0:PASSED __REPRO: ${ip_repro}\n"
  --ip --dir=FWD_D --dt=u8:s8:u8 --stag=axb --attr-oscale=per_oc:0.5
  --attr-post-ops=sum:0.5+relu mb3ic16ih5iw5oc8)
benchdnn_cli_test(ip_mode_perf 0
  "perf,cpu,gemm:f32,\"fc\",--ip mb16ic64oc32n\"fc\",[0-9.e-]+,.*total perf: min\\(ms\\)"
  --ip --mode=P --fix-times-per-prb=2 mb16ic64oc32n"fc")
benchdnn_cli_test(ip_mode_list 0 "1:LISTED __REPRO: --ip --dir=FWD_I ic3oc4\n.*listed:2"
  --ip --mode=L --dir=FWD_B,FWD_I ic3oc4)
# Backward directions are reported, not run.
benchdnn_cli_test(ip_backward_unimplemented 1
  "UNIMPLEMENTED \\(BWD_D: the library has forward inner product only\\)"
  --ip --dir=BWD_D ic3oc4)
