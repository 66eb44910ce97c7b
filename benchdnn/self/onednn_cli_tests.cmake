# benchdnn's oneDNN comparison mode (--lib=onednn|both) from the command
# line: problems run on both libraries and pass the same reference check,
# oneDNN's repro lines reproduce, its perf lines name its implementation.
# Registered only when oneDNN was built in (onednn/onednn.cmake); otherwise
# the option must be refused as a usage error.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "onednn_cli_tests.cmake needs benchdnn_cli_test()")
endif()

benchdnn_cli_test(lib_unknown 2
  "ERROR: --lib: unknown library 'mkl' \\(expected tessera, onednn or both\\)"
  --conv --lib=mkl ic3ih5oc4kh3)

if(NOT BENCHDNN_WITH_ONEDNN)
  benchdnn_cli_test(lib_onednn_unavailable 2
    "ERROR: --lib=both: this benchdnn was built without oneDNN"
    --conv --lib=both ic3ih5oc4kh3)
  return()
endif()

# Small problems over layouts (blocked; plain ones oneDNN has no tag for),
# groups, dilation, strides, 1D and 3D, int8 with output scales, v3.x
# scales and fused post-ops, binary post-ops: every one passes on both.
benchdnn_cli_test(lib_both_conv 0
  "0:PASSED __REPRO: --conv ic16ih10oc32oh10kh3ph1\n0:PASSED __REPRO: --lib=onednn --conv ic16ih10oc32oh10kh3ph1\n.*tests:22 passed:22 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  --conv --lib=both ic16ih10oc32kh3ph1
  --stag=nhwc --dtag=nhwc ic3ih13oc8kh3sh2 g4ic16ih9oc16kh3dh1ph2
  --reset --stag=nChw8c --wtag=OIhw8i8o ic16ih7oc16kh3ph1
  --reset --stag=bdca --dtag=cdba ic16ih7oc16kh3ph1
  --reset --dir=FWD_I mb3ic8ih5iw7oc4kh3kw1ph1pw0
  --reset --cfg=u8s8u8 --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5+relu
  ic16ih7oc16kh3ph1
  --reset --cfg=s8s8s8 --dir=FWD_D --attr-scales=src:common:0.5+wei:per_oc:2
  ic16ih7oc16kh3ph1
  --reset --attr-post-ops=add:f32:per_oc+tanh ic16ih7oc16kh3ph1
  --reset ic8iw9oc4kw3pw1 ic4id5ih5iw5oc8kd3kh3kw3pd1ph1pw1)
set_tests_properties(benchdnn_cli_lib_both_conv PROPERTIES TIMEOUT 300)

# oneDNN's repro line fed back runs on oneDNN alone and prints itself.
set(onednn_repro
  "--lib=onednn --conv --dir=FWD_D --cfg=u8s8s8 --dtag=axb --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5\\+relu mb1ic16ih7oc16oh7kh3ph1")
benchdnn_cli_test(lib_onednn_repro_fed_back 0
  "^0:PASSED __REPRO: ${onednn_repro}\ntests:1 passed:1 "
  --lib=onednn --conv --dir=FWD_D --cfg=u8s8s8 --dtag=axb
  --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5+relu
  mb1ic16ih7oc16oh7kh3ph1)

# Performance: a line per library, oneDNN's %impl% prefixed "onednn:".
benchdnn_cli_test(lib_both_perf 0
  "perf,cpu,[^,]+,\"small\",--conv ic16ih7oc16oh7kh3ph1n\"small\",[0-9.e-]+,.*\nperf,cpu,onednn:[^,]+,\"small\",--lib=onednn --conv ic16ih7oc16oh7kh3ph1n\"small\",[0-9.e-]+,"
  --conv --lib=both --mode=P --fix-times-per-prb=2 ic16ih7oc16kh3ph1n"small")

# --impl filters oneDNN's implementations by "onednn:" + name.
benchdnn_cli_test(lib_onednn_impl_filter 0
  "0:SKIPPED \\(skip-impl option hit\\) __REPRO: --lib=onednn"
  --conv --lib=onednn --skip-impl=onednn: ic16ih7oc16kh3ph1)

# What oneDNN 2.6 cannot express is UNIMPLEMENTED for its run, with why.
benchdnn_cli_test(lib_onednn_round_mode_unimplemented 1
  "0:UNIMPLEMENTED \\(oneDNN 2.6 has no --attr-round-mode\\) __REPRO: --lib=onednn"
  --conv --lib=onednn --cfg=u8s8u8 --attr-round-mode=down ic16ih7oc16kh3ph1)
