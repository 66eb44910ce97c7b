# Hostile input to benchdnn: sizes whose products overflow, per-channel
# arrays too large for memory, zero points the fill cannot keep exact,
# and batch "files" that are not text. Each must end in a clean state or
# usage error naming the problem: never undefined behaviour (the
# sanitizer build aborts on it), a hang, or a message blaming something
# else. Through benchdnn_hardening_test() of common_cli_tests.cmake.
if(NOT COMMAND benchdnn_hardening_test)
  message(FATAL_ERROR "hardening_cli_tests.cmake needs benchdnn_hardening_test()")
endif()

set(too_many_elements "more elements than a 64-bit size holds")

# Products of user dims: INVALID_ARGUMENTS naming the tensor and its dims.
benchdnn_hardening_test(conv_dst_overflow 1
  "0:INVALID_ARGUMENTS \\(dst dims 1 x 16 x 8589934598 x 8589934598: ${too_many_elements}\\)"
  --conv mb1ic16ih8oc16kh3ph4294967296)
benchdnn_hardening_test(conv_dst_overflow_mode_init 1
  "0:INVALID_ARGUMENTS \\(dst dims 1 x 16 x 8589934598 x 8589934598: ${too_many_elements}\\)"
  --conv --mode=I mb1ic16ih8oc16kh3ph4294967296)
benchdnn_hardening_test(ip_src_overflow 1
  "0:INVALID_ARGUMENTS \\(src dims 1 x 32 x 2147483647 x 2147483647: ${too_many_elements}\\)"
  --ip mb1ic32ih2147483647oc1)
# The weights are the problem, not --wtag (which the old message blamed).
benchdnn_hardening_test(matmul_wei_overflow 1
  "0:INVALID_ARGUMENTS \\(wei dims 30 x 9223372036854775807: ${too_many_elements}\\) __REPRO"
  --matmul 10x30:30x9223372036854775807)
benchdnn_hardening_test(matmul_batch_overflow 1
  "0:INVALID_ARGUMENTS \\(src dims 4294967296 x 4294967296 x 2 x 3: ${too_many_elements}\\)"
  --matmul 4294967296x4294967296x2x3:1x1x3x2)
# Derived sizes of a descriptor (kernel extent, padding) overflow while it
# is resolved: a usage error naming the dimension.
benchdnn_hardening_test(conv_desc_stride_overflow 2
  "bad convolution descriptor 'ic8iw16oc8ow1099511627776kw3sw1099511627776': the sizes along 'iw' overflow 64-bit arithmetic"
  --conv ic8iw16oc8ow1099511627776kw3sw1099511627776)
benchdnn_hardening_test(conv_desc_dilation_overflow 2
  "bad convolution descriptor 'ic8ih16oc8kh1099511627776dh1099511627776ph1099511627776': the sizes along 'ih' overflow 64-bit arithmetic"
  --conv ic8ih16oc8kh1099511627776dh1099511627776ph1099511627776)

# Memory before any per-channel array: 2^32 output scales (16 GB) are
# never built, the problem is skipped at once for its size.
benchdnn_hardening_test(ip_oscale_memory_first 0
  "0:SKIPPED \\(not enough memory: needs [0-9.]+ MB, [0-9.]+ MB available\\)"
  --ip --attr-oscale=per_oc:0.5 mb1ic16oc4294967296)
benchdnn_hardening_test(conv_oscale_memory_first 0
  "0:SKIPPED \\(not enough memory: needs"
  --conv --attr-oscale=per_oc:0.5 mb1ic16ih1oc4294967296kh1)

# Zero points: INT32_MIN is not negated, values the fill cannot keep exact
# are skipped with the reason, large ones it can keep exact still pass.
benchdnn_hardening_test(conv_zp_int_min 0
  "0:SKIPPED \\(zero point src:-2147483648 too large to check: sums over the reduction length 144 reach 2\\^23"
  --conv --attr-zero-points=src:common:-2147483648 mb1ic16ih8oc16kh3)
benchdnn_hardening_test(conv_zp_minus_1e6 0
  "0:SKIPPED \\(zero point src:-1000000 too large to check"
  --conv --dt=u8:s8:u8 --attr-zero-points=src:common:-1000000 mb1ic16ih8oc16kh3)
benchdnn_hardening_test(conv_zp_int_max 0
  "0:SKIPPED \\(zero point src:2147483647 too large to check"
  --conv --dt=u8:s8:u8 --attr-zero-points=src:common:2147483647 mb1ic16ih8oc16kh3)
benchdnn_hardening_test(conv_zp_dst_int_max_per_channel 0
  "0:SKIPPED \\(zero point dst:2147483647 too large to check"
  --conv --dt=u8:s8:s32 --attr-zero-points=dst:per_dim_1:2147483647
  mb1ic16ih8oc16kh3)
benchdnn_hardening_test(matmul_zp_int_min 0
  "0:SKIPPED \\(zero point src:-2147483648 too large to check"
  --matmul --dt=u8:s8:u8 --attr-zero-points=src:common:-2147483648 10x30:30x20)
benchdnn_hardening_test(ip_zp_wei_int_max 0
  "0:SKIPPED \\(zero point wei:2147483647 too large to check"
  --ip --dt=s8:s8:s32 --attr-zero-points=wei:common:2147483647 ic16oc4)
benchdnn_hardening_test(conv_zp_large_exact 0 "passed:2 .*failed:0"
  --conv --dt=u8:s8:s32 --attr-zero-points=src:common:-20000,src:common:20000
  mb1ic16ih8oc16kh3)
benchdnn_hardening_test(matmul_zp_large_exact 0 "passed:1 .*failed:0"
  --matmul --dt=u8:s8:s32 --attr-zero-points=src:common:100000+dst:common:-8000000
  10x30:30x20)

# Batch files: a device or a directory is named as such, a NUL byte or
# bytes that are not UTF-8 text are an error naming the file and line.
benchdnn_hardening_test(batch_device 2
  "ERROR: --batch: '/dev/zero' is a device, FIFO or socket, not a batch file"
  --conv --batch=/dev/zero)
benchdnn_hardening_test(batch_directory 2
  "ERROR: --batch: '/tmp' is a directory, not a batch file"
  --conv --batch=/tmp)
benchdnn_hardening_test(batch_relative_directory 2
  "ERROR: --batch: '[^']*inputs' is a directory, not a batch file"
  --conv --batch=inputs)

# CMake strings cannot hold a NUL byte: printf writes the files.
set(hardening_dir ${CMAKE_CURRENT_BINARY_DIR}/hardening_inputs)
file(MAKE_DIRECTORY ${hardening_dir})
execute_process(COMMAND printf "# a NUL on line 3\\n--mode=L\\nic16ih8\\000oc16kh3\\nic3ih8oc4kh3\\n"
                OUTPUT_FILE ${hardening_dir}/nul_byte)
execute_process(COMMAND printf "# binary from line 2\\n\\177ELF\\002\\001\\001\\n"
                OUTPUT_FILE ${hardening_dir}/binary)
execute_process(COMMAND printf "# caf\\351 in latin-1 on line 1\\n--mode=L\\nic3ih8oc4kh3\\n"
                OUTPUT_FILE ${hardening_dir}/latin1)
execute_process(COMMAND printf "# caf\\303\\251 in UTF-8\\n--mode=L\\nic3ih8oc4kh3\\n"
                OUTPUT_FILE ${hardening_dir}/utf8)
file(WRITE ${hardening_dir}/includes_nul_byte "--mode=L\nic3ih8oc4kh3\n--batch=nul_byte\n")

benchdnn_hardening_test(batch_nul_byte 2
  "ERROR: --batch: '[^']*/nul_byte' line 3: NUL byte, not text"
  --conv --batch=${hardening_dir}/nul_byte)
benchdnn_hardening_test(batch_nested_nul_byte 2
  "ERROR: --batch: '[^']*/nul_byte' line 3: NUL byte, not text"
  --conv --batch=${hardening_dir}/includes_nul_byte)
benchdnn_hardening_test(batch_binary 2
  "ERROR: --batch: '[^']*/binary' line 2: byte 0x7f, not UTF-8 text"
  --conv --batch=${hardening_dir}/binary)
benchdnn_hardening_test(batch_latin1 2
  "ERROR: --batch: '[^']*/latin1' line 1: byte 0xe9, not UTF-8 text"
  --conv --batch=${hardening_dir}/latin1)
benchdnn_hardening_test(batch_utf8_comment 0 "0:LISTED .*listed:1"
  --conv --batch=${hardening_dir}/utf8)
