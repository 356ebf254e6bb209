#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/backend.hpp"
#include "core/collector.hpp"
#include "core/feature.hpp"
#include "core/picture.hpp"

namespace vmafx {

struct FeatureRequest {
  std::string extractor;                      // "vif", "adm", "motion", "psnr", ...
  std::map<std::string, std::string> opts;    // option name -> text
};

struct EngineOptions {
  unsigned threads = 0;    // 0: everything on the calling thread
  unsigned subsample = 1;  // non-temporal extractors see every n-th frame
  // Device backend for twins; nullptr = CPU only. Not owned.
  Backend* backend = nullptr;
  // With a backend: an extractor without a twin runs on the CPU (true) or is
  // an Error (false).
  bool cpu_fallback = false;
};

// Runs extractors over frame pairs and fills a FeatureCollector. Frames may be
// extracted in parallel; the collector is filled in frame order and, within a
// frame, in order of registration, so its contents and order never depend on
// the thread count. Memory is bounded: at most max_in_flight() pairs exist.
class Engine {
 public:
  Engine(const PictureFormat& fmt, EngineOptions opts);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Registers (or finds, for identical name + options) an extractor instance.
  // Throws Error on an unknown extractor, a bad option or an unsupported format.
  void use(const FeatureRequest& req);
  // As libvmaf's vmaf_use_features_from_model: the extractor that provides
  // `feature` with `opts`. Returns the output name the feature will have.
  std::string use_feature(const std::string& feature, const std::map<std::string, std::string>& opts);
  // Registers an extractor that need not be in the registry (tests, plug-ins).
  void use(const ExtractorDescriptor& d, const std::map<std::string, std::string>& opts) { instance_for(&d, opts); }

  // A picture to fill; blocks while max_in_flight() pairs are in use.
  std::shared_ptr<Picture> acquire();
  // Hands over frame `index` (0, 1, 2, ... in order).
  void push(std::shared_ptr<Picture> ref, std::shared_ptr<Picture> dis);
  // Waits for all frames and flushes the extractors. Rethrows a worker's Error.
  void finish();

  const FeatureCollector& collector() const { return collector_; }
  FeatureCollector& collector() { return collector_; }
  unsigned frames() const { return next_index_; }
  unsigned max_in_flight() const { return max_in_flight_; }
  // Extractors that run on the CPU although a backend was given (fallbacks).
  const std::vector<std::string>& cpu_fallbacks() const { return fallbacks_; }

 private:
  static constexpr unsigned kAggregate = ~0u;
  struct Record {
    std::string name;
    unsigned index;
    double value;
  };
  struct Instance {
    const ExtractorDescriptor* desc;
    std::string key;     // options key (dedup)
    std::string suffix;  // feature-name suffix
    std::unique_ptr<Extractor> ex;
  };
  struct Frame {
    unsigned index;
    std::shared_ptr<Picture> ref, dis;
    std::vector<std::vector<Record>> records;  // per instance
    bool done = false;
  };
  class Sink;

  Instance& instance_for(const ExtractorDescriptor* d, const std::map<std::string, std::string>& opts);
  void run_frame(Frame& f, bool temporal);
  void worker();
  void commit_ready();  // caller holds mu_
  void commit(const Record& r);
  void rethrow_if_failed();

  PictureFormat fmt_;
  EngineOptions opts_;
  std::vector<Instance> instances_;
  std::vector<std::string> fallbacks_;
  FeatureCollector collector_;
  unsigned next_index_ = 0;
  unsigned max_in_flight_ = 2;
  bool finished_ = false;

  // Picture pool.
  std::vector<std::unique_ptr<Picture>> free_;
  unsigned pictures_out_ = 0;

  // Frames in flight, in index order; workers take from `queue_`.
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Frame>> frames_;
  std::deque<Frame*> queue_;
  std::vector<std::thread> workers_;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace vmafx
