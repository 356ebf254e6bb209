/* SPDX-License-Identifier: BSD-3-Clause */
/* The division of libvmaf 3.2.0's float ADM (adm_tools.c, adm_decouple_s:
 * k = DIVS(t, o + eps)), which gives three answers depending on where
 * libvmaf runs:
 *   intel, amd  every SSE2 build (x86): DIVS(n, d) = n * rcp_s(d), rcp_s the
 *               RCPSS estimate refined by one Newton step. RCPSS is an
 *               approximation whose bits differ between Intel and AMD
 *               processors; vmafx_fadm_rcp_intel / _amd hold them
 *               (fadm_rcp_intel.h, fadm_rcp_amd.h: generated from dumps of
 *               the instruction, the recipe is in their comments).
 *   generic     builds without SSE2 (aarch64, ppc64): DIVS(n, d) = n / d.
 * This file holds the estimate (integer work only, shared by the host, CUDA
 * and OpenCL C); each side forms the Newton step and the products with its
 * own float operations. */
#ifndef VMAFX_EXACT_FADM_RCP_H
#define VMAFX_EXACT_FADM_RCP_H

#include "compat.h"
#include "fadm_rcp_amd.h"
#include "fadm_rcp_intel.h"

/* The variants, as kernels receive them (vmafx::LibvmafCpu's values). */
#define VMAFX_LIBVMAF_CPU_INTEL 0
#define VMAFX_LIBVMAF_CPU_AMD 1
#define VMAFX_LIBVMAF_CPU_GENERIC 2

/* RCPSS(x) of an Intel (cpu == VMAFX_LIBVMAF_CPU_INTEL) or AMD (otherwise)
 * processor, as float bits, from x's bits u: the table entry of x's leading
 * mantissa bits with its exponent moved by x's; zero and subnormal inputs give
 * infinity of x's sign, +-inf gives +-0, a NaN stays NaN (quieted), a result
 * below the normal range is flushed to zero of x's sign. Matches the
 * instruction for all 2^32 inputs (tools/rcpss_probe). */
VMAFX_FN vmafx_u32 vmafx_fadm_rcp_estimate_bits(vmafx_u32 u, int cpu) {
  const vmafx_u32 sign = u & 0x80000000u;
  const vmafx_u32 e = (u >> 23) & 0xFFu;
  const vmafx_u32 m = u & 0x7FFFFFu;
  if (e == 0xFFu) return m ? (u | 0x400000u) : sign;
  if (e == 0u) return sign | 0x7F800000u;
  const vmafx_u32 t = cpu == VMAFX_LIBVMAF_CPU_INTEL ? vmafx_fadm_rcp_intel[m >> (23 - VMAFX_FADM_RCP_INTEL_BITS)]
                                                     : vmafx_fadm_rcp_amd[m >> (23 - VMAFX_FADM_RCP_AMD_BITS)];
  const int re = (int)((t >> 23) & 0xFFu) - ((int)e - 127);
  if (re <= 0) return sign;
  if (re >= 255) return sign | 0x7F800000u;
  return sign | ((vmafx_u32)re << 23) | (t & 0x7FFFFFu);
}

#endif
