// SPDX-License-Identifier: BSD-3-Clause
#include "core/engine.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "core/clock.hpp"
#include "core/error.hpp"

namespace vmafx {

class Engine::Sink final : public FeatureSink {
 public:
  Sink(std::vector<Record>& out, const std::string& suffix) : out_(out), suffix_(suffix) {}
  void put(std::string_view name, unsigned index, double value) override {
    std::string n(feature_alias(name));
    n += suffix_;
    out_.push_back({std::move(n), index, value});
  }
  void put_plain(std::string_view name, unsigned index, double value) override {
    out_.push_back({std::string(feature_alias(name)), index, value});
  }
  void put_aggregate(std::string_view name, double value) override {
    out_.push_back({std::string(name), kAggregate, value});
  }

 private:
  std::vector<Record>& out_;
  const std::string& suffix_;
};

Engine::Engine(const PictureFormat& fmt, EngineOptions opts) : fmt_(fmt), opts_(opts) {
  if (opts_.subsample == 0) opts_.subsample = 1;
  max_in_flight_ = opts_.threads + 2;
}

Engine::~Engine() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  work_cv_.notify_all();
  seq_cv_.notify_all();
  for (auto& t : workers_) t.join();
  if (sequencer_.joinable()) sequencer_.join();
  recent_.clear();
  frames_.clear();
}

Engine::Instance& Engine::instance_for(const ExtractorDescriptor* d, const std::map<std::string, std::string>& given) {
  std::map<std::string, std::string> with_cpu;
  const std::map<std::string, std::string>* opts = &given;
  if (!opts_.libvmaf_cpu.empty() && !given.contains("libvmaf_cpu") &&
      std::any_of(d->options.begin(), d->options.end(), [](const OptionSpec& o) { return o.name == "libvmaf_cpu"; })) {
    with_cpu = given;
    with_cpu["libvmaf_cpu"] = opts_.libvmaf_cpu;
    opts = &with_cpu;
  }
  OptionSet set(d->options, *opts, d->name);
  // One instance per extractor and feature names, as libvmaf registers them:
  // a later request whose options name the same features (say vif=debug=true
  // beside a model's vif) is served by the first instance, options and all.
  for (Instance& in : instances_)
    if (in.desc == d && in.suffix == set.name_suffix()) return in;
  if (started_) throw std::logic_error("Engine::use after the first acquire or push");
  std::unique_ptr<Extractor> ex;
  bool twin = false;
  if (opts_.backend) {
    ex = opts_.backend->create_twin(*d, set, fmt_);
    twin = ex != nullptr;
    if (!ex) {
      // The reference's own refusal (size, depth, option) is the better message.
      if (!opts_.cpu_fallback) d->create(set, fmt_);
      if (!opts_.cpu_fallback)
        throw Error(std::string(d->name) + ": no " + std::string(opts_.backend->name()) +
                    " twin for this extractor (use the cpu or auto backend)");
      fallbacks_.emplace_back(d->name);
    }
  }
  if (!ex) ex = d->create(set, fmt_);
  Instance in{d, set.name_suffix(), std::move(ex)};
  in.history = std::min(in.ex->history(), Earlier::kMax);
  in.reach = vmafx::range_reach(*d, set);
  const bool ordered = (d->flags & kTemporal) && !in.ex->frame_parallel();
  in.kind = ordered ? Kind::kSequential : twin ? Kind::kDevice : Kind::kCpu;
  instances_.push_back(std::move(in));
  return instances_.back();
}

void Engine::use(const FeatureRequest& req) {
  const ExtractorDescriptor* d = find_extractor(req.extractor);
  if (!d) {
    std::string known;
    for (const ExtractorDescriptor* e : all_extractors()) known += (known.empty() ? "" : ", ") + std::string(e->name);
    throw Error("unknown feature extractor '" + req.extractor + "' (available: " + known + ")");
  }
  instance_for(d, req.opts);
}

std::string Engine::use_feature(const std::string& feature, const std::map<std::string, std::string>& opts) {
  const ExtractorDescriptor* d = find_extractor_by_feature(feature);
  if (!d) throw Error("no feature extractor provides '" + feature + "'");
  Instance& in = instance_for(d, opts);
  return std::string(feature_alias(feature)) + in.suffix;
}

void Engine::set_threads(unsigned threads) {
  std::lock_guard lk(mu_);
  if (started_) throw std::logic_error("Engine::set_threads after the first acquire or push");
  opts_.threads = threads;
  max_in_flight_ = threads + 2;
}

RangeReach Engine::range_reach() const {
  RangeReach r;
  for (const Instance& in : instances_) {
    r.before = std::max(r.before, in.reach.before);
    r.after = std::max(r.after, in.reach.after);
    if (r.unsplittable.empty()) r.unsplittable = in.reach.unsplittable;
  }
  return r;
}

unsigned Engine::cpu_instances() const {
  unsigned n = 0;
  for (const Instance& in : instances_) n += in.kind == Kind::kCpu;
  return n;
}

void Engine::reserve_read_ahead(unsigned pictures) {
  std::lock_guard lk(mu_);
  if (started_) throw std::logic_error("Engine::reserve_read_ahead after the first acquire or push");
  read_ahead_ += pictures;
}

unsigned Engine::picture_limit() const { return 2 * (max_in_flight_ + history_) + read_ahead_; }

// Called with mu_ held, once, before the first picture or frame.
void Engine::start() {
  if (started_) return;
  started_ = true;
  for (const Instance& in : instances_) {
    history_ = std::max(history_, in.history);
    has_device_ |= in.kind == Kind::kDevice;
    has_sequential_ |= in.kind == Kind::kSequential;
  }
  busy_ns_.assign(instances_.size() + 2, 0);
  if (opts_.threads == 0) return;
  device_lanes_ = opts_.device_lanes;
  if (device_lanes_ == 0) device_lanes_ = opts_.backend ? opts_.backend->preferred_lanes(fmt_) : 1;
  device_lanes_ = std::clamp(device_lanes_, 1u, opts_.threads);
  for (unsigned i = 0; i < opts_.threads; ++i) workers_.emplace_back([this] { worker(); });
  if (has_sequential_) sequencer_ = std::thread([this] { sequencer(); });
}

std::shared_ptr<Picture> Engine::acquire() {
  std::unique_lock lk(mu_);
  start();
  cv_.wait(lk, [&] { return pictures_out_ < picture_limit() || error_; });
  rethrow_if_failed();
  std::unique_ptr<Picture> p;
  if (!free_.empty()) {
    p = std::move(free_.back());
    free_.pop_back();
  }
  ++pictures_out_;
  lk.unlock();
  if (p) p->clear_device_copy();  // a pool picture comes back as host memory to fill
  if (!p) {
    try {
      p = std::make_unique<Picture>(fmt_, opts_.backend ? opts_.backend->host_allocator() : nullptr);
    } catch (...) {
      std::lock_guard lk2(mu_);
      --pictures_out_;
      cv_.notify_all();
      throw;
    }
  }
  return std::shared_ptr<Picture>(p.release(), [this](Picture* q) {
    std::lock_guard lk2(mu_);
    free_.emplace_back(q);
    --pictures_out_;
    cv_.notify_all();
  });
}

bool Engine::runs(const Instance& in, unsigned index) const {
  return (in.desc->flags & kTemporal) || opts_.subsample <= 1 || index % opts_.subsample == 0;
}

void Engine::run_instance(Frame& f, std::size_t i) {
  Instance& in = instances_[i];
  Sink sink(f.records[i], in.suffix);
  if (in.history == 0) {
    in.ex->extract(*f.ref, *f.dis, f.index, sink);
    return;
  }
  Earlier e;
  e.count = unsigned(std::min<std::size_t>(in.history, f.earlier_ref.size()));
  for (unsigned k = 0; k < e.count; ++k) {
    e.ref[k] = f.earlier_ref[k].get();
    e.dis[k] = f.earlier_dis[k].get();
  }
  in.ex->extract_with(*f.ref, *f.dis, e, f.index, sink);
}

// Device twins enqueue first (their work queues back to back on this
// thread's stream), then each finishes, in registration order.
void Engine::run_device_group(Frame& f) {
  for (Instance& in : instances_)
    if (in.kind == Kind::kDevice && runs(in, f.index)) in.ex->submit(*f.ref, *f.dis, f.index);
  for (std::size_t i = 0; i < instances_.size(); ++i)
    if (instances_[i].kind == Kind::kDevice && runs(instances_[i], f.index)) run_instance(f, i);
}

void Engine::run_task(const Task& t) {
  if (t.instance < 0)
    run_device_group(*t.frame);
  else
    run_instance(*t.frame, std::size_t(t.instance));
}

void Engine::push(std::shared_ptr<Picture> ref, std::shared_ptr<Picture> dis) {
  if (finished_) throw std::logic_error("Engine::push after finish");
  {
    std::lock_guard lk(mu_);
    start();
    rethrow_if_failed();
  }
  auto frame = std::make_unique<Frame>();
  Frame* f = frame.get();
  f->index = next_index_++;
  f->ref = std::move(ref);
  f->dis = std::move(dis);
  f->records.resize(instances_.size());
  if (history_ > 0) {
    for (const auto& [r, d] : recent_) {
      f->earlier_ref.push_back(r);
      f->earlier_dis.push_back(d);
    }
    recent_.emplace_front(f->ref, f->dis);
    if (recent_.size() > history_) recent_.pop_back();
  }

  if (workers_.empty()) {
    // Everything here, in order: the ordered instances, the device twins,
    // then the CPU extractors.
    std::exception_ptr err;
    try {
      for (std::size_t i = 0; i < instances_.size(); ++i)
        if (instances_[i].kind == Kind::kSequential && runs(instances_[i], f->index)) run_instance(*f, i);
      if (has_device_) run_device_group(*f);
      for (std::size_t i = 0; i < instances_.size(); ++i)
        if (instances_[i].kind == Kind::kCpu && runs(instances_[i], f->index)) run_instance(*f, i);
    } catch (...) {
      err = std::current_exception();
    }
    std::unique_lock lk(mu_);
    if (err && !error_) error_ = err;
    frames_.push_back(std::move(frame));
    commit_ready(lk);
    rethrow_if_failed();
    return;
  }

  bool any_device = false, any_sequential = false;
  std::vector<Task> cpu;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    const Instance& in = instances_[i];
    if (!runs(in, f->index)) continue;
    if (in.kind == Kind::kDevice) any_device = true;
    if (in.kind == Kind::kSequential) any_sequential = true;
    if (in.kind == Kind::kCpu) cpu.push_back({f, int(i)});
  }
  f->pending = unsigned(cpu.size()) + (any_device ? 1 : 0) + (any_sequential ? 1 : 0);
  {
    std::unique_lock lk(mu_);
    rethrow_if_failed();
    frames_.push_back(std::move(frame));
    if (f->pending == 0) {
      commit_ready(lk);
      return;
    }
    for (const Task& t : cpu) cpu_tasks_.push_back(t);
    if (any_device) device_tasks_.push_back({f, -1});
    if (any_sequential) seq_queue_.push_back(f);
  }
  work_cv_.notify_all();
  if (any_sequential) seq_cv_.notify_one();
}

void Engine::worker() {
  std::unique_lock lk(mu_);
  for (;;) {
    const bool device_ok = !device_tasks_.empty() && device_busy_ < device_lanes_;
    if (stop_) return;
    if (!device_ok && cpu_tasks_.empty()) {
      const std::int64_t t0 = now_ns();
      work_cv_.wait(lk);
      idle_ns_ += now_ns() - t0;
      continue;
    }
    // The oldest frame's work first, so that frames complete (and give their
    // pictures back) in order.
    Task t;
    if (device_ok && (cpu_tasks_.empty() || device_tasks_.front().frame->index <= cpu_tasks_.front().frame->index)) {
      t = device_tasks_.front();
      device_tasks_.pop_front();
      ++device_busy_;
    } else {
      t = cpu_tasks_.front();
      cpu_tasks_.pop_front();
    }
    const bool skip = error_ != nullptr;  // failing: finish frames quickly
    lk.unlock();
    std::exception_ptr err;
    const std::int64_t t0 = now_ns();
    if (!skip) {
      try {
        run_task(t);
      } catch (...) {
        err = std::current_exception();
      }
    }
    const std::int64_t spent = now_ns() - t0;
    lk.lock();
    busy_ns_[t.instance < 0 ? instances_.size() : std::size_t(t.instance)] += spent;
    if (t.instance < 0) {
      --device_busy_;
      if (!device_tasks_.empty()) work_cv_.notify_one();
    }
    task_done(*t.frame, err, lk);
  }
}

void Engine::sequencer() {
  std::unique_lock lk(mu_);
  for (;;) {
    seq_cv_.wait(lk, [&] { return stop_ || !seq_queue_.empty(); });
    if (stop_) return;
    Frame* f = seq_queue_.front();
    seq_queue_.pop_front();
    if (!f) {  // finish(): flush the ordered instances here
      lk.unlock();
      std::exception_ptr err;
      std::vector<std::vector<Record>> out(instances_.size());
      try {
        for (std::size_t i = 0; i < instances_.size(); ++i) {
          if (instances_[i].kind != Kind::kSequential) continue;
          Sink sink(out[i], instances_[i].suffix);
          instances_[i].ex->flush(sink);
        }
      } catch (...) {
        err = std::current_exception();
      }
      lk.lock();
      if (err && !error_) error_ = err;
      seq_flushed_ = std::move(out);
      seq_flush_done_ = true;
      cv_.notify_all();
      continue;
    }
    const bool skip = error_ != nullptr;
    lk.unlock();
    std::exception_ptr err;
    const std::int64_t t0 = now_ns();
    if (!skip) {
      try {
        for (std::size_t i = 0; i < instances_.size(); ++i)
          if (instances_[i].kind == Kind::kSequential && runs(instances_[i], f->index)) run_instance(*f, i);
      } catch (...) {
        err = std::current_exception();
      }
    }
    const std::int64_t spent = now_ns() - t0;
    lk.lock();
    busy_ns_[instances_.size() + 1] += spent;
    task_done(*f, err, lk);
  }
}

void Engine::task_done(Frame& f, std::exception_ptr err, std::unique_lock<std::mutex>& lk) {
  if (err && !error_) error_ = err;
  if (err) {
    work_cv_.notify_all();
    seq_cv_.notify_all();
  }
  if (--f.pending == 0) commit_ready(lk);
  cv_.notify_all();
}

void Engine::commit_ready(std::unique_lock<std::mutex>& lk) {
  while (!frames_.empty() && frames_.front()->pending == 0) {
    std::unique_ptr<Frame> f = std::move(frames_.front());
    frames_.pop_front();
    if (first_done_ns_ == 0) first_done_ns_ = now_ns();
    if (!error_) {
      try {
        for (auto& recs : f->records)
          for (Record& r : recs) commit(r);
      } catch (...) {
        error_ = std::current_exception();
      }
    }
    // The frame's pictures go back to the pool as it dies; the pool's deleter
    // takes mu_, so let go of it meanwhile.
    lk.unlock();
    f.reset();
    lk.lock();
  }
  cv_.notify_all();
}

void Engine::rethrow_if_failed() {
  if (error_) std::rethrow_exception(error_);
}

void Engine::abort(const std::string& why) {
  {
    std::lock_guard lk(mu_);
    if (!error_) error_ = std::make_exception_ptr(Error(why));
  }
  cv_.notify_all();
  work_cv_.notify_all();
  seq_cv_.notify_all();
}

void Engine::finish() {
  if (finished_) return;
  {
    std::unique_lock lk(mu_);
    start();
    cv_.wait(lk, [&] { return frames_.empty() || error_; });
    rethrow_if_failed();
  }
  if (sequencer_.joinable()) {
    std::unique_lock lk(mu_);
    seq_queue_.push_back(nullptr);
    seq_cv_.notify_one();
    cv_.wait(lk, [&] { return seq_flush_done_ || error_; });
    rethrow_if_failed();
  }
  finished_ = true;
  recent_.clear();
  std::vector<Record> recs;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    Instance& in = instances_[i];
    recs.clear();
    if (in.kind == Kind::kSequential && sequencer_.joinable()) {
      recs = std::move(seq_flushed_[i]);
    } else {
      Sink sink(recs, in.suffix);
      in.ex->flush(sink);
    }
    for (Record& r : recs) commit(r);
  }
}

void Engine::commit(const Record& r) {
  if (r.index == kAggregate)
    collector_.append_aggregate(r.name, r.value);
  else
    collector_.append(r.name, r.index, r.value);
}

namespace {
// now_ns() at the process's start (exec), from /proc/self/stat's start time
// (clock ticks since boot: 10 ms steps); 0 when it cannot be read.
std::int64_t process_start_ns() {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (!f) return 0;
  char buf[1024];
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* p = std::strrchr(buf, ')');  // the command name may hold spaces
  if (!p) return 0;
  // Fields from the state (3rd) on; the start time is the 22nd.
  unsigned long long start = 0;
  int field = 2;
  for (const char* q = p + 1; *q && field < 22; ++q)
    if (*q == ' ') {
      ++field;
      if (field == 22) start = std::strtoull(q + 1, nullptr, 10);
    }
  timespec boot{};
  if (start == 0 || ::clock_gettime(CLOCK_BOOTTIME, &boot) != 0) return 0;
  const std::int64_t since_boot = std::int64_t(boot.tv_sec) * 1000000000 + boot.tv_nsec;
  const std::int64_t started = std::int64_t(start) * (1000000000 / ::sysconf(_SC_CLK_TCK));
  return now_ns() - (since_boot - started);
}
}  // namespace

std::string Engine::timing_report() const {
  std::string out;
  char buf[256];
  auto line = [&](const std::string& what, std::int64_t ns) {
    std::snprintf(buf, sizeof buf, "  %-28s %9.3f s\n", what.c_str(), double(ns) * 1e-9);
    out += buf;
  };
  std::snprintf(buf, sizeof buf, "engine: %u workers, %u device lanes, %u frames; busy time:\n", opts_.threads,
                device_lanes_, next_index_);
  out += buf;
  if (busy_ns_.size() != instances_.size() + 2) return out;
  for (std::size_t i = 0; i < instances_.size(); ++i)
    if (instances_[i].kind == Kind::kCpu)
      line(std::string(instances_[i].desc->name) + instances_[i].suffix + " (cpu)", busy_ns_[i]);
  if (has_device_) {
    std::string names;
    for (const Instance& in : instances_)
      if (in.kind == Kind::kDevice) names += (names.empty() ? "" : "+") + std::string(in.desc->name);
    line(names + " (device)", busy_ns_[instances_.size()]);
  }
  if (has_sequential_) line("sequencer", busy_ns_[instances_.size() + 1]);
  line("workers idle", idle_ns_);
  if (const std::int64_t start = process_start_ns(); first_done_ns_ && start) {
    // From the process's start (exec) to the first frame scored: start-up.
    std::snprintf(buf, sizeof buf, "  %-28s %9.3f s\n", "first frame scored after exec",
                  double(first_done_ns_ - start) * 1e-9);
    out += buf;
  }
  // The process's CPU time so far: far above the workers' busy time when
  // something spins (a driver waiting for the device, a lock).
  if (rusage ru{}; ::getrusage(RUSAGE_SELF, &ru) == 0) {
    auto sec = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
    std::snprintf(buf, sizeof buf, "  %-28s %9.3f s user, %.3f s system\n", "process CPU time", sec(ru.ru_utime),
                  sec(ru.ru_stime));
    out += buf;
    // The peak resident set in kB, as the kernel counts it (what
    // scripts/rss-check.sh prints): pinned host buffers and read-ahead
    // pictures included, so a GPU run's host memory shows here.
    std::snprintf(buf, sizeof buf, "  %-28s %9ld kB\n", "peak resident memory", long(ru.ru_maxrss));
    out += buf;
  }
  return out;
}

}  // namespace vmafx
