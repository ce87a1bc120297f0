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
  if(FLOE_SHARED)
    # libfloe.so is linked from these objects too (floe_library.cmake). Without semantic
    # interposition g++ inlines and calls within the library as it does in an executable.
    set_target_properties(floe_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_options(floe_${name} PRIVATE -fno-semantic-interposition)
  endif()

  if(FLOE_BUILD_TESTS AND test_sources)
    add_executable(floe_${name}_test ${test_sources})
    target_link_libraries(floe_${name}_test PRIVATE floe_${name} floe_testing GTest::gtest_main GTest::gmock)
    add_test(NAME ${name} COMMAND floe_${name}_test --gtest_brief=1
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "FLOE_SHARED_DIR=${FLOE_SHARED_DIR}")
  endif()
endfunction()

# floe_add_fuzzer(NAME SOURCE LIBRARY [SEEDS dir...]): a libFuzzer binary over LIBRARY (see the
# top-level FLOE_BUILD_FUZZ), part of the floe_fuzzers target. With FLOE_BUILD_TESTS it is also a
# ctest test labelled "fuzz" that fuzzes for FLOE_FUZZ_SECONDS, starting from the SEEDS folders
# (read only: new inputs go to a corpus folder in the build tree). A crash, a sanitizer report, a
# leak or an input slower than 10 s fails the test and leaves the input in the build folder.
set(FLOE_FUZZ_SECONDS 20 CACHE STRING "How long each fuzzer runs as a test")
if(FLOE_BUILD_FUZZ AND NOT TARGET floe_fuzzers)
  add_custom_target(floe_fuzzers)
endif()
function(floe_add_fuzzer name source library)
  cmake_parse_arguments(PARSE_ARGV 3 FUZZ "" "" "SEEDS")
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE ${library})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    file(GLOB candidates /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a)
    set(FLOE_LIBFUZZER "${candidates}" CACHE STRING "clang's libFuzzer runtime, for g++-built fuzzers")
    list(GET FLOE_LIBFUZZER 0 runtime)
    target_sources(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src/floe/testing/gcc_coverage_fuzz.cc)
    target_link_libraries(${name} PRIVATE ${runtime})
  endif()
  add_dependencies(floe_fuzzers ${name})
  if(FLOE_BUILD_TESTS)
    set(corpus ${CMAKE_CURRENT_BINARY_DIR}/${name}_corpus)
    set(artifacts ${CMAKE_CURRENT_BINARY_DIR}/${name}_artifacts)
    file(MAKE_DIRECTORY ${corpus} ${artifacts})
    set(seeds)
    foreach(dir ${FUZZ_SEEDS})
      if(EXISTS ${dir})
        list(APPEND seeds ${dir})
      endif()
    endforeach()
    add_test(NAME fuzz_${name}
             COMMAND ${name} -max_total_time=${FLOE_FUZZ_SECONDS} -use_value_profile=1 -timeout=10
                     -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=${artifacts}/
                     ${corpus} ${seeds})
    set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz)
  endif()
endfunction()
