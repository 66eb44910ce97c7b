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

# pkg-config route: each example compiled by hand, as a Makefile would,
# with nothing but the flags pkg-config gives (plus -lm for the examples'
# own math): no -Wl,-rpath and no LD_LIBRARY_PATH, so the programs start
# only if the .pc file's Libs carry the rpath.
find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
find_program(CC NAMES cc gcc REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${PREFIX}/lib/pkgconfig:${PREFIX}/lib64/pkgconfig)
unset(ENV{LD_LIBRARY_PATH})
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs tessera
                OUTPUT_VARIABLE flags RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find tessera")
endif()
message(STATUS "pkg-config --cflags --libs tessera: ${flags}")
# Clean paths: the prefix itself, no "pkgconfig/../.." or "//".
if(NOT flags MATCHES "-L${PREFIX}/lib(64)? " OR flags MATCHES "\\.\\./|//"
   OR NOT flags MATCHES "-Wl,-rpath,${PREFIX}/lib")
  message(FATAL_ERROR "pkg-config flags are not clean prefix paths with "
                      "an rpath: '${flags}'")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
foreach(src ${EXAMPLE_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  run_step(${CC} -std=c11 -O2 ${src} ${flags} -lm -o ${WORK_DIR}/${name}_pc)
  run_step(${WORK_DIR}/${name}_pc)
endforeach()

# The README's line, exactly: cc FILE $(pkg-config --cflags --libs tessera).
run_step(sh -c "cc -std=c11 '${SOURCE_DIR}/examples/getting_started.c' \
$(pkg-config --cflags --libs tessera) -o '${WORK_DIR}/readme_pc' \
&& '${WORK_DIR}/readme_pc'")
