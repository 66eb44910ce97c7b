# The f32 GEMM convolution's batch (inputs/conv/test_conv_gemm_f32): every
# problem runs on "gemm:f32" and passes, with the CPU's best GEMM kernel,
# capped at AVX2 (whose kernel reads sources by taps too) and with the
# portable one (TSR_MAX_CPU_ISA=generic). Two threads at least, so that
# small images batched into per-thread items take a padding order over
# several images.
#
# The capped runs of the whole batch repeat what its paths
# (inputs/conv/test_conv_gemm_f32_paths) reach at those ISAs: CI runs the
# paths at every ISA, and the whole batch capped is labelled long (CI's
# ctest -LE long leaves it out; ctest -L long runs it).
# Sanitizer builds run the paths only: the whole batch at the best ISA is
# long there too.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "conv_gemm_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# conv_gemm_batch_tests(NAME BATCH SUMMARY [ENV var=value...]
#                       [BEST_LABELS label...] [CAPPED_LABELS label...]
#                       [ISAS isa...]): benchdnn_cli_NAME runs the batch at
# the best ISA, benchdnn_cli_NAME_isa_ISA (NAME_generic for generic) capped
# at each ISA; every problem passes (SUMMARY).
function(conv_gemm_batch_tests name batch summary)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "ENV;BEST_LABELS;CAPPED_LABELS;ISAS")
  benchdnn_cli_test(${name} 0 "${summary}" --conv --batch=${batch})
  set(capped)
  foreach(isa ${arg_ISAS})
    set(test ${name}_isa_${isa})
    if(isa STREQUAL generic)
      set(test ${name}_generic)
    endif()
    benchdnn_cli_test(${test} 0 "${summary}" --conv --batch=${batch})
    set(env TSR_MAX_CPU_ISA=${isa} ${arg_ENV})
    set_tests_properties(benchdnn_cli_${test} PROPERTIES ENVIRONMENT "${env}")
    list(APPEND capped benchdnn_cli_${test})
  endforeach()
  if(arg_ENV)
    set_tests_properties(benchdnn_cli_${name} PROPERTIES ENVIRONMENT "${arg_ENV}")
  endif()
  if(arg_BEST_LABELS)
    set_tests_properties(benchdnn_cli_${name} PROPERTIES LABELS "${arg_BEST_LABELS}")
  endif()
  if(arg_CAPPED_LABELS AND capped)
    set_tests_properties(${capped} PROPERTIES LABELS "${arg_CAPPED_LABELS}")
  endif()
  # The longest tests of the suite: started first so that -j packs them.
  set_tests_properties(benchdnn_cli_${name} ${capped} PROPERTIES TIMEOUT 600 COST 1000)
endfunction()

if(TSR_SANITIZE)
  set(conv_gemm_best_labels long)
else()
  set(conv_gemm_best_labels)
endif()

conv_gemm_batch_tests(conv_gemm_f32_batch inputs/conv/test_conv_gemm_f32
  "tests:2294 passed:2294 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  ENV OMP_NUM_THREADS=2 BEST_LABELS ${conv_gemm_best_labels}
  CAPPED_LABELS long ISAS avx2 generic)
conv_gemm_batch_tests(conv_gemm_f32_paths inputs/conv/test_conv_gemm_f32_paths
  "tests:1462 passed:1462 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0"
  ENV OMP_NUM_THREADS=2 ISAS avx2 generic)
