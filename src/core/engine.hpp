// SPDX-License-Identifier: BSD-3-Clause
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
#include "vmaf_exact/collector.hpp"
#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

struct FeatureRequest {
  std::string extractor;                    // "vif", "adm", "motion", "psnr", ...
  std::map<std::string, std::string> opts;  // option name -> text
};

struct EngineOptions {
  // Worker threads. 0: everything runs on the calling thread, inside push().
  unsigned threads = 0;
  unsigned subsample = 1;  // non-temporal extractors see every n-th frame
  // Device backend for twins; nullptr = CPU only. Not owned.
  Backend* backend = nullptr;
  // With a backend: an extractor without a twin runs on the CPU (true) or is
  // an Error (false).
  bool cpu_fallback = false;
  // Frames whose device twins may run at once (each on its own worker, with
  // its own stream / queue); 0 = the backend's preference. Workers not busy
  // with device work run the CPU extractors.
  unsigned device_lanes = 0;
  // Non-empty: the value of the option libvmaf_cpu of every extractor that has
  // one (float_adm) where the request does not give it (Session sets it).
  std::string libvmaf_cpu;
};

// Runs extractors over frame pairs and fills a FeatureCollector.
//
// Scheduling (threads > 0). Each pushed frame becomes tasks that the workers
// take oldest frame first: one task per CPU extractor instance, and one task
// holding all of the frame's device twins (submitted together, then
// extracted, on one worker; at most device_lanes such tasks at once).
// Instances that must see frames in order from one thread (temporal
// extractors that keep state, e.g. the GPU motion twins) run on a separate
// sequencing thread, frame after frame, as soon as a frame is pushed.
// Temporal extractors that instead read earlier frames' pictures (history(),
// e.g. the CPU motion) run in parallel like the others: the engine keeps
// those pictures alive. Records are buffered per (frame, instance) and
// committed in frame order, then instance order, so the collector's contents
// and order never depend on the thread count.
//
// Memory is bounded: at most picture_limit() pictures exist.
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

  // Changes the worker count (before the first acquire or push), e.g. once
  // the instances show which run on a device.
  void set_threads(unsigned threads);
  // How many registered instances run on the CPU, on a device, in order.
  unsigned cpu_instances() const;

  // Pictures that readers may hold ahead of push() beyond the frames in
  // flight (read-ahead); raises picture_limit(). Call before the first acquire.
  void reserve_read_ahead(unsigned pictures);

  // A picture to fill; blocks while picture_limit() pictures are in use.
  // Safe to call from several threads. Rethrows a worker's Error.
  std::shared_ptr<Picture> acquire();
  // Hands over frame `index` (0, 1, 2, ... in order). Blocks while too many
  // frames are in flight.
  void push(std::shared_ptr<Picture> ref, std::shared_ptr<Picture> dis);
  // Waits for all frames and flushes the extractors. Rethrows a worker's Error.
  void finish();
  // Wakes everything blocked in acquire()/push() with an Error (the caller
  // gave up, e.g. a reader failed). Idempotent.
  void abort(const std::string& why);

  const FeatureCollector& collector() const { return collector_; }
  FeatureCollector& collector() { return collector_; }
  unsigned frames() const { return next_index_; }
  unsigned max_in_flight() const { return max_in_flight_; }
  unsigned picture_limit() const;
  unsigned threads() const { return opts_.threads; }
  // The frames a clip range must score around it (the largest reach of any
  // instance; the first instance's reason when one cannot be split).
  RangeReach range_reach() const;
  // Extractors that run on the CPU although a backend was given (fallbacks).
  const std::vector<std::string>& cpu_fallbacks() const { return fallbacks_; }
  // Where the time went (VMAFX_STATS=1 prints it): seconds each instance,
  // the device twins and the sequencer were busy, and how long workers idled.
  std::string timing_report() const;

 private:
  static constexpr unsigned kAggregate = ~0u;
  struct Record {
    std::string name;
    unsigned index;
    double value;
  };
  enum class Kind { kCpu, kDevice, kSequential };
  struct Instance {
    const ExtractorDescriptor* desc;
    std::string suffix;  // feature-name suffix (one instance per extractor and suffix)
    std::unique_ptr<Extractor> ex;
    Kind kind = Kind::kCpu;
    unsigned history = 0;
    RangeReach reach;
  };
  struct Frame {
    unsigned index = 0;
    std::shared_ptr<Picture> ref, dis;
    // Pictures of the frames before (earlier[0] = index - 1), for history().
    std::vector<std::shared_ptr<Picture>> earlier_ref, earlier_dis;
    std::vector<std::vector<Record>> records;  // per instance
    unsigned pending = 0;                      // tasks not done yet
  };
  struct Task {
    Frame* frame;
    int instance;  // -1: the frame's device twins
  };
  class Sink;

  Instance& instance_for(const ExtractorDescriptor* d, const std::map<std::string, std::string>& opts);
  void start();  // on the first push: workers, lanes, history
  bool runs(const Instance& in, unsigned index) const;
  void run_instance(Frame& f, std::size_t i);
  void run_device_group(Frame& f);
  void run_task(const Task& t);
  void worker();
  void sequencer();
  void task_done(Frame& f, std::exception_ptr err, std::unique_lock<std::mutex>& lk);  // holds mu_
  void commit_ready(std::unique_lock<std::mutex>& lk);                                 // caller holds mu_
  void commit(const Record& r);
  void rethrow_if_failed();

  PictureFormat fmt_;
  EngineOptions opts_;
  std::vector<Instance> instances_;
  std::vector<std::string> fallbacks_;
  FeatureCollector collector_;
  unsigned next_index_ = 0;
  unsigned max_in_flight_ = 2;
  unsigned history_ = 0;     // most earlier frames any instance reads
  unsigned read_ahead_ = 0;  // pictures readers may hold
  unsigned device_lanes_ = 0;
  bool has_device_ = false, has_sequential_ = false;
  bool started_ = false, finished_ = false;

  // Picture pool.
  std::vector<std::unique_ptr<Picture>> free_;
  unsigned pictures_out_ = 0;

  // The last history_ frames' pictures, newest first.
  std::deque<std::pair<std::shared_ptr<Picture>, std::shared_ptr<Picture>>> recent_;

  std::mutex mu_;
  std::condition_variable cv_;                 // pool, frame completion, errors
  std::condition_variable work_cv_;            // workers: new tasks
  std::condition_variable seq_cv_;             // sequencer: new frames
  std::deque<std::unique_ptr<Frame>> frames_;  // in flight, index order
  std::deque<Task> cpu_tasks_, device_tasks_;
  std::deque<Frame*> seq_queue_;  // nullptr: flush the ordered instances
  // What the ordered instances' flush wrote, on the sequencing thread (the
  // thread that made every other call to them: twins keep per-thread state).
  std::vector<std::vector<Record>> seq_flushed_;
  bool seq_flush_done_ = false;
  unsigned device_busy_ = 0;
  // Busy nanoseconds per instance, then the device groups, the sequencer;
  // workers' idle time. Updated under mu_.
  std::vector<std::int64_t> busy_ns_;
  std::int64_t idle_ns_ = 0;
  std::int64_t first_done_ns_ = 0;  // now_ns() when the first frame was committed
  std::vector<std::thread> workers_;
  std::thread sequencer_;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace vmafx
