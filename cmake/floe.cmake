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

# floe_add_fuzzer(NAME SOURCE LIBRARY [SEEDS dir...] [DICTS file...]): a fuzz target over LIBRARY,
# part of the floe_fuzzers target: the LLVMFuzzerTestOneInput harness SOURCE (say foo/bar_fuzz.cc),
# linked with AFL++'s libFuzzer-compatible driver and runtime and the trace-pc hook that gives
# afl-fuzz g++'s edges (see the top-level FLOE_BUILD_FUZZ and docs/fuzzing.md). Beside the harness
# live its seeds (foo/fuzz/bar/seeds/), the inputs of its past findings (foo/fuzz/bar/regressions/)
# and its dictionary (foo/fuzz/bar.dict); SEEDS adds more seed folders, DICTS more dictionaries
# (afl-fuzz takes four at most). With FLOE_BUILD_TESTS it is also two ctest tests labelled "fuzz"
# (scripts/fuzz): fuzz_seeds_NAME runs every seed and regression input once, and fuzz_NAME fuzzes
# for FLOE_FUZZ_SECONDS from them with the dictionaries. A crash, a sanitizer report, a hang or a
# run that reaches no edges fails them.
set(FLOE_FUZZ_SECONDS 8 CACHE STRING "How long each fuzz target runs as a test")
if(FLOE_BUILD_FUZZ AND NOT TARGET floe_fuzzers)
  add_custom_target(floe_fuzzers)
  find_file(FLOE_AFL_DRIVER libAFLDriver.a PATHS /usr/lib/afl REQUIRED)
  find_file(FLOE_AFL_RUNTIME afl-compiler-rt.o PATHS /usr/lib/afl REQUIRED)
endif()
# floe_fuzz_library(NAME DEPS... SOURCES file...): a static library of a few files of a layer, for
# fuzz targets whose parser needs only them, so that the fuzz build does not compile the whole layer
# and everything below it.
function(floe_fuzz_library name)
  cmake_parse_arguments(PARSE_ARGV 1 LIB "" "" "DEPS;SOURCES")
  add_library(${name} STATIC ${LIB_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${LIB_DEPS})
endfunction()

function(floe_add_fuzzer name source library)
  cmake_parse_arguments(PARSE_ARGV 3 FUZZ "" "" "SEEDS;DICTS")
  add_executable(${name} ${source} ${PROJECT_SOURCE_DIR}/src/floe/testing/afl_edge_coverage_fuzz.cc)
  target_link_libraries(${name} PRIVATE ${library} ${FLOE_AFL_DRIVER} ${FLOE_AFL_RUNTIME})
  add_dependencies(floe_fuzzers ${name})
  if(FLOE_BUILD_TESTS)
    get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR}/${source} DIRECTORY)
    get_filename_component(stem ${source} NAME_WE)
    string(REGEX REPLACE "_fuzz$" "" stem ${stem})
    set(seeds)
    foreach(dir ${folder}/fuzz/${stem}/seeds ${folder}/fuzz/${stem}/regressions ${FUZZ_SEEDS})
      if(EXISTS ${dir})
        list(APPEND seeds ${dir})
      endif()
    endforeach()
    set(dicts ${FUZZ_DICTS})
    if(EXISTS ${folder}/fuzz/${stem}.dict)
      list(PREPEND dicts ${folder}/fuzz/${stem}.dict)
    endif()
    # One argument for scripts/fuzz: the dictionaries joined with ':'.
    list(JOIN dicts ":" dict)
    set(run ${PROJECT_SOURCE_DIR}/scripts/fuzz)
    add_test(NAME fuzz_seeds_${name} COMMAND ${run} seeds $<TARGET_FILE:${name}> ${seeds})
    add_test(NAME fuzz_${name}
             COMMAND ${run} fuzz $<TARGET_FILE:${name}> ${FLOE_FUZZ_SECONDS}
                     ${CMAKE_CURRENT_BINARY_DIR}/${name}_out "${dict}" ${seeds})
    set_tests_properties(fuzz_seeds_${name} fuzz_${name} PROPERTIES LABELS fuzz)
    # Each fuzz run takes a core for its whole time: one at a time.
    set_tests_properties(fuzz_${name} PROPERTIES RUN_SERIAL ON)
  endif()
endfunction()
