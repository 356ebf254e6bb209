// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The options integer motion and float_motion share (same names, aliases,
// ranges and defaults as libvmaf's two extractors): one definition each.
#include "core/feature.hpp"

namespace vmafx::motion_options {

inline constexpr OptionSpec kForceZero{.name = "motion_force_zero",
                                       .alias = "force_0",
                                       .help = "write 0 for every motion score",
                                       .type = OptionType::kBool,
                                       .default_num = 0,
                                       .feature_param = true};
inline constexpr OptionSpec kFpsWeight{.name = "motion_fps_weight",
                                       .alias = "mfw",
                                       .help = "multiplier for the frame-rate correction",
                                       .type = OptionType::kDouble,
                                       .default_num = 1.0,
                                       .min = 0.0,
                                       .max = 5.0,
                                       .feature_param = true};
inline constexpr OptionSpec kBlendFactor{.name = "motion_blend_factor",
                                         .alias = "mbf",
                                         .help = "weight of the raw score when blending with min(score, offset)",
                                         .type = OptionType::kDouble,
                                         .default_num = 1.0,
                                         .min = 0.0,
                                         .max = 1.0,
                                         .feature_param = true};
inline constexpr OptionSpec kBlendOffset{.name = "motion_blend_offset",
                                         .alias = "mbo",
                                         .help = "score above which blending applies",
                                         .type = OptionType::kDouble,
                                         .default_num = 40.0,
                                         .min = 0.0,
                                         .max = 1000.0,
                                         .feature_param = true};
inline constexpr OptionSpec kMaxVal{.name = "motion_max_val",
                                    .alias = "mmxv",
                                    .help = "upper clip for motion scores",
                                    .type = OptionType::kDouble,
                                    .default_num = 10000.0,
                                    .min = 0.0,
                                    .max = 10000.0,
                                    .feature_param = true};

}  // namespace vmafx::motion_options
