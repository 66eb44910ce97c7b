# Installs the built tree into a scratch prefix, then builds examples/
# against it twice: with find_package(tessera) and with pkg-config, and
# runs every example of each build (each checks its own result and exits
# non-zero when wrong). Invoked by CTest with -DBUILD_DIR -DSOURCE_DIR
# -DWORK_DIR -DGENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
set(PREFIX ${WORK_DIR}/prefix)

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

file(GLOB EXAMPLE_SOURCES ${SOURCE_DIR}/examples/*.c)
if(NOT EXAMPLE_SOURCES)
  message(FATAL_ERROR "no examples found in ${SOURCE_DIR}/examples")
endif()

run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})

# find_package route.
run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/cmake_build
         -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_BUILD_TYPE=Release)
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/cmake_build)
foreach(src ${EXAMPLE_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  run_step(${WORK_DIR}/cmake_build/${name})
endforeach()

# pkg-config route: each example compiled by hand, as a Makefile would.
find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
find_program(CC NAMES cc gcc REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${PREFIX}/lib/pkgconfig:${PREFIX}/lib64/pkgconfig)
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs tessera
                OUTPUT_VARIABLE flags RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find tessera")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
foreach(src ${EXAMPLE_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  run_step(${CC} -std=c11 -O2 ${src} ${flags} -lm
           -Wl,-rpath,${PREFIX}/lib -o ${WORK_DIR}/${name}_pc)
  run_step(${WORK_DIR}/${name}_pc)
endforeach()
