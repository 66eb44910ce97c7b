# The README's library program is examples/getting_started.c, character
# for character: this takes the first ```c block of README.md, fails when
# it differs from the example (so neither can change alone), then compiles
# it against the built library as a user would (only tessera.h and
# libtessera) and runs it (it checks its own result).
# Invoked by CTest with -DSOURCE_DIR -DWORK_DIR -DCC -DLIB (the shared
# library file).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

file(READ ${SOURCE_DIR}/README.md readme)
string(FIND "${readme}" "\n```c\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "README.md has no ```c code block")
endif()
math(EXPR start "${start} + 6")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "\n```\n" end)
if(end EQUAL -1)
  message(FATAL_ERROR "README.md: the ```c code block is not closed")
endif()
math(EXPR end "${end} + 1") # keep the last line's newline
string(SUBSTRING "${rest}" 0 ${end} snippet)

file(READ ${SOURCE_DIR}/examples/getting_started.c example)
if(NOT snippet STREQUAL example)
  file(WRITE ${WORK_DIR}/readme_snippet.c "${snippet}")
  execute_process(COMMAND diff -u ${SOURCE_DIR}/examples/getting_started.c
                          ${WORK_DIR}/readme_snippet.c OUTPUT_VARIABLE diff)
  message(FATAL_ERROR "README.md's ```c block differs from "
                      "examples/getting_started.c:\n${diff}")
endif()

set(src ${WORK_DIR}/readme_snippet.c)
file(WRITE ${src} "${snippet}")
get_filename_component(libdir ${LIB} DIRECTORY)
execute_process(
  COMMAND ${CC} -std=c11 -Wall -Wextra -Werror -O1
          -I${SOURCE_DIR}/lib/include ${src} ${LIB} -Wl,-rpath,${libdir}
          -o ${WORK_DIR}/readme_snippet
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the README's program does not compile:\n${out}${err}")
endif()
execute_process(COMMAND ${WORK_DIR}/readme_snippet
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the README's program exited with ${rc}")
endif()
