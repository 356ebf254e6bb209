// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test support for the exact scaler (core/scale_exact.hpp): the matrix of
// format pairs that tests/scale (host vs libswscale) and the twin test
// (CUDA / OpenCL vs host) run, and the content they scale.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "vmaf_exact/picture.hpp"

namespace vmafx::test {

struct ScaleCase {
  PictureFormat src, dst;
};

inline std::string describe(const PictureFormat& f) {
  static const char* const kChroma[] = {"420", "422", "444", "400"};
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + kChroma[int(f.chroma)] + " " +
         std::to_string(f.bpc) + "-bit";
}
inline std::string describe(const ScaleCase& c) { return describe(c.src) + " -> " + describe(c.dst); }

// Sizes: up and down by whole and odd factors, other aspect ratios (one side
// only, both sides differently), odd and tiny pictures, and widths that are
// multiples of 16 and 32 (where libswscale's AVX2 and MMXEXT paths apply).
// `large` adds 1080p <-> 2160p.
inline std::vector<ScaleCase> scale_cases(bool large) {
  struct Size {
    int sw, sh, dw, dh;
  };
  std::vector<Size> sizes = {{176, 144, 352, 288}, {352, 288, 176, 144}, {321, 177, 640, 360},  {640, 360, 321, 177},
                             {33, 17, 96, 64},     {96, 64, 33, 17},     {720, 576, 1024, 576}, {1024, 576, 720, 576},
                             {64, 64, 64, 36},     {128, 72, 128, 200},  {480, 270, 1280, 720}, {1280, 720, 480, 270},
                             {5, 3, 7, 4},         {3, 3, 17, 9},        {17, 9, 3, 3},         {2, 2, 5, 5},
                             {1, 1, 4, 4},         {4, 4, 1, 1},         {200, 100, 199, 101},  {640, 480, 64, 48}};
  if (large) {
    sizes.push_back({1920, 1080, 3840, 2160});
    sizes.push_back({3840, 2160, 1920, 1080});
    sizes.push_back({1280, 720, 1920, 1080});
  }
  const ChromaFormat k420 = ChromaFormat::k420, k422 = ChromaFormat::k422, k444 = ChromaFormat::k444,
                     k400 = ChromaFormat::k400;
  struct Pair {
    int sb;
    ChromaFormat sc;
    int db;
    ChromaFormat dc;
  };
  // Same format at every depth and chroma format, then conversions of depth
  // and chroma format, alone and together.
  std::vector<Pair> pairs;
  for (const int b : {8, 10, 12, 16})
    for (const ChromaFormat c : {k420, k422, k444}) pairs.push_back({b, c, b, c});
  for (const int b : {9, 14}) pairs.push_back({b, k420, b, k420});
  pairs.push_back({8, k400, 8, k400});
  pairs.push_back({10, k400, 10, k400});
  const Pair conv[] = {{8, k420, 10, k420},  {10, k420, 8, k420},  {16, k420, 8, k420},  {8, k420, 16, k420},
                       {12, k422, 10, k422}, {10, k444, 16, k444}, {9, k420, 8, k420},   {14, k420, 12, k420},
                       {8, k420, 8, k444},   {8, k444, 8, k420},   {10, k422, 10, k420}, {10, k420, 10, k422},
                       {10, k420, 8, k444},  {8, k422, 10, k420},  {16, k444, 10, k420}, {12, k400, 8, k400}};
  for (const Pair& p : conv) pairs.push_back(p);

  std::vector<ScaleCase> out;
  bool first_large = true;
  for (const Size& s : sizes) {
    const bool big = s.sw * s.sh > 1000000 || s.dw * s.dh > 1000000;
    for (const Pair& p : pairs) {
      // The large sizes: every depth at 4:2:0 and one conversion, once.
      if (big && !(p.sc == k420 && p.dc == k420 && (p.sb == p.db || first_large))) continue;
      out.push_back({{s.sw, s.sh, p.sb, p.sc}, {s.dw, s.dh, p.db, p.dc}});
    }
    if (big) first_large = false;
  }
  // Same size: depth only (libswscale's plain copy with dither), chroma
  // format only, both.
  for (const Pair& p : conv)
    for (const Size& s : {Size{64, 36, 64, 36}, Size{33, 17, 33, 17}})
      out.push_back({{s.sw, s.sh, p.sb, p.sc}, {s.dw, s.dh, p.db, p.dc}});
  return out;
}

// Content that reaches every part of the arithmetic: random samples over the
// whole range (bicubic overshoot clips at both ends), flat black and white
// bands, sharp edges and smooth ramps.
inline void fill_scale_source(Picture& pic, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const int max = (1 << pic.bpc()) - 1;
  for (int p = 0; p < pic.format().plane_count(); ++p) {
    const PlaneView v = pic.plane(p);
    for (int y = 0; y < v.height; ++y)
      for (int x = 0; x < v.width; ++x) {
        int s;
        switch ((x / 7 + y / 5 + p) % 5) {
          case 0: s = int(rng() % (unsigned(max) + 1)); break;
          case 1: s = ((x + y) & 1) ? max : 0; break;
          case 2: s = (y / 3) % 2 ? max : 0; break;
          case 3: s = int((long(x) * max) / (v.width > 1 ? v.width - 1 : 1)); break;
          default: s = int(rng() % 16) + (y % 2 ? max - 15 : 0); break;
        }
        if (pic.bpc() > 8)
          pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(s);
        else
          pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(s);
      }
  }
}

// The first differing sample of two pictures of one format, or "".
inline std::string first_difference(const Picture& a, const Picture& b) {
  for (int p = 0; p < a.format().plane_count(); ++p) {
    const PlaneView v = a.plane(p);
    for (int y = 0; y < v.height; ++y)
      for (int x = 0; x < v.width; ++x) {
        const int sa = a.bpc() > 8 ? a.row<std::uint16_t>(p, y)[x] : a.row<std::uint8_t>(p, y)[x];
        const int sb = b.bpc() > 8 ? b.row<std::uint16_t>(p, y)[x] : b.row<std::uint8_t>(p, y)[x];
        if (sa != sb)
          return "plane " + std::to_string(p) + " (" + std::to_string(x) + ", " + std::to_string(y) +
                 "): " + std::to_string(sa) + " vs " + std::to_string(sb);
      }
  }
  return "";
}

}  // namespace vmafx::test
