// SPDX-License-Identifier: BSD-3-Clause
#include "feature/psnr.hpp"

#include <cfloat>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "exact/psnr.h"

namespace vmafx {
namespace psnr {
namespace {

constexpr std::string_view kPsnrNames[3] = {"psnr_y", "psnr_cb", "psnr_cr"};
constexpr std::string_view kMseNames[3] = {"mse_y", "mse_cb", "mse_cr"};
constexpr std::string_view kApsnrNames[3] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};

// exact/psnr.h's sums: an 8-bit row in 32 bits (it wraps past 66051
// samples, as libvmaf's), a deeper one in 64.
template <class T>
std::uint64_t sse_impl(const PlaneView& ref, const PlaneView& dis) {
  using Row = std::conditional_t<sizeof(T) == 1, std::uint32_t, std::uint64_t>;
  std::uint64_t total = 0;
  for (int y = 0; y < ref.height; ++y) {
    const T* a = ref.row<T>(y);
    const T* b = dis.row<T>(y);
    Row row = 0;
    for (int x = 0; x < ref.width; ++x) row += vmafx_psnr_sq_err(a[x], b[x]);
    total += row;
  }
  return total;
}

}  // namespace

std::uint32_t peak(int bpc, bool reduced_hbd_peak) {
  return reduced_hbd_peak ? (255u << (bpc - 8)) : ((1u << bpc) - 1u);
}

double max_psnr(int bpc, std::uint32_t peak, double min_sse, std::uint32_t n_pixels) {
  if (min_sse == 0.0) return double(6 * bpc + 12);
  const double floor_mse = min_sse / double(n_pixels);
  const std::uint32_t pp = peak * peak;  // 32-bit product, as libvmaf
  return std::ceil(10. * std::log10(double(pp) / floor_mse));
}

std::uint64_t sse(const PlaneView& ref, const PlaneView& dis, int bpc) {
  return bpc == 8 ? sse_impl<std::uint8_t>(ref, dis) : sse_impl<std::uint16_t>(ref, dis);
}

double mse(std::uint64_t sse, std::uint32_t n_pixels) { return double(sse) / double(n_pixels); }

double frame_psnr(double mse, std::uint32_t peak, double max_psnr) {
  const std::uint32_t pp = peak * peak;
  const double m = mse > 1e-16 ? mse : 1e-16;
  const double v = 10. * std::log10(double(pp) / m);
  return v < max_psnr ? v : max_psnr;
}

double aggregate_psnr(std::uint32_t peak, std::uint64_t n_pixels, std::uint64_t sse) {
  const std::uint32_t pp = peak * peak;
  const double v = 10 * (std::log10(double(pp)) + std::log10(double(n_pixels)) - std::log10(double(sse)));
  const std::uint64_t cap_arg = std::uint64_t(pp) * n_pixels * 2u;  // wraps as libvmaf's
  const double cap = std::ceil(10 * std::log10(double(cap_arg)));
  return v < cap ? v : cap;
}

Scorer::Scorer(const OptionSet& o, const PictureFormat& f)
    : mse_(o.get_bool("enable_mse")),
      apsnr_(o.get_bool("enable_apsnr")),
      peak_(peak(f.bpc, o.get_bool("reduced_hbd_peak"))) {
  planes_ = (o.get_bool("enable_chroma") && f.plane_count() == 3) ? 3 : 1;
  const double min_sse = o.get_double("min_sse");
  for (int p = 0; p < 3; ++p) {
    // Chroma sizes are the actual (rounded-up) plane sizes; libvmaf uses
    // w/2, h/2, which is the same for every size its reader accepts.
    const int cp = f.plane_count() == 3 ? p : 0;
    const std::uint32_t n = std::uint32_t(f.plane_width(cp)) * std::uint32_t(f.plane_height(cp));
    max_[p] = max_psnr(f.bpc, peak_, min_sse, n);
  }
}

void Scorer::put_plane(int p, std::uint64_t sse, std::uint32_t n_pixels, unsigned index, FeatureSink& out) {
  if (apsnr_) {
    sum_sse_[p].fetch_add(sse, std::memory_order_relaxed);
    sum_pixels_[p].fetch_add(n_pixels, std::memory_order_relaxed);
  }
  const double m = mse(sse, n_pixels);
  out.put_plain(kPsnrNames[p], index, frame_psnr(m, peak_, max_[p]));
  if (mse_) out.put_plain(kMseNames[p], index, m);
}

void Scorer::flush(FeatureSink& out) const {
  if (!apsnr_) return;
  for (int p = 0; p < 3; ++p) out.put_aggregate(kApsnrNames[p], aggregate_psnr(peak_, sum_pixels_[p], sum_sse_[p]));
}

}  // namespace psnr

namespace {

constexpr OptionSpec kOptions[] = {
    {.name = "enable_chroma", .help = "also score the Cb and Cr planes", .type = OptionType::kBool, .default_num = 1},
    {.name = "enable_mse", .help = "also write mse_y/cb/cr", .type = OptionType::kBool, .default_num = 0},
    {.name = "enable_apsnr",
     .help = "write whole-clip apsnr_y/cb/cr on flush",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "reduced_hbd_peak",
     .help = "use 255 << (bpc - 8) as the peak for high bit depths",
     .type = OptionType::kBool,
     .default_num = 0},
    {.name = "min_sse",
     .help = "SSE floor that sets the PSNR ceiling (0: 6 * bpc + 12)",
     .type = OptionType::kDouble,
     .default_num = 0.0,
     .min = 0.0,
     .max = DBL_MAX},
};

constexpr std::string_view kProvided[] = {psnr::kPsnrNames[0], psnr::kPsnrNames[1], psnr::kPsnrNames[2]};

class PsnrExtractor final : public Extractor {
 public:
  PsnrExtractor(const OptionSet& o, const PictureFormat& f) : scorer_(o, f), bpc_(f.bpc) {}

  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override {
    for (int p = 0; p < scorer_.planes(); ++p) {
      const PlaneView r = ref.plane(p);
      const PlaneView d = dis.plane(p);
      const std::uint32_t n = std::uint32_t(r.width) * std::uint32_t(r.height);
      scorer_.put_plane(p, psnr::sse(r, d, bpc_), n, index, out);
    }
  }

  void flush(FeatureSink& out) override { scorer_.flush(out); }
  // Temporal only for the whole-clip sums, which are order-free.
  bool frame_parallel() const override { return true; }

 private:
  psnr::Scorer scorer_;
  int bpc_;
};

std::unique_ptr<Extractor> create(const OptionSet& opts, const PictureFormat& fmt) {
  if (fmt.bpc < 8 || fmt.bpc > 16)
    throw unsupported_error("psnr: unsupported bit depth " + std::to_string(fmt.bpc) + " (8 to 16)");
  return std::make_unique<PsnrExtractor>(opts, fmt);
}

// Per-frame PSNR is frame by frame; apsnr sums the whole clip's SSE, which
// the per-frame scores do not give back.
RangeReach range_reach(const OptionSet& o) {
  if (o.get_bool("enable_apsnr"))
    return {0, 0, "psnr: enable_apsnr (whole-clip apsnr) cannot be merged from frame ranges"};
  return {};
}

}  // namespace

const ExtractorDescriptor kPsnrExtractor{
    .name = "psnr",
    .options = kOptions,
    .provided = kProvided,
    .flags = kTemporal,
    .create = &create,
    .range_reach = &range_reach,
};

}  // namespace vmafx
