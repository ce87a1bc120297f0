# floe_layer(NAME DEPS...) builds src/floe/NAME as the library floe_NAME from every .cc below it
# (tests, fuzzers excluded), and its *_test.cc files as one test binary, floe_NAME_test.
# Sources are globbed so that adding a file never means editing a list.
function(floe_layer name)
  set(deps ${ARGN})
  file(GLOB_RECURSE all_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cc")
  set(lib_sources ${all_sources})
  list(FILTER lib_sources EXCLUDE REGEX "(_test|_fuzz|/main)\\.cc$")
  set(test_sources ${all_sources})
  list(FILTER test_sources INCLUDE REGEX "_test\\.cc$")

  add_library(floe_${name} STATIC ${lib_sources})
  target_include_directories(floe_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(floe_${name} PUBLIC ${deps})

  if(FLOE_BUILD_TESTS AND test_sources)
    add_executable(floe_${name}_test ${test_sources})
    target_link_libraries(floe_${name}_test PRIVATE floe_${name} floe_testing GTest::gtest_main GTest::gmock)
    add_test(NAME ${name} COMMAND floe_${name}_test --gtest_brief=1
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "FLOE_SHARED_DIR=${FLOE_SHARED_DIR}")
  endif()
endfunction()
