// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/options.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

// Where an extractor writes its scores. `name` is libvmaf's internal feature
// name (e.g. "VMAF_integer_feature_vif_scale0_score"); the engine turns it into
// the output name (alias, e.g. "integer_vif_scale0", plus the option suffix).
// `index` is the frame index the value belongs to; a temporal extractor may
// write for an earlier frame than the one it was handed.
class FeatureSink {
 public:
  virtual ~FeatureSink() = default;
  // As libvmaf's append_with_dict: alias + option suffix.
  virtual void put(std::string_view name, unsigned index, double value) = 0;
  // As libvmaf's plain append: the name is used as given (alias only).
  virtual void put_plain(std::string_view name, unsigned index, double value) = 0;
  // A whole-clip metric (libvmaf's aggregate metrics, e.g. apsnr_y), written on flush.
  virtual void put_aggregate(std::string_view /*name*/, double /*value*/) {}
};

// The pictures of the frames before the one being extracted, for extractors
// whose history() > 0: ref[0] / dis[0] belong to frame index - 1, ref[1] /
// dis[1] to index - 2. `count` is how many there are (fewer than history()
// for the first frames of a clip).
struct Earlier {
  static constexpr unsigned kMax = 2;
  const Picture* ref[kMax] = {};
  const Picture* dis[kMax] = {};
  unsigned count = 0;
};

// One instance per requested (extractor, options). Instances of extractors not
// flagged kTemporal must be safe to call from several threads at once on
// different frames (keep per-call scratch on the stack or in thread-local
// storage, or allocate it per call from a pool). Temporal ones are called in
// frame order from one thread at a time, unless frame_parallel() says
// otherwise.
class Extractor {
 public:
  virtual ~Extractor() = default;
  virtual void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) = 0;
  // A temporal extractor that reads the pictures of up to history() earlier
  // frames (given to extract_with()) instead of keeping copies, e.g. motion's
  // previous reference. The engine keeps those pictures alive and calls
  // extract_with() for every frame, from any worker, frames in any order.
  virtual unsigned history() const { return 0; }
  virtual void extract_with(const Picture& ref, const Picture& dis, const Earlier& /*earlier*/, unsigned index,
                            FeatureSink& out) {
    extract(ref, dis, index, out);
  }
  // A temporal extractor (every frame, subsampling aside) whose calls may
  // still run on several threads at once, frames in any order (its state is
  // order-free, e.g. integer sums, or comes from history()).
  virtual bool frame_parallel() const { return history() > 0; }
  // Optional first half of extract() for device twins: enqueue the frame's
  // device work and return without waiting for it. The engine calls submit()
  // for every extractor of a frame, on the thread that then calls extract()
  // for each, so one thread's device work queues back to back. extract()
  // must also work when submit() was not called for that frame.
  virtual void submit(const Picture& /*ref*/, const Picture& /*dis*/, unsigned /*index*/) {}
  // Called once after the last frame (temporal extractors emit their last values).
  virtual void flush(FeatureSink& /*out*/) {}
};

enum ExtractorFlags : unsigned {
  // Sees every frame (--subsample does not apply); its frames depend on each
  // other, through state kept in order or through history().
  kTemporal = 1u << 0,
};

// Base of history() extractors: extract() (for callers that hand frames one
// by one, in order, without an engine) keeps copies of the last history()
// pictures and calls extract_with().
class LookBackExtractor : public Extractor {
 public:
  void extract(const Picture& ref, const Picture& dis, unsigned index, FeatureSink& out) override;

 private:
  std::unique_ptr<Picture> kept_ref_[Earlier::kMax], kept_dis_[Earlier::kMax];
  unsigned kept_ = 0;
};

// What scoring a clip in frame ranges needs from one extractor instance
// (Session::range_context): its scores of frame i depend on the pictures of
// frames i - before .. i + after only, once i is at least `before` frames
// into the run (where it counts frames from the first frame it was given).
// A non-empty `unsplittable` says why its scores cannot be merged from
// ranges (whole-clip metrics, files written frame after frame).
struct RangeReach {
  unsigned before = 0, after = 0;
  std::string unsplittable;
};

struct ExtractorDescriptor {
  std::string_view name;                       // libvmaf's extractor name: "vif", "adm", ...
  std::span<const OptionSpec> options;         // option table
  std::span<const std::string_view> provided;  // internal feature names it writes
  unsigned flags = 0;
  // Throws Error if the format is unsupported (message names the extractor).
  std::unique_ptr<Extractor> (*create)(const OptionSet& opts, const PictureFormat& fmt);
  // Range scoring (see RangeReach); nullptr: {0, 0} for an extractor without
  // kTemporal, unsplittable for one with it (its reach is not known).
  RangeReach (*range_reach)(const OptionSet& opts) = nullptr;
};

// The reach of an instance of `d` with `opts` (the rule above for nullptr).
RangeReach range_reach(const ExtractorDescriptor& d, const OptionSet& opts);

namespace cuda {
class CudaBackend;
}
namespace ocl {
class FrameGroup;
}
// A backend's twin of an extractor: validates the format as the CPU extractor
// does (the same Error) and returns the twin (feature/cuda/<f>_cuda.cpp,
// feature/opencl/<f>_opencl.cpp).
using CudaTwinFactory = std::unique_ptr<Extractor> (*)(cuda::CudaBackend& backend, const OptionSet& opts,
                                                       const PictureFormat& fmt);
using OpenclTwinFactory = std::unique_ptr<Extractor> (*)(std::shared_ptr<ocl::FrameGroup> group, const OptionSet& opts,
                                                         const PictureFormat& fmt);

// One row of the feature table (feature/registry.cpp): an extractor, its
// device twins, and the option strings the twin harness (tests/checkfeat)
// checks every twin with, and the CPU SIMD paths against the scalar ones.
struct FeatureEntry {
  const ExtractorDescriptor* desc;
  CudaTwinFactory cuda = nullptr;      // nullptr: no CUDA twin (or no CUDA in this build)
  OpenclTwinFactory opencl = nullptr;  // nullptr: no OpenCL twin (or no OpenCL in this build)
  std::string_view opencl_source;      // the twin's kernel file, src/feature/opencl/<f>.cl
  // "" = the defaults; "a=1:b=2" as --feature takes them. A feature with a
  // twin needs at least one (a test checks it).
  std::span<const std::string_view> checks;
  // Whether a twin exists in some build (true even where this build lacks
  // the backend): --list-features and the tests say so.
  bool has_cuda_twin = false, has_opencl_twin = false;
};

// The feature table: every extractor in libvmaf's order of lookup.
std::span<const FeatureEntry> feature_table();
// The row of a registered extractor.
const FeatureEntry& feature_entry(const ExtractorDescriptor& d);

// The registry: the extractors of the feature table (feature/registry.cpp).
std::span<const ExtractorDescriptor* const> all_extractors();
const ExtractorDescriptor* find_extractor(std::string_view name);
// The extractor that provides a feature, as libvmaf's lookup by feature name.
const ExtractorDescriptor* find_extractor_by_feature(std::string_view feature_name);

// libvmaf's alias table: "VMAF_integer_feature_vif_scale0_score" -> "integer_vif_scale0".
// Names without an alias are returned unchanged.
std::string_view feature_alias(std::string_view name);

}  // namespace vmafx
