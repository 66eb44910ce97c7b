# Runs a command and checks its exit code and its output.
#   cmake -P expect_exit.cmake EXPECTED_CODE REGEX COMMAND [ARGS...]
# REGEX must match stdout and stderr together; "" accepts any output.
set(first_arg -1)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 0 ${last})
  if(CMAKE_ARGV${i} STREQUAL "-P")
    math(EXPR first_arg "${i} + 2")
    break()
  endif()
endforeach()
math(EXPR command_start "${first_arg} + 2")
if(first_arg LESS 0 OR command_start GREATER last)
  message(FATAL_ERROR "usage: cmake -P expect_exit.cmake CODE REGEX COMMAND...")
endif()

set(expected_code "${CMAKE_ARGV${first_arg}}")
math(EXPR regex_index "${first_arg} + 1")
set(regex "${CMAKE_ARGV${regex_index}}")
set(command)
foreach(i RANGE ${command_start} ${last})
  list(APPEND command "${CMAKE_ARGV${i}}")
endforeach()

execute_process(COMMAND ${command}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(JOIN " " shown ${command})
if(NOT code STREQUAL expected_code)
  message(FATAL_ERROR "'${shown}' exited with '${code}', expected "
    "${expected_code}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT regex STREQUAL "" AND NOT "${out}${err}" MATCHES "${regex}")
  message(FATAL_ERROR "output of '${shown}' does not match '${regex}'\n"
    "stdout:\n${out}\nstderr:\n${err}")
endif()
