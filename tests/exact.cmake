# SPDX-License-Identifier: BSD-3-Clause
# Exact-math tests (src/exact): host tests, the OpenCL test and the CUDA test.
#
# Include this from tests/CMakeLists.txt once the unit-test target exists,
# then call vmafx_exact_tests() with it:
#   include(${PROJECT_SOURCE_DIR}/tests/exact.cmake)
#   vmafx_exact_tests(vmafx_unit_tests)
# The target's sources must already hold tests/unit/exact/*.cpp (the unit
# glob does that). This adds the embedded OpenCL sources (src/exact/*.h and
# the test kernels, via vmafx_embed_files from cmake/embed.cmake), links
# OpenCL when VMAFX_WITH_OPENCL (cmake/backends.cmake) is ON, and, when
# VMAFX_WITH_CUDA is ON, builds tests/unit/exact/exact_cuda_test.cu as the
# test binary vmafx_exact_cuda_tests (nvcc --fmad=false, sm_90). Without the
# embedded sources the OpenCL test skips; without OpenCL it skips too.
set(VMAFX_EXACT_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)

function(vmafx_exact_tests target)
  file(GLOB exact_headers CONFIGURE_DEPENDS ${VMAFX_EXACT_ROOT}/src/exact/*.h)
  list(SORT exact_headers)
  set(embedded ${CMAKE_CURRENT_BINARY_DIR}/exact_cl_sources.cpp)
  vmafx_embed_files(${embedded} kExactClSources ${exact_headers}
                    ${VMAFX_EXACT_ROOT}/tests/unit/exact/exact_test_kernels.cl)
  target_sources(${target} PRIVATE ${embedded})
  target_compile_definitions(${target} PRIVATE VMAFX_EXACT_EMBEDDED=1)
  target_include_directories(${target} PRIVATE ${VMAFX_EXACT_ROOT}/src
                                               ${VMAFX_EXACT_ROOT}/tests/unit/exact)

  # cmake/backends.cmake decides VMAFX_WITH_OPENCL / VMAFX_WITH_CUDA; without it
  # (a stand-alone configuration) OpenCL is looked for here.
  set(with_opencl OFF)
  if(DEFINED VMAFX_WITH_OPENCL)
    set(with_opencl ${VMAFX_WITH_OPENCL})
  elseif(NOT VMAFX_OPENCL STREQUAL "OFF")
    find_package(OpenCL QUIET)
    set(with_opencl ${OpenCL_FOUND})
  endif()
  if(with_opencl)
    find_package(OpenCL REQUIRED)
    target_link_libraries(${target} PRIVATE OpenCL::OpenCL)
    target_compile_definitions(${target} PRIVATE VMAFX_HAVE_OPENCL=1 CL_TARGET_OPENCL_VERSION=120)
  endif()

  set(with_cuda OFF)
  if(DEFINED VMAFX_WITH_CUDA)
    set(with_cuda ${VMAFX_WITH_CUDA})
  elseif(CMAKE_CUDA_COMPILER AND NOT VMAFX_CUDA STREQUAL "OFF")
    set(with_cuda ON)
  endif()
  if(with_cuda)
    find_package(CUDAToolkit REQUIRED)
    add_executable(vmafx_exact_cuda_tests ${VMAFX_EXACT_ROOT}/tests/unit/exact/exact_cuda_test.cu)
    target_include_directories(vmafx_exact_cuda_tests PRIVATE ${VMAFX_EXACT_ROOT}/src
                                                              ${VMAFX_EXACT_ROOT}/tests/unit/exact)
    target_compile_options(vmafx_exact_cuda_tests PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false -Xcompiler=-ffp-contract=off>)
    set_target_properties(vmafx_exact_cuda_tests PROPERTIES CUDA_ARCHITECTURES 90
                          CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
    target_link_libraries(vmafx_exact_cuda_tests PRIVATE GTest::gtest_main CUDA::cudart)
    add_test(NAME exact_cuda COMMAND vmafx_exact_cuda_tests)
  endif()
endfunction()
