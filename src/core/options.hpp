// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace vmafx {

enum class OptionType { kBool, kInt, kDouble, kString };

// One entry of an extractor's option table. Values are range-checked against
// [min, max] as libvmaf does. An option flagged feature_param changes the
// names of the features it affects when set to a non-default value
// (libvmaf appends "_<alias or name>_<value>", e.g. integer_vif_scale0_egl_1).
struct OptionSpec {
  std::string_view name;
  std::string_view alias;  // may be empty
  std::string_view help;
  OptionType type = OptionType::kDouble;
  double default_num = 0;          // bool (0/1), int and double defaults
  std::string_view default_str{};  // string default
  double min = 0;
  double max = 0;
  bool feature_param = false;
};

using OptionValue = std::variant<bool, int, double, std::string>;

// Parsed and validated values for one option table. Every option of the table
// has a value (its default when not given).
class OptionSet {
 public:
  OptionSet() = default;
  // `given` maps option name (or alias) to its text. Throws Error naming
  // `owner` and the option on an unknown key, a malformed value or a value out
  // of range.
  OptionSet(std::span<const OptionSpec> table, const std::map<std::string, std::string>& given, std::string_view owner);

  bool get_bool(std::string_view name) const;
  int get_int(std::string_view name) const;
  double get_double(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;

  // libvmaf's feature-name suffix for this option set: for each non-default
  // feature_param option, in alphabetical order of option name,
  // "_<alias|name>" (bool) or "_<alias|name>_<value>" (value as %d / %g / %s).
  const std::string& name_suffix() const { return suffix_; }

  // Canonical text of the non-default values ("name=value:..." sorted). Two
  // requests of an extractor share an instance when their name_suffix()es
  // match, as in libvmaf, whatever their keys.
  const std::string& key() const { return key_; }

 private:
  const OptionValue& find(std::string_view name) const;
  std::map<std::string, OptionValue, std::less<>> values_;
  std::string suffix_;
  std::string key_;
};

// libvmaf's normalisation of numeric option text ("%g" of the float it reads
// as); other text is returned unchanged.
std::string normalize_numeric(const std::string& text);

// Splits "a=1:b=true" into a map, numeric values normalised as libvmaf does; throws Error naming `owner` on a malformed
// item.
std::map<std::string, std::string> parse_option_string(std::string_view text, std::string_view owner);

}  // namespace vmafx
