# PygraphArchTable.cmake - the GPU architectures clang builds, read from the
# drivers' table in utils/pygraph_driver/arch.py, so that pygraph-nvcc,
# pygraph-clang++ and pygraph_enable have one definition.
#
#   _pygraph_read_arch_table(<arch.py> <prefix>)
#
# sets <prefix>CLANG_ARCHS, <prefix>MAJOR_ARCHS and <prefix>ARCH_SPECIFIC (lists
# of numbers: every architecture, the major ones, those with an sm_XXa) from
# arch.py's lines `NAME = (75, 80, ...)`; a missing line is a configure error.
include_guard(GLOBAL)

function(_pygraph_read_arch_table file prefix)
  file(STRINGS "${file}" lines REGEX "^[A-Z_]+ = \\([0-9, ]+\\)")
  foreach(name CLANG_ARCHS MAJOR_ARCHS ARCH_SPECIFIC)
    set(value "")
    foreach(line IN LISTS lines)
      if(line MATCHES "^${name} = \\(([0-9, ]+)\\)")
        string(REGEX MATCHALL "[0-9]+" value "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    if(NOT value)
      message(FATAL_ERROR "pygraph: no '${name} = (...)' line in ${file}")
    endif()
    set(${prefix}${name} "${value}" PARENT_SCOPE)
  endforeach()
endfunction()
