# Command-line behaviour of the reorder driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file). Its CI set,
# inputs/reorder/test_reorder_ci, is registered by benchdnn/CMakeLists.txt.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "reorder_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(reorder_bad_descriptor 2
  "ERROR: bad reorder descriptor '2x3y': unexpected text 'y'"
  --reorder 2x3y)
benchdnn_cli_test(reorder_bad_sdt 2 "ERROR: --sdt: 'f31' is not a data type"
  --reorder --sdt=f31 2x3)
benchdnn_cli_test(reorder_bad_dtag 2 "ERROR: --dtag: unknown tag 'aBx17q'"
  --reorder --dtag=aBx17q 2x3)
benchdnn_cli_test(reorder_bad_oflag 2
  "ERROR: --oflag: expected FLAG:MASK.*got 's8s8:1'"
  --reorder --oflag=s8s8:1 2x3)
benchdnn_cli_test(reorder_bad_cross_engine 2
  "ERROR: --cross-engine=cpu2gpu: the cpu engine takes none only"
  --reorder --cross-engine=cpu2gpu 2x3)
benchdnn_cli_test(reorder_bad_def_scales 2
  "ERROR: --def-scales: '1x' is not a number" --reorder --def-scales=1,1x 2x3)
benchdnn_cli_test(reorder_bad_runtime_dim_mask 2
  "ERROR: --runtime-dim-mask: '-1' is not a dims mask"
  --reorder --runtime_dim_mask=-1 2x3)
benchdnn_cli_test(reorder_per_oc_oscale 2
  "ERROR: --attr-oscale: per_oc is ambiguous"
  --reorder --attr-oscale=per_oc:2 2x3)

# The repro line: the data types and tags always; both spellings of the
# runtime dims mask; fed back, the same line.
set(reorder_repro
  "--reorder --sdt=f32 --ddt=s8 --stag=abx --dtag=aBx16b --runtime-dim-mask=5 --attr-oscale=per_dim_1:0.5 --attr-zero-points=dst:common:2 2x17x3x4_nfoo")
benchdnn_cli_test(reorder_repro_from_options 0 "0:PASSED __REPRO: ${reorder_repro}\n"
  --reorder --ddt=S8 --dtag=aBx16b --runtime_dim_mask=5
  --attr-oscale=per_dim_1:0.5 --attr-zero-points=dst:common:2 2x17x3x4_nfoo)
benchdnn_cli_test(reorder_repro_fed_back 0 "0:PASSED __REPRO: ${reorder_repro}\n"
  --reorder --sdt=f32 --ddt=s8 --stag=abx --dtag=aBx16b --runtime-dim-mask=5
  --attr-oscale=per_dim_1:0.5 --attr-zero-points=dst:common:2 2x17x3x4_nfoo)

# The scale trap: an oscale of 0 runs once per --def-scales value, printed
# with that value; the runtime dims mask varies after the attributes.
benchdnn_cli_test(reorder_scale_trap 0
  "0:LISTED __REPRO: --reorder --sdt=f32 --ddt=f32 --stag=abx --dtag=abx --attr-oscale=common:0.25 2x3\n1:LISTED __REPRO: [^\n]*--attr-oscale=common:4 2x3\n2:LISTED __REPRO: [^\n]*--attr-oscale=common:2 2x3\n.*listed:3"
  --reorder --mode=L --def-scales=0.25,4 --attr-oscale=common:0,common:2 2x3)
benchdnn_cli_test(reorder_runtime_mask_after_attr 0
  "1:LISTED __REPRO: [^\n]*--runtime-dim-mask=63 2x3\n2:LISTED __REPRO: [^\n]*--attr-post-ops=sum:0.5 2x3"
  --reorder --mode=L --runtime-dim-mask=0,63 --attr-post-ops=,sum:0.5 2x3)

# Compensation: checked exactly; unsupported combinations are skipped.
benchdnn_cli_test(reorder_compensation 0 "0:PASSED __REPRO: --reorder --sdt=f32 --ddt=s8 --stag=abx --dtag=ABcd16b16a --oflag=s8s8_comp:1 17x5x3x3"
  --reorder --sdt=f32 --ddt=s8 --dtag=ABcd16b16a --oflag=s8s8_comp:1 17x5x3x3)
benchdnn_cli_test(reorder_compensation_skip 0
  "SKIPPED \\(compensation needs an s8 dst\\).*failed:0"
  --reorder --ddt=u8 --oflag=zp_comp:1 2x3)
benchdnn_cli_test(reorder_dst_zp_with_sum_skip 0
  "SKIPPED \\(a dst zero point with a sum post-op\\)"
  --reorder --attr-zero-points=dst:common:1 --attr-post-ops=sum 2x3)

benchdnn_cli_test(reorder_mode_perf 0
  "perf,cpu,[^,]+,\"act\",--reorder --sdt=f32 --ddt=f32 --stag=abx --dtag=aBx16b 2x32x8x8_nact,.*total perf: min\\(ms\\)"
  --reorder --mode=P --fix-times-per-prb=2 --dtag=aBx16b 2x32x8x8n"act")

# oneDNN's path (--lib=both): output scales (v2 per-dim with the trap, v3
# src and dst scales folded into them), zero points, a sum; what 2.6
# cannot run says why.
if(BENCHDNN_WITH_ONEDNN)
  benchdnn_cli_test(reorder_lib_both 0
    "0:PASSED __REPRO: --lib=onednn --reorder .*tests:20 passed:18 skipped:2 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
    --reorder --lib=both --sdt=f32 --ddt=s8,f32 --dtag=aBx16b
    --def-scales=0.5 --attr-oscale=common:0,per_dim_1:0.25 2x20x3x4
    --reset --sdt=u8 --ddt=s32 --dtag=axb
    --attr-zero-points=src:common:-1+dst:common:2 2x16x3x4
    --reset --ddt=u8 --attr-scales=src:per_dim_01+dst:common:2,src:per_dim_0+dst:per_dim_1
    --attr-post-ops=,sum:0.5 2x16x3x4
    --reset --sdt=s8 --ddt=s8 --dtag=xba 2x16x3x4)
  benchdnn_cli_test(reorder_lib_onednn_oflag_unimplemented 1
    "0:UNIMPLEMENTED \\(--oflag: oneDNN 2.6 keeps compensation as extra data"
    --reorder --lib=onednn --sdt=f32 --ddt=s8 --oflag=s8s8_comp:1 17x5x3x3)
  benchdnn_cli_test(reorder_lib_onednn_dst_scale_unimplemented 1
    "0:UNIMPLEMENTED \\(--attr-scales: oneDNN 2.6 has no dst scale"
    --reorder --lib=onednn --attr-scales=dst:common:3 2x16)
  benchdnn_cli_test(reorder_lib_onednn_sum_zero_point_unimplemented 1
    "0:UNIMPLEMENTED \\(--attr-post-ops: oneDNN 2.6's reorder \\(simple:any\\) accepts a sum zero point and ignores it\\)"
    --reorder --lib=onednn --attr-post-ops=sum:0.5:3 2x16)
endif()
