// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vmafx {

// Per-frame scores by output name, in the order each name was first written
// (libvmaf's feature collector order, which its writers follow).
class FeatureCollector {
 public:
  struct Series {
    std::string name;
    std::vector<double> value;
    std::vector<char> written;
    bool has(unsigned i) const { return i < written.size() && written[i]; }
  };

  // Throws Error if the value at `index` was already written.
  void append(std::string_view name, unsigned index, double value);
  const Series* find(std::string_view name) const;
  const std::vector<Series>& all() const { return series_; }
  // One past the highest index written by any series.
  unsigned capacity() const { return capacity_; }

  // Whole-clip metrics, in order of writing.
  void append_aggregate(std::string_view name, double value) { aggregate_.emplace_back(name, value); }
  const std::vector<std::pair<std::string, double>>& aggregate() const { return aggregate_; }

 private:
  std::vector<Series> series_;
  std::unordered_map<std::string, std::size_t> index_;
  unsigned capacity_ = 0;
  std::vector<std::pair<std::string, double>> aggregate_;
};

}  // namespace vmafx
