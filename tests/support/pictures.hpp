// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test support: writing samples into pictures and running extractors through
// the engine on generated content. One set for every test file.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vmaf_exact/collector.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"

namespace vmafx::test {

// One sample, 8-bit or 16-bit storage as the picture's depth says.
inline void set_sample(Picture& p, int plane, int x, int y, long v) {
  if (p.bpc() == 8)
    p.row<std::uint8_t>(plane, y)[x] = std::uint8_t(v);
  else
    p.row<std::uint16_t>(plane, y)[x] = std::uint16_t(v);
}

// Every sample of one plane from f(x, y).
inline void fill_plane(Picture& p, int plane, const std::function<long(int x, int y)>& f) {
  const PlaneView v = p.plane(plane);
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x) set_sample(p, plane, x, y, f(x, y));
}

// Every sample of every plane from f(plane, x, y).
inline void fill_planes(Picture& p, const std::function<long(int plane, int x, int y)>& f) {
  for (int pl = 0; pl < p.format().plane_count(); ++pl) fill_plane(p, pl, [&](int x, int y) { return f(pl, x, y); });
}

// Every plane from f(x, y) (chroma too, so the picture is fully defined).
inline void fill_all(Picture& p, const std::function<long(int x, int y)>& f) {
  fill_planes(p, [&](int, int x, int y) { return f(x, y); });
}

// Every sample of every plane set to v.
inline void fill(Picture& p, long v) {
  fill_all(p, [v](int, int) { return v; });
}

// Every sample uniform in [lo, hi].
inline void fill_random(Picture& p, std::mt19937& rng, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  fill_all(p, [&](int, int) { return long(d(rng)); });
}

// Fills a pair of pictures for frame `frame`.
using Filler = std::function<void(Picture& ref, Picture& dis, unsigned frame)>;

// Runs the requested extractors through the engine on `frames` generated pairs.
inline FeatureCollector run_engine(const PictureFormat& fmt, unsigned frames, const Filler& fill_pair,
                                   const std::vector<FeatureRequest>& requests, EngineOptions eo = {}) {
  Engine e(fmt, eo);
  for (const FeatureRequest& r : requests) e.use(r);
  for (unsigned i = 0; i < frames; ++i) {
    auto r = e.acquire();
    auto d = e.acquire();
    fill_pair(*r, *d, i);
    e.push(std::move(r), std::move(d));
  }
  e.finish();
  return std::move(e.collector());
}

// Deterministic content with texture and motion: an 8-bit value per position,
// frame and salt (never flat).
inline int content(int x, int y, unsigned frame, int salt) {
  std::uint32_t s =
      std::uint32_t(x) * 73856093u ^ std::uint32_t(y) * 19349663u ^ (frame * 83492791u) ^ std::uint32_t(salt);
  s ^= s >> 13;
  s *= 0x5bd1e995u;
  s ^= s >> 15;
  const int smooth = (x * 5 + y * 3 + int(frame) * 7) % 200;
  return std::min(255, smooth + int(s % 40));
}

// Every plane of both pictures from content() times 2^(bpc-8): the same
// picture on every depth's scale; the distorted one differs by its salt.
inline Filler scaled_content(int bpc) {
  return [bpc](Picture& r, Picture& d, unsigned f) {
    const int sh = bpc - 8;
    for (int p = 0; p < r.format().plane_count(); ++p) {
      fill_plane(r, p, [&](int x, int y) { return long(content(x, y, f, p)) << sh; });
      fill_plane(d, p, [&](int x, int y) { return long(content(x, y, f, 100 + p)) << sh; });
    }
  };
}

// A sink that records every write in order.
struct Recorder final : FeatureSink {
  struct Rec {
    bool plain;
    std::string name;
    unsigned index;
    double value;
  };
  std::vector<Rec> recs;
  void put(std::string_view n, unsigned i, double v) override { recs.push_back({false, std::string(n), i, v}); }
  void put_plain(std::string_view n, unsigned i, double v) override { recs.push_back({true, std::string(n), i, v}); }
  // "name@index" per write, in order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Rec& r : recs) out.push_back(r.name + "@" + std::to_string(r.index));
    return out;
  }
};

// The error message of creating `extractor` with `opts` for pictures of `fmt`;
// empty when creation succeeds.
inline std::string create_error(const std::string& extractor, const PictureFormat& fmt,
                                const std::map<std::string, std::string>& opts = {}) {
  try {
    Engine e(fmt, EngineOptions{});
    e.use(FeatureRequest{extractor, opts});
  } catch (const Error& err) {
    return err.what();
  }
  return "";
}

// Output names in collector order.
inline std::vector<std::string> names(const FeatureCollector& c) {
  std::vector<std::string> out;
  for (const auto& s : c.all()) out.push_back(s.name);
  return out;
}

// Same names and, per frame, equal values (NaN equals NaN).
inline bool same_collectors(const FeatureCollector& a, const FeatureCollector& b) {
  if (names(a) != names(b)) return false;
  for (const auto& s : a.all()) {
    const auto* t = b.find(s.name);
    if (s.value.size() != t->value.size()) return false;
    for (std::size_t i = 0; i < s.value.size(); ++i)
      if (!(s.value[i] == t->value[i] || (std::isnan(s.value[i]) && std::isnan(t->value[i])))) return false;
  }
  return true;
}

}  // namespace vmafx::test

#include <gtest/gtest.h>
namespace vmafx::test {
// Frame i's value of output `name`; a test failure (and -1) when it is missing.
inline double at(const FeatureCollector& c, const std::string& name, unsigned i) {
  const auto* s = c.find(name);
  if (!s || !s->has(i)) {
    ADD_FAILURE() << name << " missing at " << i;
    return -1;
  }
  return s->value[i];
}
}  // namespace vmafx::test
