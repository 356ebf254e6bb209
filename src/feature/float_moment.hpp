// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Float moments ("float_moment" extractor of libvmaf 3.2.0: float_moment.c,
// moment.c). Per frame, plain names: float_moment_ref1st, float_moment_dis1st,
// float_moment_ref2nd, float_moment_dis2nd: the mean and the mean square of
// the luma on the 8-bit scale (no offset), summed in double.
#include "core/feature.hpp"
#include "feature/float_common.hpp"

namespace vmafx {

extern const ExtractorDescriptor kFloatMomentExtractor;

namespace fmoment {

// Mean (order 1) or mean square (order 2) of a packed w x h float image.
double moment(const float* img, int w, int h, int order);

}  // namespace fmoment
}  // namespace vmafx
