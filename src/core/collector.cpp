// SPDX-License-Identifier: BSD-3-Clause
#include "vmaf_exact/collector.hpp"

#include "core/error.hpp"

namespace vmafx {

void FeatureCollector::append(std::string_view name, unsigned index, double value) {
  auto it = index_.find(std::string(name));
  if (it == index_.end()) {
    it = index_.emplace(std::string(name), series_.size()).first;
    series_.push_back({std::string(name), {}, {}});
  }
  Series& s = series_[it->second];
  if (index >= s.value.size()) {  // (size_t: index 2^32 - 1 must not wrap to 0)
    s.value.resize(std::size_t(index) + 1, 0.0);
    s.written.resize(std::size_t(index) + 1, 0);
  }
  if (s.written[index]) throw Error("internal: feature " + s.name + " written twice at frame " + std::to_string(index));
  s.value[index] = value;
  s.written[index] = 1;
  if (index >= capacity_) capacity_ = index == ~0u ? index : index + 1;
}

const FeatureCollector::Series* FeatureCollector::find(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? nullptr : &series_[it->second];
}

}  // namespace vmafx
