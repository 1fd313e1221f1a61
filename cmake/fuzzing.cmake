# BFLY_BUILD_FUZZERS=ON (scripts/fuzz.sh): clang instruments every target of
# the build for libFuzzer (coverage, fuzzer-no-link) and for AddressSanitizer
# and UndefinedBehaviorSanitizer, an undefined-behaviour report fatal as a
# crash is; fuzz/CMakeLists.txt links the fuzz targets with libFuzzer itself.
# Included before any target, so the flags reach them all.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "BFLY_BUILD_FUZZERS needs clang and its libFuzzer (Debian: apt-get install clang "
                      "libclang-rt-14-dev; configure with -DCMAKE_CXX_COMPILER=clang++, as scripts/fuzz.sh does); "
                      "this is ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER}")
endif()
# -O1 -g, asserts on: fast enough to fuzz, and stacks that name the line.
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Fuzz)
endif()
set(CMAKE_CXX_FLAGS_FUZZ "-O1 -g" CACHE STRING "Flags of the Fuzz build type (BFLY_BUILD_FUZZERS)")
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
