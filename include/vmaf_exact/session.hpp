// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// vmaf-exact's C++ API: score a stream of (reference, distorted) picture pairs
// with libvmaf's models and feature extractors, bit-exact with libvmaf 3.2.0.
//
//   vmafx::Session s(fmt, {.models = {"version=vmaf_v0.6.1"}, .threads = 4});
//   for (each frame) {
//     auto ref = s.acquire(), dis = s.acquire();
//     ... fill ref->row<uint8_t>(plane, y) / dis->... ...
//     s.push(std::move(ref), std::move(dis));
//   }
//   s.finish();
//   const vmafx::FeatureCollector& scores = s.scores();  // per-frame, by name
//
// Errors (unknown model or feature, bad option, unsupported format, device
// failure) are vmafx::Error with a one-line message and a kind(). Reading
// clips: vmaf_exact/input.hpp; reports: vmaf_exact/report.hpp.
#include <memory>
#include <string>
#include <vector>

#include "vmaf_exact/collector.hpp"
#include "vmaf_exact/error.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

class DeviceImporter;

struct SessionConfig {
  // Models as libvmaf's --model strings ("version=vmaf_v0.6.1",
  // "path=m.json:name=mine:disable_clip", "version=...:adm.adm_enhn_gain_limit=1").
  // Empty: vmaf_v0.6.1, unless no_prediction.
  std::vector<std::string> models;
  // Extra extractors as libvmaf's --feature strings ("psnr", "float_ssim=enable_lcs=true").
  std::vector<std::string> features;
  bool no_prediction = false;
  // Worker threads; results never depend on it. 0: what is fastest here:
  // one per core for the CPU; for a GPU backend its preferred number of
  // frames in flight, plus the cores for extractors that run on the CPU.
  unsigned threads = 0;
  unsigned subsample = 1;  // score every n-th frame (temporal features see all)
  // cpu, cuda, opencl, or auto (a GPU backend's twins where one works, the
  // CPU for the rest; never an OpenCL device that is the CPU itself).
  std::string backend = "cpu";
  int gpu = 0;  // device index for cuda/opencl
  // Which libvmaf 3.2.0 to equal where its answer depends on the processor
  // (float_adm's division, hence also the vmaf_float_* models): intel or amd
  // (an x86 build run on such a processor), generic (a build without SSE2:
  // aarch64, ppc64), or auto: this machine's (its x86 vendor; generic
  // elsewhere). Set on every float_adm the session runs, the models' too.
  std::string libvmaf_cpu = "auto";
};

// One model's pooled (mean) result, as libvmaf's CLI prints it.
struct ModelSummary {
  std::string name;
  bool bootstrap = false;
  double mean = 0;                          // mean of the model's score (bagging score for bootstrap)
  double ci_lo = 0, ci_hi = 0, stddev = 0;  // bootstrap only
};

// Scoring one clip in frame ranges (on several machines, say) so that the
// merged scores are the very doubles of one run over the whole clip. Frame
// i's scores depend on the pictures of frames i - before .. i + after only.
// To score frames [begin, end) of an n-frame clip, a session is fed frames
// first_frame(begin) .. min(end + after, n) - 1 (which it numbers from 0)
// and its scores of frames begin - first .. end - 1 - first are kept: they
// are frames begin .. end - 1 of the clip. The ranges' kept scores, appended
// to one FeatureCollector series by series in the order of the range that
// starts at frame 0, each series in frame order, then pooled and reported
// with ReportInfo::frames = n, give the single run's report byte for byte
// (the Python package's vmaf_exact.ray splits long clips this way).
struct RangeContext {
  unsigned before = 0;  // frames a range also scores before its first (their scores are dropped)
  unsigned after = 0;   // frames it also scores after its last
  unsigned subsample = 1;
  // Why this configuration cannot be split, e.g. a whole-clip metric ("": it can).
  std::string unsplittable;
  // The first frame of the session that scores a range from `begin`:
  // `before` frames earlier (at least 0), moved down to a multiple of
  // subsample so that the session subsamples the same frames.
  unsigned first_frame(unsigned begin) const {
    const unsigned f = begin > before ? begin - before : 0;
    return subsample > 1 ? f - f % subsample : f;
  }
};

// The device backends compiled into this build ("cuda", "opencl"), in the
// order --backend auto tries them.
std::vector<std::string> available_backends();
// One line per device of every built backend: "<backend> <index>: <name>".
std::vector<std::string> list_devices();
// Every feature extractor: outputs, options (type, default, range), the
// backends with a twin (what `vmaf --list-features` prints).
std::string describe_features();
// Whether VMAFX_STATS=1 asks for timing reports (Session::timing_report,
// FrameSource::timing_report); README.md lists the environment variables.
bool stats_requested();

class Session {
 public:
  Session(const PictureFormat& fmt, const SessionConfig& cfg);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // A picture of the session's format to fill (from a bounded pool: blocks
  // while enough pictures are in flight).
  std::shared_ptr<Picture> acquire();
  // Hands over the next frame pair (frames are numbered 0, 1, 2, ...).
  void push(std::shared_ptr<Picture> ref, std::shared_ptr<Picture> dis);
  // Lets readers hold `pictures` more pictures ahead of push() (read-ahead).
  // Call before the first acquire().
  void reserve_read_ahead(unsigned pictures);
  // Gives up: wakes whatever waits in acquire() or push() with an Error.
  void abort(const std::string& why);
  // Worker threads in use (after the automatic choice for threads = 0).
  unsigned threads() const;
  // Where the time went: busy seconds per extractor, device twins, idle
  // workers (text, for VMAFX_STATS=1 and benchmarks).
  std::string timing_report() const;
  // Waits for every frame, flushes temporal extractors and runs the models.
  void finish();

  // Every per-frame score and aggregate metric, in libvmaf's output order
  // (complete after finish()).
  const FeatureCollector& scores() const;
  unsigned frames() const;
  const SessionConfig& config() const;
  std::vector<ModelSummary> summaries() const;
  // "cuda backend on NVIDIA H200; on the CPU: psnr_hvs", or "" for the CPU.
  std::string backend_description() const;
  // Notices for the user (backend fallbacks); empty when there are none.
  const std::vector<std::string>& notices() const;
  // What scoring this configuration's clips in frame ranges needs.
  RangeContext range_context() const;
  // Where a reader may put frames a GPU decoder left in device memory: the
  // CUDA backend's importer when every extractor runs on that backend (no
  // CPU fallback reads the host planes); nullptr otherwise. FrameSource
  // offers it to both readers.
  DeviceImporter* device_importer() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vmafx
