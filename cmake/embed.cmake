# SPDX-License-Identifier: BSD-3-Clause
# vmafx_embed_files(OUT_CPP NAMESPACE_VAR FILES...)
# Generates a C++ source that holds each file's bytes in a constexpr array and
# a lookup table {name, bytes}. Used for the built-in models and OpenCL kernels.
function(vmafx_embed_files out_cpp symbol)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DSYMBOL=${symbol} "-DFILES=${files}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_script.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed_script.cmake
    COMMENT "Embedding ${symbol}"
    VERBATIM)
endfunction()
