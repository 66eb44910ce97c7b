# Command-line behaviour of the eltwise driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file). Its CI set,
# inputs/eltwise/test_eltwise_ci, is registered by benchdnn/CMakeLists.txt.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "eltwise_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# Bad descriptors and option values: usage error naming the text.
benchdnn_cli_test(eltwise_bad_descriptor 2
  "ERROR: bad eltwise descriptor '2xq': expected a dimension at 'q'"
  --eltwise 2xq)
benchdnn_cli_test(eltwise_bad_alg 2
  "ERROR: --alg: unknown eltwise algorithm 'rleu'" --eltwise --alg=rleu 2x3)
benchdnn_cli_test(eltwise_bad_dir 2 "ERROR: --dir: unknown direction 'FWD_X'"
  --eltwise --dir=FWD_X 2x3)
benchdnn_cli_test(eltwise_bad_dt 2 "ERROR: --dt: 'f31' is not a data type"
  --eltwise --dt=f31 2x3)
benchdnn_cli_test(eltwise_bad_alpha 2 "ERROR: --alpha: '1x' is not a number"
  --eltwise --alpha=1x 2x3)

# The repro line: spellings and cases normalized, --mb folded into the
# descriptor, --alg --alpha --beta always printed; fed back, the same line.
set(eltwise_repro
  "--eltwise --dir=BWD_D --dt=bf16 --tag=axb --alg=tanh_dst --alpha=0.1 --beta=-0.3 --inplace=true 3x8x4_nfoo")
benchdnn_cli_test(eltwise_repro_from_options 0 "0:PASSED __REPRO: ${eltwise_repro}\n"
  --eltwise --dir=bwd_d --dt=BF16 --tag=axb --alg=ELTWISE_TANH_USE_DST_FOR_BWD
  --alpha=0.1 --beta=-0.3 --mb=3 --inplace 16x8x4_nfoo)
benchdnn_cli_test(eltwise_repro_fed_back 0 "0:PASSED __REPRO: ${eltwise_repro}\n"
  --eltwise --dir=BWD_D --dt=bf16 --tag=axb --alg=tanh_dst --alpha=0.1
  --beta=-0.3 --inplace=true 3x8x4_nfoo)
set(eltwise_post_op_repro
  "--eltwise --alg=gelu_erf --alpha=0 --beta=0 --attr-post-ops=mul:s8:per_oc 2x16x5x7")
benchdnn_cli_test(eltwise_post_op_fed_back 0
  "0:PASSED __REPRO: ${eltwise_post_op_repro}\n"
  --eltwise --alg=gelu_erf --alpha=0 --beta=0 --attr-post-ops=mul:s8:per_oc
  2x16x5x7)

# A bare problem runs alpha and beta over {0, 0.25, -0.25}; --inplace
# varies after the attributes.
benchdnn_cli_test(eltwise_default_lists 0
  "8:LISTED __REPRO: --eltwise --alg=relu --alpha=-0.25 --beta=-0.25 2x3\n.*listed:9"
  --eltwise --mode=L 2x3)
benchdnn_cli_test(eltwise_inplace_after_attr 0
  "1:LISTED __REPRO: --eltwise --alg=relu --alpha=0 --beta=0 --inplace=true 2x3\n2:LISTED __REPRO: --eltwise --alg=relu --alpha=0 --beta=0 --attr-post-ops=relu 2x3"
  --eltwise --mode=L --alpha=0 --beta=0 --inplace=false,true
  --attr-post-ops=,relu 2x3)

# Invalid cases are SKIPPED with the reason; a skip is not a failure.
benchdnn_cli_test(eltwise_skip_clip 0
  "SKIPPED \\(clip needs alpha <= beta\\).*failed:0"
  --eltwise --alg=clip --alpha=3 --beta=-2 2x3)
benchdnn_cli_test(eltwise_skip_int_bwd 0
  "SKIPPED \\(backward needs a floating-point data type\\)"
  --eltwise --dir=BWD_D --dt=s8 --alpha=0 --beta=0 2x3)

# Modes: bitwise on a backward problem with its forward pass, and the
# performance line in GB/s from the memories' bytes.
benchdnn_cli_test(eltwise_mode_bitwise 0 "0:PASSED.*failed:0"
  --eltwise --mode=B --dir=BWD_D --alg=exp_dst --alpha=0 --beta=0 4x8x9)
benchdnn_cli_test(eltwise_mode_perf 0
  "[^,]+,--eltwise --alg=relu --alpha=0 --beta=0 2x16x5x7,4480,4480,[0-9.e+-]+\n"
  --eltwise --mode=P --fix-times-per-prb=2
  --perf-template=%impl%,%prb%,%ibytes%,%obytes%,%-Gbw% --alpha=0 --beta=0
  2x16x5x7)
