# PygraphDriverTables.cmake - what pygraph_enable takes from the drivers'
# package (utils/pygraph_driver/), so that pygraph-nvcc, pygraph-clang++ and
# pygraph_enable have one definition of it.
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

#   _pygraph_read_compat_headers(<nvcc_plan.py> <out>)
#
# <out>: the nvcc-compatibility headers pygraph-nvcc pre-includes in CUDA
# compiles (file names, in order), from nvcc_plan.py's lines
# `"-include", os.path.join(COMPAT, "<name>")`; none found is a configure error.
function(_pygraph_read_compat_headers file out)
  file(STRINGS "${file}" lines REGEX "\"-include\", os\\.path\\.join\\(COMPAT, \"[^\"]+\"\\)")
  set(names "")
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "COMPAT, \"[^\"]+\"" found "${line}")
    foreach(f IN LISTS found)
      string(REGEX REPLACE "^COMPAT, \"([^\"]+)\"$" "\\1" f "${f}")
      list(APPEND names "${f}")
    endforeach()
  endforeach()
  if(NOT names)
    message(FATAL_ERROR "pygraph: no pre-included header (\"-include\", os.path.join(COMPAT, ...)) in ${file}")
  endif()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()
