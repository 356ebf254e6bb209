// SPDX-License-Identifier: BSD-3-Clause
#include "core/env.hpp"

#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace vmafx::env {

namespace {

constexpr Variable kVariables[] = {
    {"VMAFX_SIMD", "off: the scalar reference loops everywhere (no CPU SIMD; libswscale's too)"},
    {"VMAFX_STATS", "1: the CLI prints where the time went on stderr"},
    {"VMAFX_CUDA_EXACT", "int: the CUDA VIF twin forms its gain terms in integers instead of fp64"},
    {"VMAFX_CUDA_DISABLE", "vif,adm,...: no CUDA twin for these extractors (for bisecting)"},
    {"VMAFX_HWDEC_HOST", "1: NVDEC frames go through host memory even with every extractor on CUDA"},
    {"VMAFX_OPENCL_PAGEABLE", "1: heap pictures instead of page-locked ones for OpenCL"},
    {"VMAFX_OPENCL_GROUP_CAP", "N: at most N work items per OpenCL work group (tests)"},
    {"VMAFX_READERS", "1..64: threads reading each Y4M or raw YUV file (default 1 on the CPU, 4 with a GPU backend)"},
    {"VMAFX_DECODE_LOOKAHEAD",
     "0..1024: packets after a keyframe checked before --decode-segments cuts there (default 32; small values "
     "test the checks)"},
    {"VMAFX_DECODE_STREAMS",
     "own: each --decode-segments NVDEC decoder maps and copies frames on a CUDA stream of its own (default shared: "
     "CUDA's legacy default stream)"},
    {"VMAFX_OPENCL_PROFILE", "1: record each OpenCL command's device time (the OpenCL bench prints it)"},
    {"VMAFX_OPENCL_WAIT", "driver (default: clWaitForEvents) or callback: sleep on a completion callback instead"},
    {"VMAFX_OPENCL_CACHE", "0: build the OpenCL programs from source every run (no program-binary cache)"},
    {"VMAFX_OPENCL_CACHE_DIR",
     "path: the OpenCL program-binary cache (default $XDG_CACHE_HOME or ~/.cache, then vmaf-exact/opencl)"},
    {"VMAFX_LIBVMAF_CPU",
     "auto, intel, amd or generic: the libvmaf whose float_adm libvmaf.so equals (as the CLI's --libvmaf-cpu)"},
    {"VMAFX_LIBVMAF_PRECISION",
     "max or 1..17: libvmaf.so's vmaf_write_output prints %.<N>g (as the CLI's --precision)"},
};

std::string value(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool flag(const char* name) { return value(name) == "1"; }

}  // namespace

bool simd_allowed() {
  static const bool v = value("VMAFX_SIMD") != "off";
  return v;
}
bool stats() {
  static const bool v = flag("VMAFX_STATS");
  return v;
}
bool cuda_exact_int() {
  static const bool v = value("VMAFX_CUDA_EXACT") == "int";
  return v;
}
bool hwdec_host() {
  static const bool v = flag("VMAFX_HWDEC_HOST");
  return v;
}
bool cuda_disabled(std::string_view extractor) {
  static const std::string list = value("VMAFX_CUDA_DISABLE");
  std::string_view rest = list;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == extractor) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}
bool opencl_pageable() {
  static const bool v = flag("VMAFX_OPENCL_PAGEABLE");
  return v;
}
std::size_t opencl_group_cap() {
  static const std::size_t v = std::size_t(std::strtoul(value("VMAFX_OPENCL_GROUP_CAP").c_str(), nullptr, 10));
  return v;
}
unsigned readers() {
  static const unsigned v = unsigned(std::strtoul(value("VMAFX_READERS").c_str(), nullptr, 10));
  return v;
}
int decode_lookahead() {
  static const int v = value("VMAFX_DECODE_LOOKAHEAD").empty()
                           ? -1
                           : int(std::strtol(value("VMAFX_DECODE_LOOKAHEAD").c_str(), nullptr, 10));
  return v;
}
bool decode_streams_own() {
  static const bool v = value("VMAFX_DECODE_STREAMS") == "own";
  return v;
}
bool opencl_profile() {
  static const bool v = flag("VMAFX_OPENCL_PROFILE");
  return v;
}
bool opencl_callback_wait() {
  static const bool v = value("VMAFX_OPENCL_WAIT") == "callback";
  return v;
}

std::string opencl_cache_dir(std::string_view cache, std::string_view dir, std::string_view xdg,
                             std::string_view home) {
  if (cache == "0") return {};
  if (!dir.empty()) return std::string(dir);
  // The XDG base-directory rule: a relative XDG_CACHE_HOME is ignored.
  if (!xdg.empty() && xdg.front() == '/') return std::string(xdg) + "/vmaf-exact/opencl";
  if (!home.empty()) return std::string(home) + "/.cache/vmaf-exact/opencl";
  return {};
}
std::string opencl_cache_dir() {
  static const std::string v = opencl_cache_dir(value("VMAFX_OPENCL_CACHE"), value("VMAFX_OPENCL_CACHE_DIR"),
                                                value("XDG_CACHE_HOME"), value("HOME"));
  return v;
}

namespace {
// "max" or 1..17 as digits; 0 for anything else.
int parse_precision(const std::string& s) {
  if (s == "max") return 17;
  if (s.empty() || s.size() > 2 || s.find_first_not_of("0123456789") != std::string::npos) return 0;
  const int n = std::stoi(s);
  return n >= 1 && n <= 17 ? n : 0;
}
}  // namespace

int libvmaf_precision() {
  static const int v = parse_precision(value("VMAFX_LIBVMAF_PRECISION"));
  return v;
}

std::string libvmaf_cpu() {
  static const std::string v = value("VMAFX_LIBVMAF_CPU");
  return v.empty() ? "auto" : v;
}

std::span<const Variable> all() { return kVariables; }

void check() {
  auto one_of = [](const char* name, std::initializer_list<std::string_view> ok) {
    const std::string v = value(name);
    if (v.empty()) return;
    for (std::string_view o : ok)
      if (v == o) return;
    std::string list;
    for (std::string_view o : ok) list += (list.empty() ? "" : ", ") + std::string(o);
    throw Error(std::string(name) + "=" + v + ": expected " + list);
  };
  one_of("VMAFX_SIMD", {"on", "off"});
  one_of("VMAFX_STATS", {"0", "1"});
  one_of("VMAFX_CUDA_EXACT", {"int", "fp64"});
  one_of("VMAFX_OPENCL_PAGEABLE", {"0", "1"});
  one_of("VMAFX_HWDEC_HOST", {"0", "1"});
  one_of("VMAFX_OPENCL_PROFILE", {"0", "1"});
  one_of("VMAFX_DECODE_STREAMS", {"shared", "own"});
  one_of("VMAFX_OPENCL_WAIT", {"driver", "callback"});
  one_of("VMAFX_OPENCL_CACHE", {"0", "1"});
  one_of("VMAFX_LIBVMAF_CPU", {"auto", "intel", "amd", "generic"});
  const std::string prec = value("VMAFX_LIBVMAF_PRECISION");
  if (!prec.empty() && parse_precision(prec) == 0)
    throw Error("VMAFX_LIBVMAF_PRECISION=" + prec + ": expected max or 1 to 17");
  const std::string cap = value("VMAFX_OPENCL_GROUP_CAP");
  if (!cap.empty() && cap.find_first_not_of("0123456789") != std::string::npos)
    throw Error("VMAFX_OPENCL_GROUP_CAP=" + cap + ": expected a number of work items");
  const std::string rd = value("VMAFX_READERS");
  if (!rd.empty() && (rd.size() > 2 || rd.find_first_not_of("0123456789") != std::string::npos || std::stoul(rd) < 1 ||
                      std::stoul(rd) > 64))
    throw Error("VMAFX_READERS=" + rd + ": expected 1 to 64 threads per file");
  const std::string la = value("VMAFX_DECODE_LOOKAHEAD");
  if (!la.empty() &&
      (la.size() > 4 || la.find_first_not_of("0123456789") != std::string::npos || std::stoul(la) > 1024))
    throw Error("VMAFX_DECODE_LOOKAHEAD=" + la + ": expected 0 to 1024 packets");
}

}  // namespace vmafx::env
