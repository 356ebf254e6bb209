// SPDX-License-Identifier: BSD-3-Clause
#include "core/libvmaf_cpu.hpp"

#include <cstring>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "core/error.hpp"

namespace vmafx {

std::string_view libvmaf_cpu_name(LibvmafCpu c) {
  switch (c) {
    case LibvmafCpu::kIntel: return "intel";
    case LibvmafCpu::kAmd: return "amd";
    case LibvmafCpu::kGeneric: break;
  }
  return "generic";
}

LibvmafCpu host_libvmaf_cpu() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  char vendor[13] = {};
  if (__get_cpuid(0, &a, &b, &c, &d)) {
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
  }
  const std::string_view v(vendor);
  return v == "AuthenticAMD" || v == "HygonGenuine" ? LibvmafCpu::kAmd : LibvmafCpu::kIntel;
#else
  return LibvmafCpu::kGeneric;
#endif
}

LibvmafCpu parse_libvmaf_cpu(std::string_view text, std::string_view what) {
  if (text == "auto") return host_libvmaf_cpu();
  if (text == "intel") return LibvmafCpu::kIntel;
  if (text == "amd") return LibvmafCpu::kAmd;
  if (text == "generic") return LibvmafCpu::kGeneric;
  throw Error(std::string(what) + " '" + std::string(text) + "': expected auto, intel, amd or generic");
}

}  // namespace vmafx
