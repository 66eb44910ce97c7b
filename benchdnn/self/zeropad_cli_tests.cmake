# Command-line behaviour of the zeropad driver, through benchdnn_cli_test()
# (common_cli_tests.cmake, included before this file). Its CI set,
# inputs/zeropad/test_zeropad_ci, is registered by benchdnn/CMakeLists.txt.
if(NOT COMMAND benchdnn_cli_test)
  message(FATAL_ERROR "zeropad_cli_tests.cmake needs benchdnn_cli_test()")
endif()

benchdnn_cli_test(zeropad_bad_descriptor 2
  "ERROR: bad zeropad descriptor 'x3': expected a dimension at 'x3'"
  --zeropad x3)
benchdnn_cli_test(zeropad_bad_dt 2 "ERROR: --dt: 'f31' is not a data type"
  --zeropad --dt=f31 2x3)
benchdnn_cli_test(zeropad_bad_tag 2 "ERROR: --tag: unknown tag 'aBc17q'"
  --zeropad --tag=aBc17q 2x3)
benchdnn_cli_test(zeropad_no_attributes 2
  "ERROR: zeropad takes no attributes, got '--attr-scratchpad=user'"
  --zeropad --attr-scratchpad=user 2x3)

set(zeropad_repro "--zeropad --dt=s8 --tag=aBcd16b 2x17x3x5_nfoo")
benchdnn_cli_test(zeropad_repro_from_options 0 "0:PASSED __REPRO: ${zeropad_repro}\n"
  --zeropad --dt=S8 --tag=aBcd16b 2x17x3x5_nfoo)
benchdnn_cli_test(zeropad_repro_fed_back 0 "0:PASSED __REPRO: ${zeropad_repro}\n"
  --zeropad --dt=s8 --tag=aBcd16b 2x17x3x5_nfoo)
benchdnn_cli_test(zeropad_lists 0
  "0:LISTED __REPRO: --zeropad --tag=aBcd16b 2x17x3x5\n1:LISTED __REPRO: --zeropad --tag=ABcd16b16a 2x17x3x5\n2:LISTED __REPRO: --zeropad --dt=f16 --tag=aBcd16b 2x17x3x5\n.*listed:4"
  --zeropad --mode=L --dt=f32,f16 --tag=aBcd16b,ABcd16b16a 2x17x3x5)
# Bytes out: the padded size less the plain size (2x32x3x5 - 2x17x3x5 f32).
benchdnn_cli_test(zeropad_mode_perf 0
  "perf,cpu,zero_pad,,--zeropad --tag=aBcd16b 2x17x3x5,.*total perf"
  --zeropad --mode=P --fix-times-per-prb=2 --tag=aBcd16b 2x17x3x5)
