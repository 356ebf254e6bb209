// SPDX-License-Identifier: BSD-3-Clause
// The ladder summary (vmaf with several -d) and the pooled statistics it shows.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "vmaf_exact/report.hpp"

namespace vmafx {

std::optional<ScoreStats> score_stats(const FeatureCollector::Series& s, unsigned frames, unsigned subsample) {
  ScoreStats r;
  const auto mean = pool(s, PoolMethod::kMean, frames, subsample);
  const auto hmean = pool(s, PoolMethod::kHarmonicMean, frames, subsample);
  const auto min = pool(s, PoolMethod::kMin, frames, subsample);
  if (!mean || !hmean || !min) return std::nullopt;
  r.mean = *mean;
  r.harmonic_mean = *hmean;
  r.min = *min;
  std::vector<double> v;
  const unsigned step = subsample ? subsample : 1;
  for (unsigned i = 0; i < frames; i += step) v.push_back(s.value[i]);
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const std::size_t k = (v.size() + 99) / 100;
  double sum = 0;
  for (std::size_t i = 0; i < k; ++i) sum += v[i];
  r.low1 = sum / double(k);
  return r;
}

namespace {

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      o += buf;
    } else {
      o += c;
    }
  }
  return o + "\"";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (const char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

std::string number(const Precision& p, double v) { return std::isfinite(v) ? p.format(v) : std::string("null"); }

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Every model name of the rows, in order of first appearance.
std::vector<std::string> model_names(const std::vector<LadderRow>& rows) {
  std::vector<std::string> names;
  for (const LadderRow& r : rows)
    for (const auto& [name, st] : r.models)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

const ScoreStats* stats_of(const LadderRow& r, const std::string& name) {
  for (const auto& [n, st] : r.models)
    if (n == name) return &st;
  return nullptr;
}

constexpr const char* kStatNames[] = {"mean", "harmonic_mean", "min", "1pct_low"};
double stat(const ScoreStats& s, int i) {
  switch (i) {
    case 0: return s.mean;
    case 1: return s.harmonic_mean;
    case 2: return s.min;
    default: return s.low1;
  }
}

}  // namespace

std::string summary_text(SummaryFormat fmt, const std::string& reference, const std::vector<LadderRow>& rows,
                         const Precision& precision) {
  const std::vector<std::string> models = model_names(rows);
  std::string o;
  if (fmt == SummaryFormat::kJson) {
    o += "{\n  \"reference\": " + json_string(reference) + ",\n  \"renditions\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const LadderRow& r = rows[i];
      o += i ? ",\n    {" : "\n    {";
      o += "\"path\": " + json_string(r.path) + ", \"format\": " + json_string(r.format) +
           ", \"width\": " + std::to_string(r.width) + ", \"height\": " + std::to_string(r.height) +
           ", \"frames\": " + std::to_string(r.frames) + ", \"offset\": " + std::to_string(r.offset);
      if (!r.error.empty()) o += ", \"error\": " + json_string(r.error);
      o += ", \"models\": {";
      for (std::size_t m = 0; m < r.models.size(); ++m) {
        const auto& [name, st] = r.models[m];
        o += (m ? ", " : "") + json_string(name) + ": {";
        for (int k = 0; k < 4; ++k)
          o += std::string(k ? ", " : "") + "\"" + kStatNames[k] + "\": " + number(precision, stat(st, k));
        o += "}";
      }
      o += "}}";
    }
    o += rows.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return o;
  }
  // A table: header, then one row per rendition.
  std::vector<std::string> head = {"rendition", "size", "frames", "offset"};
  for (const std::string& m : models)
    for (const char* s : kStatNames) head.push_back(m + "_" + s);
  std::vector<std::vector<std::string>> table;
  for (const LadderRow& r : rows) {
    std::vector<std::string> row = {fmt == SummaryFormat::kCsv ? r.path : base_name(r.path),
                                    std::to_string(r.width) + "x" + std::to_string(r.height), std::to_string(r.frames),
                                    std::to_string(r.offset)};
    for (const std::string& m : models) {
      const ScoreStats* st = r.error.empty() ? stats_of(r, m) : nullptr;
      for (int k = 0; k < 4; ++k) row.push_back(st ? number(precision, stat(*st, k)) : "");
    }
    if (fmt == SummaryFormat::kCsv) row.push_back(r.error);
    table.push_back(std::move(row));
  }
  if (fmt == SummaryFormat::kCsv) {
    head.push_back("error");
    auto csv_line = [&](const std::vector<std::string>& cells) {
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (c) o += ',';
        o += csv_field(cells[c]);
      }
      o += '\n';
    };
    csv_line(head);
    for (const auto& row : table) csv_line(row);
    return o;
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) width[c] = head[c].size();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (rows[i].error.empty())
      for (std::size_t c = 0; c < head.size(); ++c) width[c] = std::max(width[c], table[i][c].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      l += cells[c];
      if (c + 1 < cells.size()) l += std::string(width[c] - std::min(width[c], cells[c].size()) + 2, ' ');
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  o += line(head);
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (rows[i].error.empty()) {
      o += line(table[i]);
    } else {
      o += line({table[i][0], table[i][1], table[i][2], table[i][3]});
      o.pop_back();
      o += "  failed: " + rows[i].error + "\n";
    }
  }
  return o;
}

}  // namespace vmafx
