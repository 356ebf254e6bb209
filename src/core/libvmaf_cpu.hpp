// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Which libvmaf vmaf-exact reproduces where libvmaf's answer depends on the
// processor it runs on: float_adm's division (src/exact/fadm_rcp.h) is the
// RCPSS estimate of Intel or of AMD processors on x86 builds, and exact on
// builds without SSE2 (aarch64, ppc64).
#include <string_view>

namespace vmafx {

// The values are the kernels' VMAFX_LIBVMAF_CPU_* (exact/fadm_rcp.h).
enum class LibvmafCpu { kIntel = 0, kAmd = 1, kGeneric = 2 };

std::string_view libvmaf_cpu_name(LibvmafCpu c);  // "intel", "amd", "generic"

// The libvmaf of this machine: on x86, the processor's vendor (cpuid):
// intel for GenuineIntel, amd for AuthenticAMD and HygonGenuine (Zen cores),
// intel for any other x86 vendor (unmeasured); generic on other architectures.
LibvmafCpu host_libvmaf_cpu();

// "auto" (host_libvmaf_cpu()), "intel", "amd" or "generic". Anything else
// throws Error: "<what> 'TEXT': expected auto, intel, amd or generic".
LibvmafCpu parse_libvmaf_cpu(std::string_view text, std::string_view what);

}  // namespace vmafx
