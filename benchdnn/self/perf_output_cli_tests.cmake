# Machine-readable performance output (nightly performance tracking):
# the run header, %samples% and the --shard split (benchdnn_cli_test is
# defined by common_cli_tests.cmake, included before this file).

# The run header comes once, before the template line, and samples are
# ';'-separated, one per timed run.
benchdnn_cli_test(perf_run_header_and_samples 0
    "^# date=[0-9T:Z-]+\n# commit=[^\n]+\n# compiler=[^\n]+\n# build_type=[^\n]*\n# build_options=[^\n]+\n# isa=[a-z0-9_]+\n# threads=[0-9]+\n# cpu=[^\n]+\n# host=[^\n]+\nOutput template: [^\n]+\nperf,cpu,[^,]+,\"s\",--conv ic3ih5oc4oh3kh3ph0n\"s\",[0-9.e+-]+;[0-9.e+-]+;[0-9.e+-]+\n"
  --conv --mode=P --fix-times-per-prb=3
  "--perf-template=perf,%engine%,%impl%,%name%,%prb%,%samples%" ic3ih5oc4kh3n"s")

# Shards of a batch are disjoint and cover it.
add_test(NAME benchdnn_cli_shard_split
  COMMAND ${CMAKE_COMMAND} -DBENCHDNN=${BENCHDNN} -DDRIVER=--conv
    -DBATCH=inputs/conv/test_conv_ci -DSHARDS=3
    -P ${CMAKE_CURRENT_LIST_DIR}/shard_split.cmake
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
