# SPDX-License-Identifier: BSD-3-Clause
# libvmaf's C API (src/capi): libvmaf.so.3 (SONAME as libvmaf 3.2.0), libvmaf.a,
# include/libvmaf/*.h and libvmaf.pc. Included by src/CMakeLists.txt when
# VMAFX_CAPI is ON. Both libraries carry the whole engine (vmafx is built
# position-independent for them); the shared one exports vmaf_* only.
set_target_properties(vmafx PROPERTIES POSITION_INDEPENDENT_CODE ON)
# PIC without its cost: the engine's own calls stay inlinable (nothing
# interposes them: libvmaf.so exports vmaf_* only, the CLI links statically).
target_compile_options(vmafx PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-fno-semantic-interposition>)

file(GLOB VMAFX_CAPI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/capi/*.cpp)
if(NOT VMAFX_WITH_CUDA OR NOT VMAFX_CUDA_SOURCES)
  list(FILTER VMAFX_CAPI_SOURCES EXCLUDE REGEX "/cuda\\.cpp$")
endif()
set(VMAFX_LIBVMAF_API_MAJOR 3)
set(VMAFX_LIBVMAF_API_MINOR 2)
set(VMAFX_LIBVMAF_API_PATCH 0)
configure_file(${PROJECT_SOURCE_DIR}/include/libvmaf/version.h.in
               ${PROJECT_BINARY_DIR}/include/libvmaf/version.h @ONLY)

add_library(vmafx_capi OBJECT ${VMAFX_CAPI_SOURCES})
set_target_properties(vmafx_capi PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_link_libraries(vmafx_capi PRIVATE vmafx nlohmann_json::nlohmann_json)
target_include_directories(vmafx_capi PRIVATE ${PROJECT_SOURCE_DIR}/src)
if(VMAFX_WITH_CUDA AND VMAFX_CUDA_SOURCES)
  target_link_libraries(vmafx_capi PRIVATE CUDA::cudart_static)
endif()

add_library(libvmaf SHARED $<TARGET_OBJECTS:vmafx_capi>)
set_target_properties(libvmaf PROPERTIES OUTPUT_NAME vmaf VERSION 3.2.0 SOVERSION 3
  LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/libvmaf.map)
target_link_options(libvmaf PRIVATE -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/libvmaf.map
  -Wl,--no-undefined)
target_link_libraries(libvmaf PRIVATE vmafx)
target_include_directories(libvmaf INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>)

add_library(libvmaf_static STATIC $<TARGET_OBJECTS:vmafx_capi> $<TARGET_OBJECTS:vmafx>)
set_target_properties(libvmaf_static PROPERTIES OUTPUT_NAME vmaf)

# libvmaf.pc: relocatable (prefix from its own place), the C++ runtime and the
# optional dependencies in Libs.private for static linking.
set(VMAFX_PC_PRIVATE "-lstdc++ -lm -lpthread")
if(hwy_FOUND)
  string(APPEND VMAFX_PC_PRIVATE " -lhwy")
endif()
if(VMAFX_WITH_CUDA AND VMAFX_CUDA_SOURCES)
  string(APPEND VMAFX_PC_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt")
endif()
if(VMAFX_WITH_FFMPEG_DLOPEN)  # FFmpeg loaded on first use (io/ffmpeg_dl.cpp)
  string(APPEND VMAFX_PC_PRIVATE " -ldl")
else()
  if(VMAFX_WITH_LIBAV)  # the compressed-input reader (io/libav_reader.cpp)
    string(APPEND VMAFX_PC_PRIVATE " -lavformat -lavcodec -lavutil")
  endif()
  if(VMAFX_WITH_SWSCALE)  # renditions of another format (io/scale.cpp)
    string(APPEND VMAFX_PC_PRIVATE " -lswscale -lavutil")
  endif()
endif()
if(VMAFX_WITH_OPENCL AND VMAFX_OPENCL_SOURCES)
  string(APPEND VMAFX_PC_PRIVATE " -lOpenCL")
endif()
string(REGEX REPLACE "[^/]+" ".." VMAFX_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(${PROJECT_SOURCE_DIR}/cmake/libvmaf.pc.in ${PROJECT_BINARY_DIR}/libvmaf.pc @ONLY)

install(TARGETS libvmaf libvmaf_static LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
set(VMAFX_CAPI_HEADERS libvmaf.h model.h picture.h feature.h)
if(VMAFX_WITH_CUDA AND VMAFX_CUDA_SOURCES)
  list(APPEND VMAFX_CAPI_HEADERS libvmaf_cuda.h)
endif()
list(TRANSFORM VMAFX_CAPI_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/include/libvmaf/)
install(FILES ${VMAFX_CAPI_HEADERS} ${PROJECT_BINARY_DIR}/include/libvmaf/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/libvmaf)
install(FILES ${PROJECT_BINARY_DIR}/libvmaf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
