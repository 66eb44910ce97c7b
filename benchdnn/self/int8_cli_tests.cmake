# The int8 CI sets (inputs/{conv,ip,matmul}/test_*_int8_ci): every problem
# passes, none is skipped, mistrusted or unimplemented, with the CPU's best
# kernels, with the VNNI ones (TSR_MAX_CPU_ISA=avx512_core_vnni: the best
# on a CPU without AMX), with the AVX2 ones (TSR_MAX_CPU_ISA=avx2: the best
# on a CPU without VNNI) and with the portable ones
# (TSR_MAX_CPU_ISA=generic).
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "int8_cli_tests.cmake needs benchdnn_cli_test()")
endif()

# driver, number of problems in its set.
set(int8_sets conv 3484 ip 3484 matmul 3594)
while(int8_sets)
  list(POP_FRONT int8_sets driver count)
  set(summary "tests:${count} passed:${count} skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 failed:0")
  set(batch inputs/${driver}/test_${driver}_int8_ci)
  benchdnn_cli_test(${driver}_int8_batch 0 "${summary}"
    --${driver} --batch=${batch})
  benchdnn_cli_test(${driver}_int8_batch_generic 0 "${summary}"
    --${driver} --batch=${batch})
  set_tests_properties(benchdnn_cli_${driver}_int8_batch_generic
    PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=generic)
  benchdnn_cli_test(${driver}_int8_batch_isa_avx512_core_vnni 0 "${summary}"
    --${driver} --batch=${batch})
  set_tests_properties(benchdnn_cli_${driver}_int8_batch_isa_avx512_core_vnni
    PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=avx512_core_vnni)
  benchdnn_cli_test(${driver}_int8_batch_isa_avx2 0 "${summary}"
    --${driver} --batch=${batch})
  set_tests_properties(benchdnn_cli_${driver}_int8_batch_isa_avx2
    PROPERTIES ENVIRONMENT TSR_MAX_CPU_ISA=avx2)
  # Seconds on an idle machine; the limit leaves room for a loaded one.
  set_tests_properties(benchdnn_cli_${driver}_int8_batch
    benchdnn_cli_${driver}_int8_batch_isa_avx512_core_vnni
    benchdnn_cli_${driver}_int8_batch_isa_avx2
    benchdnn_cli_${driver}_int8_batch_generic PROPERTIES TIMEOUT 600)
endwhile()
