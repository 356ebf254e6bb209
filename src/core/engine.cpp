#include "core/engine.hpp"

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
  for (unsigned i = 0; i < opts_.threads; ++i) workers_.emplace_back([this] { worker(); });
}

Engine::~Engine() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

Engine::Instance& Engine::instance_for(const ExtractorDescriptor* d,
                                       const std::map<std::string, std::string>& given) {
  OptionSet set(d->options, given, d->name);
  for (Instance& in : instances_)
    if (in.desc == d && in.key == set.key()) return in;
  if (next_index_ > 0) throw std::logic_error("Engine::use after the first frame");
  std::unique_ptr<Extractor> ex;
  if (opts_.backend) {
    ex = opts_.backend->create_twin(*d, set, fmt_);
    if (!ex) {
      // The reference's own refusal (size, depth, option) is the better message.
      if (!opts_.cpu_fallback) d->create(set, fmt_);
      if (!opts_.cpu_fallback)
        throw Error(std::string(d->name) + ": no " + std::string(opts_.backend->name()) +
                    " twin for this extractor (use --backend cpu or auto)");
      fallbacks_.emplace_back(d->name);
    }
  }
  if (!ex) ex = d->create(set, fmt_);
  instances_.push_back({d, set.key(), set.name_suffix(), std::move(ex)});
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

std::shared_ptr<Picture> Engine::acquire() {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return pictures_out_ < 2 * max_in_flight_ || error_; });
  rethrow_if_failed();
  std::unique_ptr<Picture> p;
  if (!free_.empty()) {
    p = std::move(free_.back());
    free_.pop_back();
  } else {
    p = std::make_unique<Picture>(fmt_, opts_.backend ? opts_.backend->host_allocator() : nullptr);
  }
  ++pictures_out_;
  return std::shared_ptr<Picture>(p.release(), [this](Picture* q) {
    std::lock_guard lk2(mu_);
    free_.emplace_back(q);
    --pictures_out_;
    cv_.notify_all();
  });
}

void Engine::run_frame(Frame& f, bool temporal) {
  auto runs = [&](const Instance& in) {
    const bool is_temporal = in.desc->flags & kTemporal;
    if (is_temporal != temporal) return false;
    return is_temporal || opts_.subsample <= 1 || f.index % opts_.subsample == 0;
  };
  // Device twins enqueue first (their work queues back to back), then every
  // extractor finishes in registration order.
  for (Instance& in : instances_)
    if (runs(in)) in.ex->submit(*f.ref, *f.dis, f.index);
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    Instance& in = instances_[i];
    if (!runs(in)) continue;
    Sink sink(f.records[i], in.suffix);
    in.ex->extract(*f.ref, *f.dis, f.index, sink);
  }
}

void Engine::push(std::shared_ptr<Picture> ref, std::shared_ptr<Picture> dis) {
  if (finished_) throw std::logic_error("Engine::push after finish");
  auto frame = std::make_unique<Frame>();
  frame->index = next_index_++;
  frame->ref = std::move(ref);
  frame->dis = std::move(dis);
  frame->records.resize(instances_.size());
  Frame* f = frame.get();

  // Temporal extractors run here, in frame order, as libvmaf runs them.
  run_frame(*f, true);
  if (workers_.empty()) {
    run_frame(*f, false);
    f->done = true;
    std::lock_guard lk(mu_);
    frames_.push_back(std::move(frame));
    commit_ready();
    rethrow_if_failed();
    return;
  }
  {
    std::lock_guard lk(mu_);
    rethrow_if_failed();
    frames_.push_back(std::move(frame));
    queue_.push_back(f);
  }
  cv_.notify_all();
}

void Engine::worker() {
  for (;;) {
    Frame* f = nullptr;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
      if (stop_ && queue_.empty()) return;
      f = queue_.front();
      queue_.pop_front();
    }
    std::exception_ptr err;
    try {
      run_frame(*f, false);
    } catch (...) {
      err = std::current_exception();
    }
    std::lock_guard lk(mu_);
    if (err && !error_) error_ = err;
    f->done = true;
    commit_ready();
    cv_.notify_all();
  }
}

void Engine::commit_ready() {
  while (!frames_.empty() && frames_.front()->done) {
    std::unique_ptr<Frame> f = std::move(frames_.front());
    frames_.pop_front();
    if (!error_) {
      try {
        for (auto& recs : f->records)
          for (Record& r : recs) commit(r);
      } catch (...) {
        error_ = std::current_exception();
      }
    }
    // Pictures go back to the pool as `f` dies; the pool's deleter takes mu_,
    // which we hold, so release them after unlocking.
    auto ref = std::move(f->ref);
    auto dis = std::move(f->dis);
    f.reset();
    mu_.unlock();
    ref.reset();
    dis.reset();
    mu_.lock();
  }
}

void Engine::rethrow_if_failed() {
  if (error_) std::rethrow_exception(error_);
}

void Engine::finish() {
  if (finished_) return;
  {
    std::unique_lock lk(mu_);
    cv_.wait(lk, [&] { return frames_.empty() || error_; });
    rethrow_if_failed();
  }
  finished_ = true;
  std::vector<Record> recs;
  for (Instance& in : instances_) {
    recs.clear();
    Sink sink(recs, in.suffix);
    in.ex->flush(sink);
    for (Record& r : recs) commit(r);
  }
}

void Engine::commit(const Record& r) {
  if (r.index == kAggregate)
    collector_.append_aggregate(r.name, r.value);
  else
    collector_.append(r.name, r.index, r.value);
}

}  // namespace vmafx
