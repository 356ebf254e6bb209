// SPDX-License-Identifier: BSD-3-Clause
// vmafx_mkclip: makes a pair of benchmark clips of real content from one
// picture. The reference pans (with a slow zoom) across the picture, upscaled
// to cover the frame; the distorted clip is the same frames taken down to a
// lower resolution rung and back up (as an adaptive-bitrate ladder does) with
// 8x8 block quantisation, i.e. the blur and blocking of a mid-rate encode.
// Deterministic; threads over rows. Used by scripts/bench-e2e.sh.
//
//   vmafx_mkclip SEED.y4m W H BITS FRAMES REF.y4m DIS.y4m
// An output named *.yuv is written as raw planar frames (no headers).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "vmafx_mkclip: %s\n", msg.c_str());
  std::exit(1);
}

struct Plane {
  int w = 0, h = 0;
  std::vector<float> v;
  float at(int x, int y) const {
    x = std::clamp(x, 0, w - 1);
    y = std::clamp(y, 0, h - 1);
    return v[std::size_t(y) * w + x];
  }
  // Bilinear sample at (x, y) in this plane's pixel units.
  float sample(float x, float y) const {
    const int x0 = int(std::floor(x)), y0 = int(std::floor(y));
    const float fx = x - x0, fy = y - y0;
    const float a = at(x0, y0), b = at(x0 + 1, y0), c = at(x0, y0 + 1), d = at(x0 + 1, y0 + 1);
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
  }
};

// First frame of an 8-bit 4:2:0 Y4M as three float planes (0..255).
std::vector<Plane> read_seed(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) die(std::string(path) + ": cannot open");
  char line[512];
  if (!std::fgets(line, sizeof line, f) || std::strncmp(line, "YUV4MPEG2 ", 10) != 0)
    die(std::string(path) + ": not a Y4M file");
  int w = 0, h = 0;
  for (char* t = std::strtok(line + 10, " \n"); t; t = std::strtok(nullptr, " \n")) {
    if (t[0] == 'W') w = std::atoi(t + 1);
    if (t[0] == 'H') h = std::atoi(t + 1);
    if (t[0] == 'C' && std::strncmp(t, "C420", 4) != 0) die(std::string(path) + ": seed must be 8-bit 4:2:0");
  }
  if (w <= 0 || h <= 0) die(std::string(path) + ": no size in the header");
  if (!std::fgets(line, sizeof line, f) || std::strncmp(line, "FRAME", 5) != 0) die(std::string(path) + ": no frame");
  std::vector<Plane> planes(3);
  for (int p = 0; p < 3; ++p) {
    Plane& pl = planes[p];
    pl.w = p ? (w + 1) / 2 : w;
    pl.h = p ? (h + 1) / 2 : h;
    std::vector<std::uint8_t> row(std::size_t(pl.w) * pl.h);
    if (std::fread(row.data(), 1, row.size(), f) != row.size()) die(std::string(path) + ": truncated frame");
    pl.v.assign(row.begin(), row.end());
  }
  std::fclose(f);
  return planes;
}

// Runs fn(y0, y1) over [0, n) split across the machine's cores.
template <class Fn>
void parallel_rows(int n, Fn fn) {
  const int t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> th;
  for (int i = 0; i < t; ++i) {
    const int y0 = int(std::int64_t(n) * i / t), y1 = int(std::int64_t(n) * (i + 1) / t);
    th.emplace_back([=] { fn(y0, y1); });
  }
  for (auto& x : th) x.join();
}

// A small deterministic hash for grain.
inline float grain(std::uint32_t x, std::uint32_t y, std::uint32_t t) {
  std::uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ t * 0xcb1ab31fu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return float(h & 0xffff) / 65535.0f - 0.5f;
}

class Writer {
 public:
  Writer(const char* path, int w, int h, int bits) : path_(path) {
    f_ = std::fopen(path, "wb");
    if (!f_) die(std::string(path) + ": cannot create");
    raw_ = path_.size() > 4 && path_.compare(path_.size() - 4, 4, ".yuv") == 0;
    if (!raw_) {
      const std::string c = bits == 8 ? "420jpeg" : "420p" + std::to_string(bits);
      std::fprintf(f_, "YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C%s\n", w, h, c.c_str());
    }
  }
  ~Writer() {
    if (std::fclose(f_) != 0) die(path_ + ": write failed");
  }
  void frame(const std::vector<std::vector<std::uint16_t>>& planes, int bits) {
    if (!raw_) std::fputs("FRAME\n", f_);
    for (const auto& p : planes) {
      if (bits == 8) {
        buf8_.assign(p.begin(), p.end());
        if (std::fwrite(buf8_.data(), 1, buf8_.size(), f_) != buf8_.size()) die(path_ + ": write failed");
      } else if (std::fwrite(p.data(), 2, p.size(), f_) != p.size()) {
        die(path_ + ": write failed");
      }
    }
  }

 private:
  std::string path_;
  std::FILE* f_;
  bool raw_ = false;
  std::vector<std::uint8_t> buf8_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: vmafx_mkclip SEED.y4m WIDTH HEIGHT BITS(8|10|12|16) FRAMES REF.y4m DIS.y4m\n");
    return 2;
  }
  const std::vector<Plane> seed = read_seed(argv[1]);
  const int W = std::atoi(argv[2]), H = std::atoi(argv[3]), bits = std::atoi(argv[4]), n = std::atoi(argv[5]);
  if (W < 16 || H < 16 || W % 2 || H % 2 || W > 8192 || H > 8192) die("WIDTH and HEIGHT: even, 16..8192");
  if (bits != 8 && bits != 10 && bits != 12 && bits != 16) die("BITS: 8, 10, 12 or 16");
  if (n < 1) die("FRAMES: at least 1");
  const float maxv = float((1 << bits) - 1), scale = maxv / 255.0f;
  // The seed covers the frame 1.3x (so the pan has room), more as it zooms.
  const float cover = 1.3f * std::max(float(W) / seed[0].w, float(H) / seed[0].h);
  // Distortion: a rung at 2/3 of the size, 8x8 block quantisation there.
  const int rw = (W * 2 / 3) & ~1, rh = (H * 2 / 3) & ~1;
  const float qstep = 6.0f;

  Writer ref(argv[6], W, H, bits), dis(argv[7], W, H, bits);
  std::vector<std::vector<std::uint16_t>> rplanes(3), dplanes(3);
  std::vector<std::vector<float>> rung(3), full(3);
  for (int t = 0; t < n; ++t) {
    // Camera: pans right and down with a slow zoom; a cut every 120 frames.
    const int shot = t / 120, k = t % 120;
    const float zoom = cover * (1.0f + 0.0015f * k);
    const float ox = (0.05f + 0.08f * shot) * seed[0].w + 0.9f * k, oy = 0.05f * seed[0].h + 0.35f * k;
    for (int p = 0; p < 3; ++p) {
      const int pw = p ? W / 2 : W, ph = p ? H / 2 : H, sub = p ? 2 : 1;
      const Plane& s = seed[p];
      rplanes[p].resize(std::size_t(pw) * ph);
      full[p].resize(std::size_t(pw) * ph);
      parallel_rows(ph, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
          for (int x = 0; x < pw; ++x) {
            const float sx = (ox / sub + x / zoom), sy = (oy / sub + y / zoom);
            float v = s.sample(sx, sy) + (p ? 0.0f : 3.0f * grain(x, y, t));
            v = std::clamp(v * scale, 0.0f, maxv);
            full[p][std::size_t(y) * pw + x] = v;
            rplanes[p][std::size_t(y) * pw + x] = std::uint16_t(std::lround(v));
          }
      });
      // Down to the rung (box-ish bilinear), quantise 8x8 block means and
      // details, back up (bilinear).
      const int qw = p ? rw / 2 : rw, qh = p ? rh / 2 : rh;
      rung[p].resize(std::size_t(qw) * qh);
      Plane src{pw, ph, full[p]};
      const float fx = float(pw) / qw, fy = float(ph) / qh;
      parallel_rows(qh, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
          for (int x = 0; x < qw; ++x)
            rung[p][std::size_t(y) * qw + x] = src.sample((x + 0.5f) * fx - 0.5f, (y + 0.5f) * fy - 0.5f);
      });
      parallel_rows((qh + 7) / 8, [&](int b0, int b1) {
        for (int by = b0; by < b1; ++by)
          for (int bx = 0; bx < (qw + 7) / 8; ++bx) {
            const int x0 = bx * 8, y0 = by * 8, x1 = std::min(qw, x0 + 8), y1 = std::min(qh, y0 + 8);
            float mean = 0;
            for (int y = y0; y < y1; ++y)
              for (int x = x0; x < x1; ++x) mean += rung[p][std::size_t(y) * qw + x];
            mean /= float((x1 - x0) * (y1 - y0));
            const float qm = std::round(mean / (qstep * scale)) * qstep * scale;
            for (int y = y0; y < y1; ++y)
              for (int x = x0; x < x1; ++x) {
                float& v = rung[p][std::size_t(y) * qw + x];
                v = qm + std::round((v - mean) / (2 * qstep * scale)) * (2 * qstep * scale);
              }
          }
      });
      Plane r{qw, qh, rung[p]};
      dplanes[p].resize(std::size_t(pw) * ph);
      parallel_rows(ph, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
          for (int x = 0; x < pw; ++x) {
            const float v = r.sample((x + 0.5f) / fx - 0.5f, (y + 0.5f) / fy - 0.5f);
            dplanes[p][std::size_t(y) * pw + x] = std::uint16_t(std::lround(std::clamp(v, 0.0f, maxv)));
          }
      });
    }
    ref.frame(rplanes, bits);
    dis.frame(dplanes, bits);
  }
  return 0;
}
