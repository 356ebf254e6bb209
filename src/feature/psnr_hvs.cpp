// SPDX-License-Identifier: BSD-3-Clause
#include "feature/psnr_hvs.hpp"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "exact/psnr_hvs_block.h"
#include "exact/psnr_hvs_tables.h"

namespace vmafx {
namespace psnr_hvs {
namespace {

using Csf = const float (*)[8];

Csf csf_table(int plane) {
  return plane == 0 ? vmafx_psnr_hvs_csf_y : plane == 1 ? vmafx_psnr_hvs_csf_cb : vmafx_psnr_hvs_csf_cr;
}

// The 8-point integer DCT (Daala's od_bin_fdct8 lifting) lives once, in
// exact/psnr_hvs_block.h, which the CUDA and OpenCL twins include too.
void fdct8(std::int32_t out[8], const std::int32_t* in, int stride) { vmafx_hvs_fdct8(out, in, stride); }

struct Masks {
  float m[3][8][8];
  Masks() {
    // The masking table: (CSF * 0.3885746225901003)^2, computed in double.
    for (int p = 0; p < 3; ++p) {
      const Csf csf = csf_table(p);
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          m[p][i][j] = float((double(csf[i][j]) * 0.3885746225901003) * (double(csf[i][j]) * 0.3885746225901003));
    }
  }
};

const Masks& masks() {
  static const Masks m;
  return m;
}

template <class T>
double plane_error_t(const PlaneView& src, const PlaneView& dst, int bpc, int plane) {
  const Csf csf = csf_table(plane);
  const float(*mask)[8] = masks().m[plane];
  const int w = src.width, h = src.height;

  float ret = 0;
  int pixels = 0;
  std::int32_t ds[64], dd[64];
  for (int y = 0; y < h - 7; y += 7) {
    for (int x = 0; x < w - 7; x += 7) {
      float s_means[4] = {0, 0, 0, 0}, d_means[4] = {0, 0, 0, 0};
      float s_vars[4] = {0, 0, 0, 0}, d_vars[4] = {0, 0, 0, 0};
      float s_gmean = 0, d_gmean = 0, s_gvar = 0, d_gvar = 0, s_mask = 0, d_mask = 0;
      for (int i = 0; i < 8; ++i) {
        const T* sr = src.row<T>(y + i) + x;
        const T* dr = dst.row<T>(y + i) + x;
        for (int j = 0; j < 8; ++j) {
          const int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
          ds[i * 8 + j] = sr[j];
          dd[i * 8 + j] = dr[j];
          s_gmean += float(ds[i * 8 + j]);
          d_gmean += float(dd[i * 8 + j]);
          s_means[sub] += float(ds[i * 8 + j]);
          d_means[sub] += float(dd[i * 8 + j]);
        }
      }
      s_gmean /= 64.f;
      d_gmean /= 64.f;
      for (int i = 0; i < 4; ++i) s_means[i] /= 16.f;
      for (int i = 0; i < 4; ++i) d_means[i] /= 16.f;
      for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) {
          const int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
          const float sv = float(ds[i * 8 + j]), dv = float(dd[i * 8 + j]);
          s_gvar += (sv - s_gmean) * (sv - s_gmean);
          d_gvar += (dv - d_gmean) * (dv - d_gmean);
          s_vars[sub] += (sv - s_means[sub]) * (sv - s_means[sub]);
          d_vars[sub] += (dv - d_means[sub]) * (dv - d_means[sub]);
        }
      }
      s_gvar *= kVar63;
      d_gvar *= kVar63;
      for (int i = 0; i < 4; ++i) s_vars[i] *= kVar15;
      for (int i = 0; i < 4; ++i) d_vars[i] *= kVar15;
      if (s_gvar > 0) s_gvar = (s_vars[0] + s_vars[1] + s_vars[2] + s_vars[3]) / s_gvar;
      if (d_gvar > 0) d_gvar = (d_vars[0] + d_vars[1] + d_vars[2] + d_vars[3]) / d_gvar;
      fdct8x8(ds);
      fdct8x8(dd);
      for (int i = 0; i < 8; ++i)
        for (int j = (i == 0); j < 8; ++j) s_mask += float(ds[i * 8 + j] * ds[i * 8 + j]) * mask[i][j];
      for (int i = 0; i < 8; ++i)
        for (int j = (i == 0); j < 8; ++j) d_mask += float(dd[i * 8 + j] * dd[i * 8 + j]) * mask[i][j];
      s_mask = float(std::sqrt(double(s_mask * s_gvar)) / 32.f);
      d_mask = float(std::sqrt(double(d_mask * d_gvar)) / 32.f);
      if (d_mask > s_mask) s_mask = d_mask;
      for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) {
          float err = float(std::abs(ds[i * 8 + j] - dd[i * 8 + j]));
          if (i != 0 || j != 0) err = err < s_mask / mask[i][j] ? 0.0f : err - s_mask / mask[i][j];
          ret += (err * csf[i][j]) * (err * csf[i][j]);
          ++pixels;
        }
      }
    }
  }
  ret /= float(pixels);
  const std::int32_t peak = (1 << bpc) - 1;
  ret /= float(peak * peak);
  return ret;
}

}  // namespace

void fdct8x8(std::int32_t block[64]) {
  std::int32_t z[64];
  for (int i = 0; i < 8; ++i) fdct8(z + 8 * i, block + i, 8);  // columns -> rows of z
  for (int i = 0; i < 8; ++i) fdct8(block + 8 * i, z + i, 8);  // columns of z -> rows
}

double plane_error(const PlaneView& ref, const PlaneView& dis, int bpc, int plane) {
  return bpc == 8 ? plane_error_t<std::uint8_t>(ref, dis, bpc, plane)
                  : plane_error_t<std::uint16_t>(ref, dis, bpc, plane);
}

void plane_tables(int plane, float mask[64], float csf[64]) {
  const Csf c = csf_table(plane);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      mask[i * 8 + j] = masks().m[plane][i][j];
      csf[i * 8 + j] = c[i][j];
    }
}

double error_from_terms(const float* terms, std::size_t blocks, int bpc) {
  float ret = 0;
  int pixels = 0;
  for (std::size_t k = 0; k < blocks * 64; ++k) {
    ret += terms[k];
    ++pixels;
  }
  ret /= float(pixels);
  const std::int32_t peak = (1 << bpc) - 1;
  ret /= float(peak * peak);
  return ret;
}

double to_db(double error) { return 10 * (-1 * std::log10(1.0 * error)); }

}  // namespace psnr_hvs

namespace {

constexpr std::string_view kNames[4] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};
constexpr std::string_view kProvided[] = {kNames[0], kNames[1], kNames[2], kNames[3]};

class PsnrHvsExtractor final : public Extractor {
 public:
  explicit PsnrHvsExtractor(int bpc) : bpc_(bpc) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    double e[3];
    for (int p = 0; p < 3; ++p) {
      e[p] = psnr_hvs::plane_error(ref.plane(p), dis.plane(p), bpc_, p);
      out.put_plain(kNames[p], index, psnr_hvs::to_db(e[p]));
    }
    const double combined = e[0] * .8 + .1 * (e[1] + e[2]);
    out.put_plain(kNames[3], index, psnr_hvs::to_db(combined));
  }

 private:
  int bpc_;
};

std::unique_ptr<Extractor> create(const OptionSet&, const PictureFormat& fmt) {
  if (fmt.bpc > 12)
    throw unsupported_error("psnr_hvs: invalid bit depth " + std::to_string(fmt.bpc) +
                            ", bpc must be less than or equal to 12");
  if (fmt.bpc < 8) throw unsupported_error("psnr_hvs: unsupported bit depth " + std::to_string(fmt.bpc));
  if (fmt.chroma == ChromaFormat::k400)
    throw unsupported_error("psnr_hvs: 4:0:0 (luma-only) input is not supported; psnr_hvs scores all three planes");
  return std::make_unique<PsnrHvsExtractor>(fmt.bpc);
}

}  // namespace

const ExtractorDescriptor kPsnrHvsExtractor{
    .name = "psnr_hvs",
    .options = {},
    .provided = kProvided,
    .flags = 0,
    .create = &create,
};

}  // namespace vmafx
