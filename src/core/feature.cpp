// SPDX-License-Identifier: BSD-3-Clause
#include "core/feature.hpp"

#include <algorithm>
#include <cstring>

namespace vmafx {

namespace {

void copy_picture(const Picture& from, Picture& to) {
  for (int p = 0; p < from.format().plane_count(); ++p) {
    const PlaneView v = from.plane(p);
    const std::size_t row = std::size_t(v.width) * from.format().bytes_per_sample();
    for (int y = 0; y < v.height; ++y) std::memcpy(to.row<std::uint8_t>(p, y), v.row<std::uint8_t>(y), row);
  }
}

}  // namespace

void LookBackExtractor::extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) {
  const unsigned h = std::min(history(), Earlier::kMax);
  Earlier e;
  e.count = std::min(kept_, h);
  for (unsigned k = 0; k < e.count; ++k) {
    e.ref[k] = kept_ref_[k].get();
    e.dis[k] = kept_dis_[k].get();
  }
  extract_with(ref, dis, e, index, out);
  if (h == 0) return;
  // The oldest copies are reused for this frame, which becomes the newest.
  std::unique_ptr<Picture> r = std::move(kept_ref_[h - 1]), d = std::move(kept_dis_[h - 1]);
  for (unsigned k = h - 1; k > 0; --k) {
    kept_ref_[k] = std::move(kept_ref_[k - 1]);
    kept_dis_[k] = std::move(kept_dis_[k - 1]);
  }
  if (!r || !(r->format() == ref.format())) r = std::make_unique<Picture>(ref.format());
  if (!d || !(d->format() == dis.format())) d = std::make_unique<Picture>(dis.format());
  copy_picture(ref, *r);
  copy_picture(dis, *d);
  kept_ref_[0] = std::move(r);
  kept_dis_[0] = std::move(d);
  kept_ = std::min(kept_ + 1, h);
}

RangeReach range_reach(const ExtractorDescriptor& d, const OptionSet& opts) {
  if (d.range_reach) return d.range_reach(opts);
  if (d.flags & kTemporal)
    return {0, 0, std::string(d.name) + ": a temporal extractor whose frame reach is not declared"};
  return {};
}

}  // namespace vmafx
