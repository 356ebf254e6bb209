// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The CPU SIMD switch, one for every SIMD file (feature/<f>_simd.cpp).
//
// Each SIMD file compiles its row functions once per Highway target
// (foreach_target) and dispatches at run time (HWY_DYNAMIC_DISPATCH); all of
// them compile the same target list, so the target chosen here is the one
// each of them runs. The scalar loops in feature/<f>.cpp are the reference;
// the SIMD rows compute the same integers and floats, and tests compare them
// on every target this CPU runs.
//
// Without Highway (VMAFX_HAVE_HWY undefined) enabled() is false and targets()
// is empty: every feature runs its scalar loops.
#include <cstdint>
#include <vector>

namespace vmafx::simd {

// True when Highway was built in, the CPU has a SIMD target (SSSE3 or
// better) and VMAFX_SIMD is not "off" (see core/env.hpp), unless
// set_enabled() overrides it.
bool enabled();
// Overrides enabled() for this process (tests compare both paths in one
// process; "on" stays false without a SIMD target); reset_enabled() drops it.
void set_enabled(bool on);
void reset_enabled();

// The target dispatch chooses now ("AVX3", "AVX2", ..., "none").
const char* target_name();
// The SIMD targets compiled in that this CPU runs, best first.
std::vector<std::int64_t> targets();
const char* target_name(std::int64_t target);
// Pins dispatch to one of targets() (tests, the twin harness); 0 restores
// the normal choice.
void force_target(std::int64_t target);

}  // namespace vmafx::simd
