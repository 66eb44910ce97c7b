# Writes TSR_PC_OUT from TSR_PC_TEMPLATE for CMAKE_INSTALL_PREFIX, run by
# the install step. Paths under the prefix are written as ${prefix}/DIR,
# so the file reads prefix=/opt/tessera, libdir=${prefix}/lib.
function(tsr_pc_dir var dir)
  if(IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  else()
    set(${var} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

file(TO_CMAKE_PATH "${CMAKE_INSTALL_PREFIX}" TSR_PC_PREFIX)
string(REGEX REPLACE "(.)/+$" "\\1" TSR_PC_PREFIX "${TSR_PC_PREFIX}")
tsr_pc_dir(TSR_PC_LIBDIR "${TSR_PC_LIBDIR_REL}")
tsr_pc_dir(TSR_PC_INCLUDEDIR "${TSR_PC_INCLUDEDIR_REL}")
configure_file("${TSR_PC_TEMPLATE}" "${TSR_PC_OUT}" @ONLY)
