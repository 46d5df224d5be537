# PygraphProjectInclude.cmake - makes pygraph_enable() available to a project
# that has no find_package(pygraph) line, so that enabling pygraph for a
# target takes one added line (pygraph_enable(<target>)):
#
#   cmake -S . -B build -DCMAKE_PROJECT_INCLUDE=<prefix>/lib/cmake/pygraph/PygraphProjectInclude.cmake ...
#
# CMake includes it at the end of every project() call (after the project's
# languages are enabled); the package is loaded once, from this folder.
if(NOT COMMAND pygraph_enable OR NOT TARGET pygraph::plugin)
  find_package(pygraph REQUIRED CONFIG PATHS "${CMAKE_CURRENT_LIST_DIR}" NO_DEFAULT_PATH)
endif()
