# Checks that --shard=I/N splits a batch into disjoint shards that cover it:
# lists the batch whole and shard by shard (--mode=L) and compares the
# problems as "index:repro" (a batch may list one problem twice).
#   cmake -DBENCHDNN=... -DDRIVER=--conv -DBATCH=... -DSHARDS=3 -P shard_split.cmake
function(list_problems out_var)
  execute_process(COMMAND ${BENCHDNN} ${DRIVER} --mode=L ${ARGN} --batch=${BATCH}
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "benchdnn ${ARGN} exited with ${code}:\n${out}\n${err}")
  endif()
  # ';' separates CMake list items: the same stand-in in every listing.
  string(REPLACE ";" "," out "${out}")
  string(REGEX MATCHALL "[0-9]+:LISTED __REPRO: [^\n]*" lines "${out}")
  list(TRANSFORM lines REPLACE ":LISTED __REPRO: " ":")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

list_problems(all)
list(LENGTH all n_all)
if(n_all LESS SHARDS)
  message(FATAL_ERROR "${BATCH}: ${n_all} problems, too few for ${SHARDS} shards")
endif()

set(union)
math(EXPR last "${SHARDS} - 1")
foreach(i RANGE ${last})
  list_problems(shard --shard=${i}/${SHARDS})
  list(LENGTH shard n_shard)
  if(n_shard EQUAL 0)
    message(FATAL_ERROR "shard ${i}/${SHARDS} is empty")
  endif()
  list(APPEND union ${shard})
endforeach()

list(LENGTH union n_union)
list(REMOVE_DUPLICATES union)
list(LENGTH union n_distinct)
if(NOT n_union EQUAL n_distinct)
  message(FATAL_ERROR "${n_union} listed over the shards, ${n_distinct} distinct: shards overlap")
endif()

list(SORT all)
list(SORT union)
if(NOT "${all}" STREQUAL "${union}")
  message(FATAL_ERROR "the shards do not cover the batch:\nall: ${all}\nshards: ${union}")
endif()
message(STATUS "${n_all} problems, ${SHARDS} disjoint shards covering them")
