# The atomics harnesses over fuzz/engines/harness.h (included by fuzz/engines/CMakeLists.txt
# inside ATOMFUZZ_BUILD_FUZZERS, after engine_link is set):
#   atomics_fuzzer       libFuzzer (or $LIB_FUZZING_ENGINE) harness with the
#                        structure-aware custom mutator and crossover
#   atomics_vulkan_fuzzer, atomics_ext_fuzzer   the same on the vulkan target
#                        and on ext:$ORIGIN/atomics_ext_target.so
#   atomics_afl          AFL++ persistent-mode harness (afl preset)
#   libatomics_afl_mutator.so   the custom mutator for AFL++ (afl preset)
#   dxbc_fuzzer          libFuzzer harness for the DXBC decoder, seeded with
#                        the corpus encoded by dxbc_seeds
# and their smoke runs under ctest.
if(NOT ATOMFUZZ_FUZZING_ENGINE STREQUAL "afl")
  add_executable(atomics_fuzzer libfuzzer_main.cc)
  target_link_libraries(atomics_fuzzer PRIVATE atomfuzz_engines ${engine_link})
  # One harness per real target, for a translator's own OSS-Fuzz project
  # (docs/oss-fuzz.md): the same program, started on that target.
  # In a child process (isolate=1): lavapipe runs vkd3d's out-of-bounds
  # TGSM writes into the heap (findings.md, vkd3d-lavapipe-tgsm-oob-crash),
  # which in the fuzzer's process corrupted ASan's own allocator cases later
  # (an unreproducible crash). Its known bugs (corpus/known-findings.txt,
  # copied beside it) are passed over, or vkd3d-shader 1.2's would end each
  # run at the first seed.
  add_executable(atomics_vulkan_fuzzer libfuzzer_main.cc
                 vulkan_driver_leaks.cc)
  target_compile_definitions(atomics_vulkan_fuzzer PRIVATE
    ATOMFUZZ_HARNESS_DEFAULTS="target=vulkan,isolate=1,known=$ORIGIN/known-findings.txt")
  configure_file(${PROJECT_SOURCE_DIR}/corpus/known-findings.txt
                 ${engines_out}/known-findings.txt COPYONLY)
  target_link_libraries(atomics_vulkan_fuzzer PRIVATE atomfuzz_engines
    ${engine_link})
  # ext: the executor is the C-ABI library shipped beside the fuzzer
  # (include/atomfuzz/target.h); build.sh puts the example one there.
  add_executable(atomics_ext_fuzzer libfuzzer_main.cc)
  target_compile_definitions(atomics_ext_fuzzer PRIVATE
    ATOMFUZZ_HARNESS_DEFAULTS="target=ext:$ORIGIN/atomics_ext_target.so")
  target_link_libraries(atomics_ext_fuzzer PRIVATE atomfuzz_engines
    ${engine_link})
endif()

if(ATOMFUZZ_FUZZING_ENGINE STREQUAL "libfuzzer")
  # Seeded from the corpus, with the dictionary; the custom mutator is part
  # of the binary. Fails on any crash, leak or sanitizer report.
  set(ATOMFUZZ_ATOMICS_FUZZ_SECONDS 60 CACHE STRING
      "Seconds the atomics fuzz test runs")
  add_test(NAME atomics_fuzzer_smoke
    COMMAND ${CMAKE_COMMAND}
      -DFUZZER=$<TARGET_FILE:atomics_fuzzer>
      -DDICT=${CMAKE_BINARY_DIR}/parser.dict
      -DSEEDS=${PROJECT_SOURCE_DIR}/corpus
      -DWORK=${CMAKE_BINARY_DIR}/atomics-fuzz
      -DSECONDS=${ATOMFUZZ_ATOMICS_FUZZ_SECONDS}
      -DMAX_LEN=32768
      -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzzer.cmake)
  set_tests_properties(atomics_fuzzer_smoke PROPERTIES
    TIMEOUT 900 LABELS fuzz ENVIRONMENT "ATOMFUZZ_OPTIONS=target=fast")

  # The per-target harnesses, briefly. The vulkan one replays the seeds once
  # (each file an input): fuzzing it finds vkd3d-shader 1.2's and lavapipe's
  # bugs, which are no failure of atomfuzz. The example external executor is
  # ours, so it is fuzzed, in the fuzzer's process (oss-fuzz/build.sh ships
  # it beside the fuzzer; here it is named).
  set(ATOMFUZZ_TARGET_FUZZ_SECONDS 20 CACHE STRING
      "Seconds the ext harness's fuzz test runs")
  file(GLOB vulkan_smoke_seeds CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/corpus/seed/*.case)
  add_test(NAME atomics_vulkan_fuzzer_seeds
    COMMAND atomics_vulkan_fuzzer -dict=${CMAKE_BINARY_DIR}/parser.dict
            ${vulkan_smoke_seeds})
  add_test(NAME atomics_ext_fuzzer_smoke
    COMMAND ${CMAKE_COMMAND}
      -DFUZZER=$<TARGET_FILE:atomics_ext_fuzzer>
      -DDICT=${CMAKE_BINARY_DIR}/parser.dict
      -DSEEDS=${PROJECT_SOURCE_DIR}/corpus/seed
      -DWORK=${CMAKE_BINARY_DIR}/atomics-ext-fuzz
      -DSECONDS=${ATOMFUZZ_TARGET_FUZZ_SECONDS}
      -DMAX_LEN=32768
      -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzzer.cmake)
  set_tests_properties(atomics_vulkan_fuzzer_seeds atomics_ext_fuzzer_smoke
    PROPERTIES TIMEOUT 600 LABELS fuzz)
  set_tests_properties(atomics_ext_fuzzer_smoke PROPERTIES ENVIRONMENT
    "ATOMFUZZ_OPTIONS=target=ext:$<TARGET_FILE:simple_executor>")
endif()

# The DXBC decoder: any bytes give an error or a program that round trips.
add_executable(dxbc_fuzzer dxbc_fuzzer.cc)
target_link_libraries(dxbc_fuzzer PRIVATE atomfuzz_isa ${engine_link})
# Seeds: every corpus case's shader as a container (the smoke run's below,
# oss-fuzz/build.sh's seed zip).
add_executable(dxbc_seeds dxbc_seeds_main.cc)
target_link_libraries(dxbc_seeds PRIVATE atomfuzz_isa)
if(ATOMFUZZ_FUZZING_ENGINE STREQUAL "libfuzzer")
  # Rebuilt when a case or the codec changes.
  file(GLOB_RECURSE dxbc_seed_cases CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/corpus/*.case)
  set(dxbc_seed_dir ${CMAKE_BINARY_DIR}/dxbc-seeds)
  add_custom_command(OUTPUT ${dxbc_seed_dir}/.stamp
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${dxbc_seed_dir}
    COMMAND dxbc_seeds ${PROJECT_SOURCE_DIR}/corpus ${dxbc_seed_dir}
    COMMAND ${CMAKE_COMMAND} -E touch ${dxbc_seed_dir}/.stamp
    DEPENDS dxbc_seeds ${dxbc_seed_cases} VERBATIM)
  add_custom_target(dxbc_fuzz_seeds ALL DEPENDS ${dxbc_seed_dir}/.stamp)

  set(ATOMFUZZ_DXBC_FUZZ_SECONDS 30 CACHE STRING
      "Seconds the DXBC decoder fuzz test runs")
  add_test(NAME dxbc_fuzzer_smoke
    COMMAND ${CMAKE_COMMAND}
      -DFUZZER=$<TARGET_FILE:dxbc_fuzzer>
      -DSEEDS=${dxbc_seed_dir}
      -DSEED_GLOB=*.dxbc
      -DWORK=${CMAKE_BINARY_DIR}/dxbc-fuzz
      -DSECONDS=${ATOMFUZZ_DXBC_FUZZ_SECONDS}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/run_fuzzer.cmake)
  set_tests_properties(dxbc_fuzzer_smoke PROPERTIES TIMEOUT 600 LABELS fuzz)
endif()

if(ATOMFUZZ_FUZZING_ENGINE STREQUAL "afl")
  add_executable(atomics_afl afl_main.cc)
  target_link_libraries(atomics_afl PRIVATE atomfuzz_engines)

  # The mutator runs inside afl-fuzz, which has no AFL runtime for
  # instrumented code to call: it is built by a nested plain-clang build of
  # the libraries (position-independent), next to atomics_afl.
  include(ExternalProject)
  set(afl_mutator ${engines_out}/libatomics_afl_mutator.so)
  ExternalProject_Add(atomics_afl_mutator_build
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${CMAKE_BINARY_DIR}/afl-mutator
    CMAKE_GENERATOR ${CMAKE_GENERATOR}
    CMAKE_ARGS
      -DCMAKE_CXX_COMPILER=clang++
      -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_POSITION_INDEPENDENT_CODE=ON
      -DCMAKE_LIBRARY_OUTPUT_DIRECTORY=${engines_out}
      -DATOMFUZZ_WERROR=${ATOMFUZZ_WERROR}
      -DATOMFUZZ_BUILD_TESTS=OFF -DATOMFUZZ_BUILD_CLI=OFF
      -DATOMFUZZ_BUILD_FUZZERS=OFF -DATOMFUZZ_BUILD_AFL_MUTATOR=ON
    BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR>
      --target atomics_afl_mutator
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${afl_mutator})

  # 30 s of afl-fuzz with the custom mutator, seeded from the corpus; fails
  # if afl-fuzz cannot run or saves a crash.
  set(ATOMFUZZ_AFL_FUZZ_SECONDS 30 CACHE STRING
      "Seconds the AFL++ fuzz test runs")
  add_test(NAME atomics_afl_smoke
    COMMAND ${CMAKE_COMMAND}
      -DHARNESS=$<TARGET_FILE:atomics_afl>
      -DMUTATOR=${afl_mutator}
      -DSEEDS=${PROJECT_SOURCE_DIR}/corpus
      -DWORK=${CMAKE_BINARY_DIR}/atomics-afl
      -DSECONDS=${ATOMFUZZ_AFL_FUZZ_SECONDS}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/run_afl.cmake)
  set_tests_properties(atomics_afl_smoke PROPERTIES
    TIMEOUT 600 LABELS fuzz ENVIRONMENT "ATOMFUZZ_OPTIONS=target=fast")
endif()
