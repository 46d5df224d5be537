# PygraphInstall.cmake - install rules and the CMake package.
#
#   <prefix>/lib/libpygraph.so, libpygraph_clang.so   the plugin (both halves, side by side)
#   <prefix>/lib/libpygraph_rt.a                      the runtime, static (static cudart)
#   <prefix>/lib/pygraph-shared/libpygraph_rt.so      the runtime, shared (shared cudart); its own
#                                                     folder so that -lpygraph_rt finds the .a
#   <prefix>/include/pygraph_rt.h, ...                runtime/include
#   <prefix>/bin/pygraph-nvcc, pygraph-clang++        the compiler drivers (Python 3 scripts)
#   <prefix>/share/pygraph/pygraph_driver/            their package
#   <prefix>/share/pygraph/pygraph-layout.json        where the drivers find the plugin, the
#                                                     runtime, clang and CUDA (paths relative
#                                                     to <bin>/..; the build tree has its own
#                                                     <build>/pygraph-layout.json)
#   <prefix>/lib/cmake/pygraph/                       find_package(pygraph): pygraph::plugin,
#                                                     pygraph::runtime_static, pygraph::runtime,
#                                                     pygraph_enable(<target>);
#                                                     PygraphProjectInclude.cmake for
#                                                     -DCMAKE_PROJECT_INCLUDE= (no find_package)
#
# Everything is installed from here (install(TARGETS) may name targets of
# other folders), so runtime/CMakeLists.txt carries no install lines.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PYGRAPH_VERSION 0.1.0)
set(PYGRAPH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/pygraph CACHE STRING
  "where find_package(pygraph) files are installed, relative to the prefix")
set(PYGRAPH_INSTALL_SHARED_RTDIR ${CMAKE_INSTALL_LIBDIR}/pygraph-shared)

install(TARGETS pygraph pygraph_clang
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT plugin)
include(PygraphDriverLayout)

set(PYGRAPH_PACKAGE_HAS_RUNTIME OFF)
if(TARGET pygraph_rt AND TARGET pygraph_rt_shared)
  set(PYGRAPH_PACKAGE_HAS_RUNTIME ON)
  install(TARGETS pygraph_rt ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
  install(TARGETS pygraph_rt_shared
    LIBRARY DESTINATION ${PYGRAPH_INSTALL_SHARED_RTDIR} COMPONENT runtime)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT runtime FILES_MATCHING PATTERN "*.h")
endif()

# The package: a config file with imported targets (the cudart the runtime
# was built against is recorded in it), the pygraph_enable() function and
# a version file.
set(PYGRAPH_PACKAGE_CUDART_STATIC "${PYGRAPH_CUDART_STATIC}")
set(PYGRAPH_PACKAGE_CUDART_SHARED "${PYGRAPH_CUDART_SHARED}")
# The GPU architectures clang builds and the nvcc-compatibility headers, from
# the drivers' package (one definition for the drivers and pygraph_enable).
set(_pg_arch_py ${PROJECT_SOURCE_DIR}/utils/pygraph_driver/arch.py)
set(_pg_plan_py ${PROJECT_SOURCE_DIR}/utils/pygraph_driver/nvcc_plan.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_pg_arch_py} ${_pg_plan_py})
include(PygraphDriverTables)
_pygraph_read_arch_table(${_pg_arch_py} PYGRAPH_PACKAGE_)
_pygraph_read_compat_headers(${_pg_plan_py} PYGRAPH_PACKAGE_COMPAT_HEADERS)
set(PYGRAPH_INSTALL_COMPAT_DIR "${CMAKE_INSTALL_BINDIR}/../share/pygraph/pygraph_driver/include")
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/pygraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/pygraphConfig.cmake
  INSTALL_DESTINATION ${PYGRAPH_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR
            PYGRAPH_INSTALL_SHARED_RTDIR PYGRAPH_INSTALL_COMPAT_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/pygraphConfigVersion.cmake
  VERSION ${PYGRAPH_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/pygraphConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/pygraphConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/PygraphEnable.cmake
  ${PROJECT_SOURCE_DIR}/cmake/PygraphCudaTarget.cmake
  ${PROJECT_SOURCE_DIR}/cmake/PygraphCudaArchs.cmake
  ${PROJECT_SOURCE_DIR}/cmake/PygraphNvccFlags.cmake
  ${PROJECT_SOURCE_DIR}/cmake/PygraphProjectInclude.cmake
  DESTINATION ${PYGRAPH_INSTALL_CMAKEDIR} COMPONENT plugin)
