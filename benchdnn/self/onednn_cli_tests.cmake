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

# The inner product and matmul drivers (their shared src x weights task):
# f32 over layouts (plain, channels-last, blocked, --strides, transposed),
# spatial and batched shapes with broadcasting, bias, int8 with output
# scales, v3.x scales, zero points and sum / eltwise / binary post-ops.
benchdnn_cli_test(lib_both_ip 0
  "0:PASSED __REPRO: --ip ic16oc8\n0:PASSED __REPRO: --lib=onednn --ip ic16oc8\n.*4:PASSED __REPRO: --lib=onednn --ip --cfg=u8s8u8 --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5\\+relu mb4ic64oc32\n.*tests:16 passed:16 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  --ip --lib=both mb2ic16oc8 mb4ic8ih3iw3oc16
  --reset --dir=FWD_I --stag=axb mb3ic16ih5iw5oc8
  --reset --stag=nChw8c --wtag=OIhw8i8o mb2ic16ih3oc16
  --reset --cfg=u8s8u8 --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5+relu
  mb4ic64oc32
  --reset --cfg=s8s8f32 --dir=FWD_D mb4ic64oc32
  --reset --cfg=s8s8s8 --dir=FWD_D --attr-scales=src:common:0.5+wei:per_oc:2
  mb4ic64oc32
  --reset --attr-post-ops=add:f32:per_oc+tanh mb4ic64oc32)
set_tests_properties(benchdnn_cli_lib_both_ip PROPERTIES TIMEOUT 300)

benchdnn_cli_test(lib_both_matmul 0
  "0:PASSED __REPRO: --matmul 4x8:8x16\n0:PASSED __REPRO: --lib=onednn --matmul 4x8:8x16\n.*5:PASSED __REPRO: --lib=onednn --matmul --cfg=u8s8u8 --attr-oscale=common:0.25 --attr-zero-points=src:common:1\\+dst:common:3 --attr-post-ops=sum:0.5 5x64:64x16\n.*tests:16 passed:16 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  --matmul --lib=both 4x8:8x16 --strides=16x1:1x8: 4x8:8x16
  --reset 2x1x4x8:1x3x8x5 --bia-dt=f32 --bia_mask=4 3x8x16:3x16x4
  --reset --stag=ba --wtag=ba 5x7:7x9
  --reset --cfg=u8s8u8 --attr-oscale=common:0.25
  --attr-zero-points=src:common:1+dst:common:3 --attr-post-ops=sum:0.5
  5x64:64x16
  --reset --cfg=s8s8f32 --attr-oscale=per_oc:0.5
  --attr-post-ops=add:f32:per_oc+relu 8x64:64x32
  --reset --dt=s8:s8:s8 --attr-scales=src:common:0.5+wei:per_oc:2 8x64:64x32)
set_tests_properties(benchdnn_cli_lib_both_matmul PROPERTIES TIMEOUT 300)

# Their repro lines fed back run on oneDNN alone and print themselves.
set(onednn_ip_repro
  "--lib=onednn --ip --dir=FWD_D --cfg=u8s8s8 --stag=axb --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5\\+relu mb3ic16ih5iw5oc8")
benchdnn_cli_test(lib_onednn_ip_repro_fed_back 0
  "^0:PASSED __REPRO: ${onednn_ip_repro}\ntests:1 passed:1 "
  --lib=onednn --ip --dir=FWD_D --cfg=u8s8s8 --stag=axb
  --attr-oscale=per_oc:0.5 --attr-post-ops=sum:0.5+relu mb3ic16ih5iw5oc8)
set(onednn_matmul_repro
  "--lib=onednn --matmul --bia-dt=f32 --bia_mask=4 --stag=ba 2x3x8x16:1x1x16x4")
benchdnn_cli_test(lib_onednn_matmul_repro_fed_back 0
  "^0:PASSED __REPRO: ${onednn_matmul_repro}\ntests:1 passed:1 "
  --lib=onednn --matmul --bia-dt=f32 --bia_mask=4 --stag=ba
  2x3x8x16:1x1x16x4)

# Performance: a line per library, oneDNN's %impl% prefixed "onednn:".
benchdnn_cli_test(lib_both_ip_perf 0
  "perf,cpu,[^,]+,\"fc\",--ip mb16ic64oc32n\"fc\",[0-9.e-]+,.*\nperf,cpu,onednn:[^,]+,\"fc\",--lib=onednn --ip mb16ic64oc32n\"fc\",[0-9.e-]+,"
  --ip --lib=both --mode=P --fix-times-per-prb=2 mb16ic64oc32n"fc")
benchdnn_cli_test(lib_both_matmul_perf 0
  "perf,cpu,[^,]+,\"mm\",--matmul 2x16x64:2x64x32n\"mm\",[0-9.e-]+,.*\nperf,cpu,onednn:[^,]+,\"mm\",--lib=onednn --matmul 2x16x64:2x64x32n\"mm\",[0-9.e-]+,"
  --matmul --lib=both --mode=P --fix-times-per-prb=2 2x16x64:2x64x32n"mm")

# oneDNN's reasons: the harness' reference is forward only; oneDNN 2.6's
# inner product has no zero points.
benchdnn_cli_test(lib_onednn_ip_bwd_unimplemented 1
  "0:UNIMPLEMENTED \\(BWD_D: the harness' reference is forward only\\) __REPRO: --lib=onednn --ip --dir=BWD_D"
  --ip --lib=onednn --dir=BWD_D mb4ic16oc8)
benchdnn_cli_test(lib_onednn_ip_zero_points_unimplemented 1
  "0:UNIMPLEMENTED \\(oneDNN primitive descriptor: unimplemented\\) __REPRO: --lib=onednn --ip --cfg=u8s8f32 --attr-zero-points=src:common:2"
  --ip --lib=onednn --cfg=u8s8f32 --attr-zero-points=src:common:2 mb4ic16oc8)
