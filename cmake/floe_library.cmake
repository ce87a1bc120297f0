# libfloe, the library a program outside the tree links: the layers util to sql (not cli, which is
# the floe binary's code) as one static library and, with FLOE_SHARED, one shared library. Both are
# made from the objects the layer libraries already compiled: nothing is compiled twice.
#
# `cmake --install` puts them under lib/, the public headers under include/floe/ and a package
# config under lib/cmake/floe/, so that find_package(floe) gives floe::floe (shared; static when
# built without FLOE_SHARED) and floe::floe_static. The public headers are every header under
# src/floe except those named *_internal.h, test helpers (names holding "test", or including
# GoogleTest) and the folders cli/, python/ and testing/ (docs/architecture.md, "Public API").
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FLOE_LIBRARY_LAYERS util io batch format spec manifest expr catalog table stream sql)

set(floe_objects)
set(floe_external_libs)
foreach(layer ${FLOE_LIBRARY_LAYERS})
  list(APPEND floe_objects $<TARGET_OBJECTS:floe_${layer}>)
  get_target_property(libs floe_${layer} LINK_LIBRARIES)
  foreach(lib ${libs})
    if(NOT lib MATCHES "^floe_")
      list(APPEND floe_external_libs ${lib})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES floe_external_libs)

set(floe_library_targets floe_static)
add_library(floe_static STATIC ${floe_objects})
target_link_libraries(floe_static PUBLIC fmt::fmt Threads::Threads PRIVATE ${floe_external_libs})
if(FLOE_SHARED)
  add_library(floe_shared SHARED ${floe_objects})
  # The public headers use fmt (error messages); the rest stays behind the library.
  target_link_libraries(floe_shared PUBLIC fmt::fmt Threads::Threads PRIVATE ${floe_external_libs})
  set_target_properties(floe_shared PROPERTIES EXPORT_NAME floe VERSION ${PROJECT_VERSION}
                                               SOVERSION ${PROJECT_VERSION_MAJOR})
  list(APPEND floe_library_targets floe_shared)
endif()
foreach(target ${floe_library_targets})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME floe)
  target_include_directories(${target} INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>
                                                 $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} INTERFACE cxx_std_23)
endforeach()

install(TARGETS ${floe_library_targets} EXPORT floeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

file(GLOB_RECURSE floe_headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/src/floe
     ${PROJECT_SOURCE_DIR}/src/floe/*.h)
list(FILTER floe_headers EXCLUDE REGEX "(^(cli|python|testing)/|_internal\\.h$|test[^/]*\\.h$)")
foreach(header ${floe_headers})
  set(path ${PROJECT_SOURCE_DIR}/src/floe/${header})
  file(STRINGS ${path} gtest REGEX "^#include <(gtest|gmock)/" LIMIT_COUNT 1)
  if(gtest)
    continue()  # a test helper
  endif()
  get_filename_component(folder ${header} DIRECTORY)
  install(FILES ${path} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/floe/${folder})
endforeach()

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/floe)
install(EXPORT floeTargets NAMESPACE floe:: DESTINATION ${config_dir})
configure_package_config_file(cmake/floeConfig.cmake.in ${PROJECT_BINARY_DIR}/floeConfig.cmake
                              INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/floeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/floeConfig.cmake ${PROJECT_BINARY_DIR}/floeConfigVersion.cmake
        DESTINATION ${config_dir})

# The example of examples/library, built against an install in a temp folder and run; with the
# sanitizers of this build, since the libraries carry them.
if(FLOE_BUILD_TESTS)
  set(consumer_flags "")
  if(FLOE_SANITIZE STREQUAL "thread")
    set(consumer_flags "-fsanitize=thread")
  elseif(FLOE_SANITIZE)
    set(consumer_flags "-fsanitize=address,undefined")
  endif()
  add_executable(floe_library_test ${PROJECT_SOURCE_DIR}/examples/library/library_test.cc)
  target_link_libraries(floe_library_test PRIVATE floe_testing GTest::gtest_main)
  add_dependencies(floe_library_test ${floe_library_targets})
  target_compile_definitions(floe_library_test PRIVATE
                             FLOE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                             FLOE_BUILD_DIR="${PROJECT_BINARY_DIR}"
                             FLOE_CMAKE="${CMAKE_COMMAND}"
                             FLOE_CMAKE_GENERATOR="${CMAKE_GENERATOR}"
                             FLOE_CXX_COMPILER="${CMAKE_CXX_COMPILER}"
                             FLOE_CONSUMER_FLAGS="${consumer_flags}"
                             FLOE_LIBDIR="${CMAKE_INSTALL_LIBDIR}"
                             FLOE_SHARED_BUILT=$<BOOL:${FLOE_SHARED}>)
  add_test(NAME library COMMAND floe_library_test --gtest_brief=1
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
