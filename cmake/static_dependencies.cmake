# ATOMFUZZ_STATIC_DEPS: link abseil and vkd3d-shader from the static archives
# that Debian's libabsl-dev and libvkd3d-dev install beside the shared
# libraries, so that a fuzzer copied to another machine (an OSS-Fuzz or
# ClusterFuzzLite runner image, which has neither) starts there
# (docs/oss-fuzz.md). Included after find_package(absl).
#
# abseil's CMake package declares each library SHARED IMPORTED; an imported
# target's type cannot change, but its location can: each one is pointed at
# its libabsl_*.a. CMake still orders the archives by their
# INTERFACE_LINK_LIBRARIES, dependents first, as static linking needs.
get_directory_property(imported IMPORTED_TARGETS)
set(absl_archives 0)
foreach(target IN LISTS imported)
  if(NOT target MATCHES "^absl::")
    continue()
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "SHARED_LIBRARY")
    continue()
  endif()
  get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
  foreach(config IN LISTS configs)
    get_target_property(shared ${target} IMPORTED_LOCATION_${config})
    string(REGEX REPLACE "\\.so(\\.[0-9.]+)?$" ".a" archive "${shared}")
    if(NOT EXISTS "${archive}")
      message(FATAL_ERROR "ATOMFUZZ_STATIC_DEPS: ${target} has no static "
                          "archive ${archive} (Debian package libabsl-dev)")
    endif()
    set_target_properties(${target} PROPERTIES
      IMPORTED_LOCATION_${config} "${archive}"
      IMPORTED_NO_SONAME_${config} TRUE)
    set_property(TARGET ${target} PROPERTY IMPORTED_SONAME_${config})
    math(EXPR absl_archives "${absl_archives} + 1")
  endforeach()
endforeach()
message(STATUS "ATOMFUZZ_STATIC_DEPS: ${absl_archives} abseil archives")

# vkd3d-shader (targets/CMakeLists.txt links it): its static archive.
find_library(VKD3D_SHADER_ARCHIVE NAMES libvkd3d-shader.a REQUIRED)
