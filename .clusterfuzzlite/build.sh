#!/bin/bash -eu
# ClusterFuzzLite's build step, run in the image of .clusterfuzzlite/Dockerfile
# with CC, CXX, CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE, SRC, WORK and OUT set
# by the action. The project's own script does the work
# (fuzz/engines/oss-fuzz/build.sh); this one points it at the Debian
# libraries the image keeps in /opt/debian.
#
# Those archives were built against libstdc++, so atomfuzz must be too: the
# base image's -stdlib=libc++ would give std::string another layout on each
# side of every abseil call.
export CXXFLAGS="${CXXFLAGS//-stdlib=libc++/}"
export PKG_CONFIG_PATH=/opt/debian/lib/x86_64-linux-gnu/pkgconfig
export ATOMFUZZ_CMAKE_ARGS="-DCMAKE_PREFIX_PATH=/opt/debian"
# The runner images have no Vulkan driver for atomics_vulkan_fuzzer, which
# would exit at its first input ("no Vulkan"): it runs where one is
# installed (docs/oss-fuzz.md).
export ATOMFUZZ_FUZZERS="atomics_fuzzer atomics_ext_fuzzer parser_fuzzer dxbc_fuzzer"
"$SRC/atomfuzz/fuzz/engines/oss-fuzz/build.sh"
