# Runs a libFuzzer binary for SECONDS seconds on a scratch corpus seeded from
# SEEDS (every *.case below it), with the dictionary DICT and inputs up to
# MAX_LEN bytes (default 8192); fails on any crash, leak or sanitizer report
# (a non-zero exit or an artifact left behind).
if(NOT MAX_LEN)
  set(MAX_LEN 8192)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
file(GLOB_RECURSE seeds ${SEEDS}/*.case)
foreach(seed IN LISTS seeds)
  file(COPY ${seed} DESTINATION ${WORK}/corpus)
endforeach()
list(LENGTH seeds seed_count)
message(STATUS "fuzzing ${FUZZER} for ${SECONDS}s from ${seed_count} seeds")
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -dict=${DICT}
          -max_len=${MAX_LEN} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
          -artifact_prefix=${WORK}/artifacts/ ${WORK}/corpus
  RESULT_VARIABLE rc)
file(GLOB artifacts ${WORK}/artifacts/*)
if(NOT rc EQUAL 0 OR artifacts)
  message(FATAL_ERROR "fuzzer exited with ${rc}; artifacts in ${WORK}/artifacts: ${artifacts}")
endif()
