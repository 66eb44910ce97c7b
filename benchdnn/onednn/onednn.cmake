# benchdnn's oneDNN comparison mode (--lib=onednn|both). TSR_WITH_ONEDNN:
# AUTO (default) builds it when find_package(dnnl CONFIG) finds oneDNN, ON
# requires oneDNN, OFF leaves it out. Included by benchdnn/CMakeLists.txt
# after benchdnn_core exists; sets BENCHDNN_WITH_ONEDNN for the tests.
set(BENCHDNN_WITH_ONEDNN OFF)
if(TSR_WITH_ONEDNN STREQUAL "AUTO")
  find_package(dnnl CONFIG QUIET)
elseif(TSR_WITH_ONEDNN)
  find_package(dnnl CONFIG REQUIRED)
endif()
if(dnnl_FOUND AND TARGET DNNL::dnnl AND NOT TSR_WITH_ONEDNN STREQUAL "OFF")
  set(BENCHDNN_WITH_ONEDNN ON)
  file(GLOB BENCHDNN_ONEDNN_SOURCES CONFIGURE_DEPENDS
       ${CMAKE_CURRENT_LIST_DIR}/*.c ${CMAKE_CURRENT_LIST_DIR}/../*/*_onednn.c)
  target_sources(benchdnn_core PRIVATE ${BENCHDNN_ONEDNN_SOURCES})
  # PUBLIC: the harness' tests see the same declarations as the binary.
  target_compile_definitions(benchdnn_core PUBLIC BENCHDNN_WITH_ONEDNN)
  target_link_libraries(benchdnn_core PUBLIC DNNL::dnnl)
  message(STATUS "benchdnn: oneDNN ${dnnl_VERSION} comparison mode (--lib=onednn|both)")
else()
  message(STATUS "benchdnn: oneDNN not used; --lib=onednn|both unavailable")
endif()
