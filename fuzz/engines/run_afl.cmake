# Runs afl-fuzz on the persistent harness HARNESS for SECONDS seconds from the
# *.case seeds below SEEDS, with the custom mutator library MUTATOR (if set),
# in WORK; fails if afl-fuzz cannot run or saves any crash. The variables
# make it run unattended in CI (no UI, no CPU-governor or core-pattern
# checks, no CPU binding).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/in)
file(GLOB_RECURSE seeds ${SEEDS}/*.case)
foreach(seed IN LISTS seeds)
  file(COPY ${seed} DESTINATION ${WORK}/in)
endforeach()
list(LENGTH seeds seed_count)
set(env AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
        AFL_NO_AFFINITY=1 AFL_FAST_CAL=1)
if(MUTATOR)
  list(APPEND env AFL_CUSTOM_MUTATOR_LIBRARY=${MUTATOR})
endif()
message(STATUS "afl-fuzz ${HARNESS} for ${SECONDS}s from ${seed_count} seeds")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ${env}
          afl-fuzz -i ${WORK}/in -o ${WORK}/out -V ${SECONDS} -t 2000 -m none
          -- ${HARNESS}
  RESULT_VARIABLE rc)
set(stats ${WORK}/out/default/fuzzer_stats)
if(EXISTS ${stats})
  file(STRINGS ${stats} lines
       REGEX "^(execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs) ")
  string(REPLACE ";" "\n  " lines "${lines}")
  message(STATUS "afl-fuzz stats:\n  ${lines}")
endif()
file(GLOB crashes ${WORK}/out/default/crashes/id*)
if(NOT rc EQUAL 0 OR NOT EXISTS ${stats} OR crashes)
  message(FATAL_ERROR "afl-fuzz exited with ${rc}; crashes: ${crashes}")
endif()
