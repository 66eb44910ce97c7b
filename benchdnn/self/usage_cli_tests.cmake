# A newcomer's command line: --version, --DRIVER --help (options,
# descriptor grammar, a working example) and "did you mean" for a
# misspelt driver or option. Uses benchdnn_cli_test and
# BENCHDNN_EXPECT_EXIT (common_cli_tests.cmake).

# The project's version (CMake) and the library's (tsr_version) agree.
string(REPLACE "." "\\." version_re "${PROJECT_VERSION}")
benchdnn_cli_test(version 0
  "^benchdnn ${version_re} \\(commit [^\n]*\nlibrary: tessera ${version_re}\n$"
  --version)
benchdnn_cli_test(version_after_driver 0 "library: tessera ${version_re}"
  --conv --version)

# Every driver's help, and its example run in list mode: a driver folder
# whose help lacks a grammar and an example (main.c's driver_docs) fails.
file(GLOB driver_dirs LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/benchdnn/*)
set(drivers)
foreach(dir ${driver_dirs})
  get_filename_component(driver ${dir} NAME)
  if(IS_DIRECTORY ${dir} AND NOT driver MATCHES "^(common|self|onednn)$")
    list(APPEND drivers ${driver})
  endif()
endforeach()
foreach(driver ${drivers})
  add_test(NAME benchdnn_cli_help_${driver}
    COMMAND ${CMAKE_COMMAND} -DBENCHDNN=${BENCHDNN} -DDRIVER=${driver}
            -P ${CMAKE_CURRENT_LIST_DIR}/help_example.cmake
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
benchdnn_cli_test(help_conv_options 0
  "--dir=FWD_B\\|[^\n]*\n.*--mb=N .*--attr-fpmath=.*ic[X].*kh[X]"
  --conv --help)
benchdnn_cli_test(help_defaults 0 "--alpha=\\.\\.\\. +\\[0,0\\.25,-0\\.25\\]"
  --eltwise --help)
benchdnn_cli_test(help_alias 0 "--dt=\\.\\.\\. +\\[f32\\] also --cfg"
  --matmul --help)
benchdnn_cli_test(help_reorder_extra 0 "--def-scales=" --reorder --help)
benchdnn_cli_test(help_lists_common 0 "--version.*--DRIVER --help" --help)

# Misspelt drivers and options: the closest name, with the value kept.
benchdnn_cli_test(did_you_mean_driver 2
  "unknown driver or option '--cnov' \\(did you mean --conv\\?\\)" --cnov)
benchdnn_cli_test(did_you_mean_common_before_driver 2
  "'--mdoe=P' \\(did you mean --mode=P\\?\\)" --mdoe=P --conv)
benchdnn_cli_test(did_you_mean_conv_option 2
  "unknown option '--mbb=2' \\(did you mean --mb=2\\?\\)"
  --conv --mbb=2 ic3ih5oc4kh3)
benchdnn_cli_test(did_you_mean_attr 2
  "\\(did you mean --attr-post-ops=relu\\?\\)"
  --conv --attr-post-op=relu ic3ih5oc4kh3)
benchdnn_cli_test(did_you_mean_common_after_driver 2
  "\\(did you mean --mode=P\\?\\)" --eltwise --mdoe=P 8x8)
benchdnn_cli_test(did_you_mean_table_option 2
  "\\(did you mean --stag=ab\\?\\)" --matmul --stagg=ab 2x3:3x4)
benchdnn_cli_test(did_you_mean_table_attr 2
  "\\(did you mean --attr-post-ops=relu\\?\\)"
  --eltwise --attr-post-op=relu 8x8)
benchdnn_cli_test(did_you_mean_reorder_extra 2
  "\\(did you mean --def-scales=1\\?\\)" --reorder --def-scale=1 2x8)
# Misspelt values: the closest known value, else the valid ones.
benchdnn_cli_test(did_you_mean_tag 2
  "--stag: unknown tag 'nwhc' \\(did you mean 'nhwc'\\?\\)"
  --conv --stag=nwhc ic3ih5oc4kh3)
benchdnn_cli_test(did_you_mean_tag_in_list 2
  "unknown tag 'nchx' \\(did you mean 'nchw'\\?\\)"
  --binary --stag=abx:nchx 2x3x4x5:2x3x4x5)
benchdnn_cli_test(no_close_tag 2 "unknown tag 'qqqq' \\(a tag is oneDNN's letters"
  --reorder --stag=qqqq 2x8)
benchdnn_cli_test(did_you_mean_cfg 2
  "unknown configuration 'u8s8s9' \\(did you mean 'u8s8s8'\\?\\)"
  --conv --cfg=u8s8s9 ic3ih5oc4kh3)
benchdnn_cli_test(no_close_cfg_lists 2
  "unknown configuration 'zz' \\(one of: f32, bf16bf16f32,"
  --conv --cfg=zz ic3ih5oc4kh3)
benchdnn_cli_test(did_you_mean_post_op 2
  "bad post-op 'rleu' in 'rleu' \\(did you mean 'relu'\\?\\)"
  --conv --attr-post-ops=rleu ic3ih5oc4kh3)
benchdnn_cli_test(no_close_post_op_lists 2
  "bad post-op 'foo' in 'sum\\+foo' \\(one of: sum, prelu, relu,"
  --matmul --attr-post-ops=sum+foo 2x3:3x4)
benchdnn_cli_test(did_you_mean_eltwise_alg 2
  "unknown eltwise algorithm 'rleu' \\(did you mean 'relu'\\?\\)"
  --eltwise --alg=rleu 8x8)
benchdnn_cli_test(did_you_mean_binary_alg 2
  "'mull' is not a binary algorithm \\(did you mean 'mul'\\?\\)"
  --binary --alg=mull 2x3:2x3)
# A bad token anywhere in a batch file: the error names the file and line,
# and nothing ran before it (the output starts with the error).
benchdnn_cli_test(batch_error_stops_before_running 2
  "^benchdnn: ERROR: --cfg: unknown configuration 'u8s8s9'.*\\(in benchdnn/self/batch_error_line3 line 3\\)"
  --conv --batch=benchdnn/self/batch_error_line3)
benchdnn_cli_test(bad_descriptor_after_problems_stops_first 2
  "^benchdnn: ERROR: bad convolution descriptor 'ic3zz'"
  --conv ic3ih5oc4kh3 --mb=2 ic3zz)
benchdnn_cli_test(no_close_option 2
  "unknown option '--frobnicate' \\(see --sum --help\\)"
  --sum --frobnicate 2x8)
# A value after a space instead of '=': said so.
benchdnn_cli_test(value_after_space_conv 2
  "--mb: .*value follows '=' in the same argument: --mb=VALUE"
  --conv --mb 2 ic3ih5oc4kh3)
benchdnn_cli_test(value_after_space_table 2
  "--mb: .*value follows '=' in the same argument: --mb=VALUE"
  --eltwise --mb 2 8x8)
