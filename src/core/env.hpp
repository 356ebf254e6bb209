// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Every environment variable vmaf-exact reads, in one place (each is read
// once, on first use). README.md lists them; a test checks that it does.
// They tune or diagnose; none changes a score, except VMAFX_LIBVMAF_CPU,
// which picks the libvmaf that libvmaf.so's float_adm equals.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace vmafx::env {

// VMAFX_SIMD=off: the scalar reference loops everywhere (no CPU SIMD; libswscale's
// too, through av_force_cpu_flags(0)).
bool simd_allowed();
// VMAFX_STATS=1: the CLI prints where the time went (readers, extractors,
// device twins, idle workers) on stderr.
bool stats();
// VMAFX_CUDA_EXACT=int: the CUDA VIF twin forms its gain terms with the
// integer path (as the OpenCL twin does) instead of the device's fp64.
bool cuda_exact_int();
// VMAFX_CUDA_DISABLE=vif,adm: no CUDA twin for the listed extractors (they
// run on the CPU with --backend auto); for bisecting a device problem.
bool cuda_disabled(std::string_view extractor);
// VMAFX_HWDEC_HOST=1: frames NVDEC decodes go through host memory even when
// every extractor runs on the CUDA backend (measures what keeping them on
// the GPU saves).
bool hwdec_host();
// VMAFX_OPENCL_PAGEABLE=1: plain heap pictures instead of page-locked ones.
bool opencl_pageable();
// VMAFX_OPENCL_GROUP_CAP=N: behave as if kernels took at most N work items
// per group (tests of the work-group fallbacks); 0: no cap.
std::size_t opencl_group_cap();
// VMAFX_READERS=N: threads reading each Y4M or raw YUV file with positional
// reads (FrameSource); 0 when unset (FrameSource chooses).
unsigned readers();
// VMAFX_DECODE_LOOKAHEAD=N: packets after a keyframe that decoding in
// segments checks before cutting there; -1 when unset (the reader's own).
int decode_lookahead();
// VMAFX_DECODE_STREAMS=own: with --hwdec cuda --decode-segments, each
// decoder maps and copies its frames on a non-blocking CUDA stream of its
// own (io/decoder_stream.hpp) instead of the legacy default stream (shared,
// the default), so that imports wait for no other decoder's work.
bool decode_streams_own();
// VMAFX_OPENCL_PROFILE=1: record every OpenCL command's device time (the
// OpenCL bench prints it).
bool opencl_profile();
// VMAFX_OPENCL_WAIT=callback: wait for OpenCL commands on a completion
// callback instead of in the driver's clWaitForEvents (driver, the default).
bool opencl_callback_wait();
// The OpenCL program-binary cache's directory (backend/opencl/program_cache.hpp):
// VMAFX_OPENCL_CACHE_DIR when set, else $XDG_CACHE_HOME/vmaf-exact/opencl
// (an absolute XDG_CACHE_HOME), else $HOME/.cache/vmaf-exact/opencl;
// "" (no cache) with VMAFX_OPENCL_CACHE=0 or when none of them is set.
std::string opencl_cache_dir();
// The same rule over given values (for tests): `cache` is VMAFX_OPENCL_CACHE,
// `dir` VMAFX_OPENCL_CACHE_DIR, `xdg` XDG_CACHE_HOME, `home` HOME.
std::string opencl_cache_dir(std::string_view cache, std::string_view dir, std::string_view xdg, std::string_view home);

// VMAFX_LIBVMAF_PRECISION=max (or 1..17): libvmaf.so's vmaf_write_output
// prints scores with %.17g (%.<N>g), as the CLI's --precision; 0 when unset
// (libvmaf's own rule).
int libvmaf_precision();

// VMAFX_LIBVMAF_CPU=auto|intel|amd|generic: the libvmaf whose float_adm
// division libvmaf.so (the C API) reproduces, as the CLI's --libvmaf-cpu;
// "auto" when unset.
std::string libvmaf_cpu();

struct Variable {
  std::string_view name;
  std::string_view what;
};
std::span<const Variable> all();

// Throws Error naming the variable when a value is not one it accepts
// (called once at start-up by the CLI, so a typo is not silently ignored).
void check();

}  // namespace vmafx::env
