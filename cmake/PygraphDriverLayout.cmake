# PygraphDriverLayout.cmake - the drivers (utils/pygraph-nvcc, utils/pygraph-clang++)
# and the layout files that tell them where everything is.
#
# <build>/pygraph-layout.json             absolute paths into this build tree (used by
#                                          utils/pygraph-* run from the source tree)
# <prefix>/share/pygraph/pygraph-layout.json  paths relative to <prefix>/<bin>/.., so an
#                                          installed tree may be moved (cmake --install
#                                          --prefix anywhere); clang and CUDA stay absolute
# The drivers resolve their own symlinks, then look for ../share/pygraph beside
# their bin folder: the package is installed there whatever CMAKE_INSTALL_DATADIR is.
set(_pg_plugin_file $<TARGET_FILE:pygraph>)
set(_pg_rt_dir "${PROJECT_BINARY_DIR}/runtime")
set(_pg_rt_shared_dir "${PROJECT_BINARY_DIR}/runtime/shared")
if(TARGET pygraph_rt AND TARGET pygraph_rt_shared)
  set(_pg_rt_dir $<TARGET_FILE_DIR:pygraph_rt>)
  set(_pg_rt_shared_dir $<TARGET_FILE_DIR:pygraph_rt_shared>)
endif()
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/pygraph-layout.json CONTENT "{
  \"version\": \"${PYGRAPH_VERSION}\",
  \"plugin\": \"${_pg_plugin_file}\",
  \"runtime_dir\": \"${_pg_rt_dir}\",
  \"shared_runtime_dir\": \"${_pg_rt_shared_dir}\",
  \"clang\": \"${PYGRAPH_CLANGXX}\",
  \"cuda\": \"${PYGRAPH_CUDA_PATH}\"
}
")

# Relative paths are computed under a stand-in prefix: they do not depend on it.
set(_pg_root /pygraph-prefix)
function(_pg_rel out path)
  file(RELATIVE_PATH rel "${_pg_root}/${CMAKE_INSTALL_BINDIR}/.." "${_pg_root}/${path}")
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()
_pg_rel(_pg_i_rt "${CMAKE_INSTALL_LIBDIR}")
set(_pg_i_plugin "${_pg_i_rt}/$<TARGET_FILE_NAME:pygraph>")
_pg_rel(_pg_i_rt_shared "${PYGRAPH_INSTALL_SHARED_RTDIR}")
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/install/pygraph-layout.json CONTENT "{
  \"version\": \"${PYGRAPH_VERSION}\",
  \"plugin\": \"${_pg_i_plugin}\",
  \"runtime_dir\": \"${_pg_i_rt}\",
  \"shared_runtime_dir\": \"${_pg_i_rt_shared}\",
  \"clang\": \"${PYGRAPH_CLANGXX}\",
  \"cuda\": \"${PYGRAPH_CUDA_PATH}\"
}
")
set(_pg_share "${CMAKE_INSTALL_BINDIR}/../share/pygraph")
install(PROGRAMS ${PROJECT_SOURCE_DIR}/utils/pygraph-nvcc ${PROJECT_SOURCE_DIR}/utils/pygraph-clang++
  DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT plugin)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/utils/pygraph_driver DESTINATION ${_pg_share}
  COMPONENT plugin FILES_MATCHING PATTERN "*.py" PATTERN "*.h" PATTERN "__pycache__" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/install/pygraph-layout.json DESTINATION ${_pg_share}
  COMPONENT plugin)
