// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The options integer motion and float_motion share (same names, aliases,
// ranges and defaults as libvmaf's two extractors): one definition each, and
// the two shapes their feature parameters take.
#include "core/feature.hpp"

namespace vmafx::motion_options {

// A feature parameter that is a flag, off by default.
constexpr OptionSpec flag(std::string_view name, std::string_view alias, std::string_view help) {
  return {
      .name = name, .alias = alias, .help = help, .type = OptionType::kBool, .default_num = 0, .feature_param = true};
}

// A feature parameter that is a number in [min, max].
constexpr OptionSpec number(std::string_view name, std::string_view alias, std::string_view help, double def,
                            double min, double max, OptionType type = OptionType::kDouble) {
  return {.name = name,
          .alias = alias,
          .help = help,
          .type = type,
          .default_num = def,
          .min = min,
          .max = max,
          .feature_param = true};
}

inline constexpr OptionSpec kForceZero = flag("motion_force_zero", "force_0", "write 0 for every motion score");
inline constexpr OptionSpec kFpsWeight =
    number("motion_fps_weight", "mfw", "multiplier for the frame-rate correction", 1.0, 0.0, 5.0);
inline constexpr OptionSpec kBlendFactor = number(
    "motion_blend_factor", "mbf", "weight of the raw score when blending with min(score, offset)", 1.0, 0.0, 1.0);
inline constexpr OptionSpec kBlendOffset =
    number("motion_blend_offset", "mbo", "score above which blending applies", 40.0, 0.0, 1000.0);
inline constexpr OptionSpec kMaxVal =
    number("motion_max_val", "mmxv", "upper clip for motion scores", 10000.0, 0.0, 10000.0);

}  // namespace vmafx::motion_options
