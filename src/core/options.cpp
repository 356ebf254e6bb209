// SPDX-License-Identifier: BSD-3-Clause
#include "core/options.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "core/error.hpp"

namespace vmafx {

namespace {

std::string format_value(const OptionValue& v) {
  char buf[64];
  switch (v.index()) {
    case 0: return std::get<bool>(v) ? "true" : "false";
    case 1: std::snprintf(buf, sizeof buf, "%d", std::get<int>(v)); return buf;
    case 2: std::snprintf(buf, sizeof buf, "%g", std::get<double>(v)); return buf;
    default: return std::get<std::string>(v);
  }
}

OptionValue default_of(const OptionSpec& s) {
  switch (s.type) {
    case OptionType::kBool: return s.default_num != 0;
    case OptionType::kInt: return int(s.default_num);
    case OptionType::kDouble: return s.default_num;
    case OptionType::kString: return std::string(s.default_str);
  }
  return 0.0;
}

// Strict versions of libvmaf's parsers: the whole text must be a number.
OptionValue parse_value(const OptionSpec& s, const std::string& text, std::string_view owner) {
  auto bad = [&](const char* why) -> Error {
    return Error(std::string(owner) + ": option " + std::string(s.name) + "=" + text + ": " + why);
  };
  switch (s.type) {
    case OptionType::kBool:
      if (text == "true") return true;
      if (text == "false") return false;
      throw bad("expected true or false");
    case OptionType::kInt: {
      char* end = nullptr;
      errno = 0;
      long v = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end || errno) throw bad("not an integer");
      if (double(v) < s.min || double(v) > s.max)
        throw bad(("out of range [" + format_value(s.min) + ", " + format_value(s.max) + "]").c_str());
      return int(v);
    }
    case OptionType::kDouble: {
      char* end = nullptr;
      double v = std::strtod(text.c_str(), &end);
      if (text.empty() || *end || v != v) throw bad("not a number");
      if (v < s.min || v > s.max)
        throw bad(("out of range [" + format_value(s.min) + ", " + format_value(s.max) + "]").c_str());
      return v;
    }
    case OptionType::kString: return text;
  }
  throw bad("unsupported option type");
}

}  // namespace

OptionSet::OptionSet(std::span<const OptionSpec> table, const std::map<std::string, std::string>& given,
                     std::string_view owner) {
  for (const OptionSpec& s : table) values_.emplace(std::string(s.name), default_of(s));
  for (const auto& [key, text] : given) {
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : table) {
      if (key == s.name) spec = &s;
      // libvmaf reads options by full name only and ignores any other key:
      // the short name would score with the default there.
      if (!s.alias.empty() && key == s.alias)
        throw Error(std::string(owner) + ": option '" + key +
                    "' is the short name that output names carry; set it as " + std::string(s.name) +
                    " (libvmaf ignores '" + key + "')");
    }
    if (!spec) {
      std::string known;
      for (const OptionSpec& s : table) known += (known.empty() ? "" : ", ") + std::string(s.name);
      throw Error(std::string(owner) + ": unknown option '" + key + "'" +
                  (known.empty() ? " (it takes no options)" : " (known: " + known + ")"));
    }
    values_[std::string(spec->name)] = parse_value(*spec, text, owner);
  }
  // Suffix and key, in alphabetical order of option name (values_ is sorted).
  for (const auto& [name, value] : values_) {
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : table)
      if (s.name == name) spec = &s;
    if (value == default_of(*spec)) continue;
    key_ += (key_.empty() ? "" : ":") + name + "=" + format_value(value);
    if (!spec->feature_param) continue;
    const std::string_view label = spec->alias.empty() ? spec->name : spec->alias;
    suffix_ += "_" + std::string(label);
    if (spec->type != OptionType::kBool) suffix_ += "_" + format_value(value);
  }
}

const OptionValue& OptionSet::find(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("no option " + std::string(name));
  return it->second;
}
bool OptionSet::get_bool(std::string_view n) const { return std::get<bool>(find(n)); }
int OptionSet::get_int(std::string_view n) const { return std::get<int>(find(n)); }
double OptionSet::get_double(std::string_view n) const { return std::get<double>(find(n)); }
const std::string& OptionSet::get_string(std::string_view n) const { return std::get<std::string>(find(n)); }

std::string normalize_numeric(const std::string& text) {
  // libvmaf's feature dictionary: a value that reads as one float (and nothing
  // else) is stored as "%g" of that float, so "1.0" -> "1" and "1.6666667" ->
  // "1.66667"; the extractor then parses that text.
  float f = 0;
  char c = 0;
  if (std::sscanf(text.c_str(), "%f %c", &f, &c) != 1) return text;
  char* end = nullptr;
  const double d = std::strtof(text.c_str(), &end);
  if (d == 0 && end == text.c_str()) return text;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

std::map<std::string, std::string> parse_option_string(std::string_view text, std::string_view owner) {
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos <= text.size() && !text.empty()) {
    std::size_t end = text.find(':', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(pos, end - pos);
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw Error(std::string(owner) + ": malformed option '" + std::string(item) + "' (expected key=value)");
    out[std::string(item.substr(0, eq))] = normalize_numeric(std::string(item.substr(eq + 1)));
    pos = end + 1;
    if (end == text.size()) break;
  }
  return out;
}

}  // namespace vmafx
