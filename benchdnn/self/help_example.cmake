# Runs `BENCHDNN --DRIVER --help`, checks it shows options, a descriptor
# grammar and an example, then runs that example in list mode: the help's
# example must be a valid command line.
#   cmake -DBENCHDNN=... -DDRIVER=conv -P help_example.cmake
execute_process(COMMAND ${BENCHDNN} --${DRIVER} --help
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "--${DRIVER} --help exited ${rc}:\n${out}\n${err}")
endif()
foreach(part "Usage: benchdnn --${DRIVER} " "\nOptions " "\n  --[a-z]"
             "\nAttributes " "\n  --attr-post-ops=" "\nDescriptor: "
             "\nExample: benchdnn --${DRIVER} ")
  if(NOT out MATCHES "${part}")
    message(FATAL_ERROR "--${DRIVER} --help lacks '${part}':\n${out}")
  endif()
endforeach()
string(REGEX MATCH "\nExample: benchdnn ([^\n]*)" line "${out}")
separate_arguments(example UNIX_COMMAND "${CMAKE_MATCH_1}")
execute_process(COMMAND ${BENCHDNN} --mode=L ${example}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "listed:[1-9]")
  message(FATAL_ERROR "the example of --${DRIVER} --help "
                      "('${CMAKE_MATCH_1}') does not run (${rc}):\n${out}\n${err}")
endif()
