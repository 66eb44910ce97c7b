# Hostile sizes on the argument-keyed drivers: a tensor whose element
# count overflows int64 is INVALID_ARGUMENTS naming the tensor and its
# dims (not the tag) on both libraries, a concat axis whose sum overflows
# is a usage error, and per-dim scale arrays are never built before the
# memory check. The timeout is what a problem materialised in full, or a
# loop over 2^62 scales, would hit. Through benchdnn_hardening_test() of
# common_cli_tests.cmake; the tests are named hardening_args_*.
if(NOT COMMAND benchdnn_hardening_test)
  message(FATAL_ERROR "hardening_args_cli_tests.cmake needs benchdnn_hardening_test()")
endif()

set(huge "4294967296x4294967296")
set(huge_dims "4294967296 x 4294967296: more elements than a 64-bit size holds")

benchdnn_hardening_test(args_eltwise_overflow 1
  "0:INVALID_ARGUMENTS \\(src dims ${huge_dims}\\)" --eltwise ${huge})
benchdnn_hardening_test(args_binary_src1_overflow 1
  "0:INVALID_ARGUMENTS \\(src1 dims ${huge_dims}\\)" --binary 1x1:${huge})
benchdnn_hardening_test(args_prelu_wei_overflow 1
  "0:INVALID_ARGUMENTS \\(wei dims ${huge_dims}\\)" --prelu 2x3:${huge})
benchdnn_hardening_test(args_sum_overflow 1
  "0:INVALID_ARGUMENTS \\(src dims ${huge_dims}\\)" --sum ${huge})
benchdnn_hardening_test(args_concat_overflow 1
  "0:INVALID_ARGUMENTS \\(src0 dims ${huge_dims}\\)" --concat ${huge}:${huge})
benchdnn_hardening_test(args_shuffle_overflow 1
  "0:INVALID_ARGUMENTS \\(src dims ${huge_dims}\\)" --shuffle ${huge})
benchdnn_hardening_test(args_reorder_overflow 1
  "0:INVALID_ARGUMENTS \\(src dims ${huge_dims}\\)" --reorder ${huge})
benchdnn_hardening_test(args_zeropad_overflow 1
  "0:INVALID_ARGUMENTS \\(src dims ${huge_dims}\\)" --zeropad ${huge})
# A tag of the wrong rank is still blamed as such.
benchdnn_hardening_test(args_binary_wrong_rank_tag 1
  "0:INVALID_ARGUMENTS \\(--stag=abcd does not describe a 2-dimensional tensor\\)"
  --binary --stag=abcd:abx 2x3:2x3)

# Concat's dst axis is the sum of the sources': its overflow is a usage
# error naming the descriptor.
benchdnn_hardening_test(args_concat_axis_sum_overflow 2
  "bad concat descriptor '4611686018427387904:4611686018427387904:4611686018427387904': the sizes along the axis 0 overflow 64-bit arithmetic"
  --concat --axis=0 4611686018427387904:4611686018427387904:4611686018427387904)

# Memory before reorder's per-dim output scales (2^40 of them, 4 TB).
benchdnn_hardening_test(args_reorder_oscale_memory_first 0
  "0:SKIPPED \\(not enough memory: needs [0-9.]+ MB, [0-9.]+ MB available\\)"
  --reorder --attr-oscale=per_dim_1:0.5 1x1099511627776)

if(BENCHDNN_WITH_ONEDNN)
  # oneDNN wraps the byte size of such a tensor: the harness stops first.
  benchdnn_hardening_test(args_onednn_eltwise_overflow 1
    "0:INVALID_ARGUMENTS \\(src dims ${huge_dims}\\)"
    --lib=onednn --eltwise ${huge})
  benchdnn_hardening_test(args_onednn_reorder_oscale_memory_first 0
    "0:SKIPPED \\(not enough memory: needs"
    --lib=onednn --reorder --attr-oscale=per_dim_1:0.5 1x1099511627776)
  # 2^62 dst scales are not walked one by one to see whether oneDNN can
  # take them; the memory check stops the problem.
  benchdnn_hardening_test(args_onednn_reorder_dst_scales_not_walked 0
    "0:SKIPPED \\(not enough memory: needs"
    --lib=onednn --reorder --attr-scales=dst:per_dim_1:0.5 1x4611686018427387904)
endif()
