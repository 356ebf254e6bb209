// SPDX-License-Identifier: BSD-3-Clause
// The CPU SIMD switch (core/simd.hpp). Compiled per Highway target like the
// SIMD files, so that Target() reports the target their dispatch picks.
#include "core/simd.hpp"

#include "core/env.hpp"

#if VMAFX_HAVE_HWY

#include <atomic>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vmafx::simd {
namespace HWY_NAMESPACE {
std::int64_t Target() { return HWY_TARGET; }
}  // namespace HWY_NAMESPACE
}  // namespace vmafx::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vmafx::simd {

HWY_EXPORT(Target);

namespace {
// -1: follow the environment; 0 / 1: set_enabled().
std::atomic<int> g_override{-1};
bool is_simd(std::int64_t target) { return target != HWY_SCALAR && target != HWY_EMU128; }
}  // namespace

bool enabled() {
  const int o = g_override.load(std::memory_order_relaxed);
  if (o == 0 || (o < 0 && !env::simd_allowed())) return false;
  return is_simd(HWY_DYNAMIC_DISPATCH(Target)());
}

void set_enabled(bool on) { g_override.store(on ? 1 : 0, std::memory_order_relaxed); }
void reset_enabled() { g_override.store(-1, std::memory_order_relaxed); }

const char* target_name() { return hwy::TargetName(HWY_DYNAMIC_DISPATCH(Target)()); }
const char* target_name(std::int64_t target) { return hwy::TargetName(target); }

std::vector<std::int64_t> targets() {
  std::vector<std::int64_t> out;
  for (const std::int64_t t : hwy::SupportedAndGeneratedTargets())
    if (is_simd(t)) out.push_back(t);
  return out;
}

void force_target(std::int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

}  // namespace vmafx::simd
#endif  // HWY_ONCE

#else  // !VMAFX_HAVE_HWY

namespace vmafx::simd {
bool enabled() { return false; }
void set_enabled(bool) {}
void reset_enabled() {}
const char* target_name() { return "none"; }
const char* target_name(std::int64_t) { return "none"; }
std::vector<std::int64_t> targets() { return {}; }
void force_target(std::int64_t) {}
}  // namespace vmafx::simd

#endif
