# Runs a libFuzzer binary for SECONDS seconds on a scratch corpus seeded from
# SEEDS (every file matching SEED_GLOB below it, default *.case), with the
# dictionary DICT if given and inputs up to MAX_LEN bytes (default 8192);
# fails on any crash, leak or sanitizer report (a non-zero exit or an
# artifact left behind).
if(NOT MAX_LEN)
  set(MAX_LEN 8192)
endif()
if(NOT SEED_GLOB)
  set(SEED_GLOB *.case)
endif()
set(dict_arg)
if(DICT)
  set(dict_arg -dict=${DICT})
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
file(GLOB_RECURSE seeds ${SEEDS}/${SEED_GLOB})
foreach(seed IN LISTS seeds)
  file(COPY ${seed} DESTINATION ${WORK}/corpus)
endforeach()
list(LENGTH seeds seed_count)
message(STATUS "fuzzing ${FUZZER} for ${SECONDS}s from ${seed_count} seeds")
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} ${dict_arg}
          -max_len=${MAX_LEN} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
          -artifact_prefix=${WORK}/artifacts/ ${WORK}/corpus
  RESULT_VARIABLE rc)
file(GLOB artifacts ${WORK}/artifacts/*)
if(NOT rc EQUAL 0 OR artifacts)
  message(FATAL_ERROR "fuzzer exited with ${rc}; artifacts in ${WORK}/artifacts: ${artifacts}")
endif()
