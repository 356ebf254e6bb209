# SPDX-License-Identifier: BSD-3-Clause
# Sanitizer and fuzzing builds (issue 16). Off by default.
#
#   VMAFX_SANITIZE=address  AddressSanitizer + UndefinedBehaviorSanitizer
#                           (every UB check fatal: a finding fails the test)
#   VMAFX_SANITIZE=thread   ThreadSanitizer (the engine's workers and
#                           sequencer, the two reader threads)
#   VMAFX_FUZZ=ON           the libFuzzer targets of tests/fuzz (clang only);
#                           the library gets the fuzzer's coverage
#                           instrumentation (-fsanitize=fuzzer-no-link)
#
# Everything (library, CLI, tests) is instrumented, so the unit, golden and
# CLI error tests run under the sanitizer. scripts/sanitize.sh and
# scripts/fuzz.sh configure these builds.
set(VMAFX_SANITIZE "" CACHE STRING "Sanitizer build: address (ASan+UBSan), thread (TSan), or empty")
set_property(CACHE VMAFX_SANITIZE PROPERTY STRINGS "" address thread)
option(VMAFX_FUZZ "Build the libFuzzer targets in tests/fuzz (clang)" OFF)

set(VMAFX_SANITIZE_FLAGS "")
if(VMAFX_SANITIZE STREQUAL "address")
  list(APPEND VMAFX_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all)
elseif(VMAFX_SANITIZE STREQUAL "thread")
  list(APPEND VMAFX_SANITIZE_FLAGS -fsanitize=thread)
elseif(NOT VMAFX_SANITIZE STREQUAL "")
  message(FATAL_ERROR "VMAFX_SANITIZE=${VMAFX_SANITIZE}: expected address, thread or empty")
endif()
if(VMAFX_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "VMAFX_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
if(VMAFX_SANITIZE_FLAGS)
  # Stack traces with line numbers at a small cost in build time.
  list(APPEND VMAFX_SANITIZE_FLAGS -fno-omit-frame-pointer)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    list(APPEND VMAFX_SANITIZE_FLAGS -gline-tables-only)
  else()
    list(APPEND VMAFX_SANITIZE_FLAGS -g1)
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${VMAFX_SANITIZE_FLAGS}>")
  add_link_options(${VMAFX_SANITIZE_FLAGS})
  message(STATUS "vmaf-exact: sanitizer build (${VMAFX_SANITIZE})")
endif()
if(VMAFX_FUZZ)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>")
endif()
