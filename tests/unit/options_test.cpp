// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/options.hpp"

namespace vmafx {
namespace {

constexpr OptionSpec kTable[] = {
    {.name = "vif_enhn_gain_limit",
     .alias = "egl",
     .type = OptionType::kDouble,
     .default_num = 100.0,
     .min = 1.0,
     .max = 100.0,
     .feature_param = true},
    {.name = "debug", .type = OptionType::kBool, .default_num = 0, .feature_param = false},
    {.name = "count",
     .alias = "n",
     .type = OptionType::kInt,
     .default_num = 3,
     .min = 0,
     .max = 10,
     .feature_param = true},
    {.name = "flag", .type = OptionType::kBool, .default_num = 0, .feature_param = true},
};

TEST(Options, DefaultsAndNoSuffix) {
  OptionSet s(kTable, {}, "vif");
  EXPECT_EQ(s.get_double("vif_enhn_gain_limit"), 100.0);
  EXPECT_FALSE(s.get_bool("debug"));
  EXPECT_EQ(s.get_int("count"), 3);
  EXPECT_EQ(s.name_suffix(), "");
  EXPECT_EQ(s.key(), "");
}

TEST(Options, SuffixIsAlphabeticalAndUsesAliasAndPercentG) {
  OptionSet s(kTable, {{"vif_enhn_gain_limit", "1.0"}, {"count", "7"}, {"flag", "true"}, {"debug", "true"}}, "vif");
  EXPECT_EQ(s.get_double("vif_enhn_gain_limit"), 1.0);
  // count < flag < vif_enhn_gain_limit; debug is not a feature parameter.
  EXPECT_EQ(s.name_suffix(), "_n_7_flag_egl_1");
  EXPECT_EQ(s.key(), "count=7:debug=true:flag=true:vif_enhn_gain_limit=1");
}

TEST(Options, FullNameSetsAndShortNameLabels) {
  OptionSet s(kTable, {{"vif_enhn_gain_limit", "1.5"}}, "vif");
  EXPECT_EQ(s.get_double("vif_enhn_gain_limit"), 1.5);
  EXPECT_EQ(s.name_suffix(), "_egl_1.5");
}

TEST(Options, ExplicitDefaultGivesNoSuffix) {
  OptionSet s(kTable, {{"vif_enhn_gain_limit", "100"}}, "vif");
  EXPECT_EQ(s.name_suffix(), "");
}

TEST(Options, Errors) {
  auto msg = [](std::map<std::string, std::string> given) {
    try {
      OptionSet s(kTable, given, "vif");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(msg({{"nope", "1"}}), "vif: unknown option 'nope' (known: vif_enhn_gain_limit, debug, count, flag)");
  EXPECT_EQ(msg({{"vif_enhn_gain_limit", "0.5"}}), "vif: option vif_enhn_gain_limit=0.5: out of range [1, 100]");
  EXPECT_EQ(msg({{"vif_enhn_gain_limit", "abc"}}), "vif: option vif_enhn_gain_limit=abc: not a number");
  // libvmaf ignores a short name given as a key (it would score with the default).
  EXPECT_EQ(msg({{"egl", "1.5"}}),
            "vif: option 'egl' is the short name that output names carry; set it as vif_enhn_gain_limit (libvmaf "
            "ignores 'egl')");
  EXPECT_EQ(msg({{"n", "2"}}),
            "vif: option 'n' is the short name that output names carry; set it as count (libvmaf ignores 'n')");
  EXPECT_EQ(msg({{"count", "1.5"}}), "vif: option count=1.5: not an integer");
  EXPECT_EQ(msg({{"debug", "yes"}}), "vif: option debug=yes: expected true or false");
}

TEST(Options, ParseOptionString) {
  auto m = parse_option_string("a=1:b=true", "x");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m["a"], "1");
  EXPECT_EQ(m["b"], "true");
  EXPECT_TRUE(parse_option_string("", "x").empty());
  // Numbers are normalised as libvmaf's feature dictionary does.
  auto n = parse_option_string("a=1.0:b=1.6666667:c=0.50:d=true:e=1e3:f=12abc", "x");
  EXPECT_EQ(n["a"], "1");
  EXPECT_EQ(n["b"], "1.66667");
  EXPECT_EQ(n["c"], "0.5");
  EXPECT_EQ(n["d"], "true");
  EXPECT_EQ(n["e"], "1000");
  EXPECT_EQ(n["f"], "12abc");
  EXPECT_THROW(parse_option_string("a", "x"), Error);
  EXPECT_THROW(parse_option_string("a=", "x"), Error);
  EXPECT_THROW(parse_option_string("=1", "x"), Error);
}

}  // namespace
}  // namespace vmafx
