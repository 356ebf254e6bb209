// SPDX-License-Identifier: BSD-3-Clause
// LadderSource: one reference, read (decoded) once, against several
// renditions; each rendition is read on its own thread into its own
// session's pictures, the reference's pictures are shared by every session.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "core/env.hpp"
#include "core/error.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {

namespace {

// A reader thread that reads a clip ahead into pictures of one session.
class ReadAhead {
 public:
  struct Item {
    std::shared_ptr<Picture> pic;  // null: end of clip (or error)
    std::exception_ptr error;
  };
  ReadAhead(VideoReader& r, Session& pool, unsigned skip, unsigned max_frames, unsigned depth)
      : reader_(r), pool_(pool), skip_(skip), max_(max_frames), depth_(depth) {}
  ~ReadAhead() { stop(); }
  void start() {
    thread_ = std::thread([this] { run(); });
  }
  void stop() {
    std::deque<Item> drop;
    {
      std::lock_guard lk(mu_);
      stop_ = true;
      drop.swap(queue_);
    }
    cv_.notify_all();
    drop.clear();  // gives pictures back: wakes a reader waiting for the pool
    if (thread_.joinable()) thread_.join();
  }
  // The next item; an end or an error stays at the head.
  Item pop() {
    std::unique_lock lk(mu_);
    cv_.wait(lk, [&] { return !queue_.empty(); });
    if (!queue_.front().pic) return queue_.front();
    Item it = std::move(queue_.front());
    queue_.pop_front();
    cv_.notify_all();
    return it;
  }
  VideoReader& reader() { return reader_; }

 private:
  void put(Item it) {
    std::lock_guard lk(mu_);
    if (!stop_) queue_.push_back(std::move(it));
    cv_.notify_all();
  }
  void run() {
    try {
      if (skip_) {
        auto scratch = pool_.acquire();
        for (unsigned i = 0; i < skip_; ++i)
          if (!reader_.skip(*scratch))
            throw input_error(reader_.path() + ": has only " + std::to_string(i) + " frames, cannot skip " +
                              std::to_string(skip_));
      }
      for (unsigned n = 0; max_ == 0 || n < max_; ++n) {
        {
          std::unique_lock lk(mu_);
          cv_.wait(lk, [&] { return stop_ || queue_.size() < depth_; });
          if (stop_) return;
        }
        auto pic = pool_.acquire();
        if (!reader_.read(*pic)) break;
        put({std::move(pic), nullptr});
      }
      put({});
    } catch (...) {
      put({nullptr, std::current_exception()});
    }
  }

  VideoReader& reader_;
  Session& pool_;
  unsigned skip_, max_, depth_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;
  bool stop_ = false;
  std::thread thread_;
};

std::string error_text(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  }
}

}  // namespace

struct LadderSource::Impl {
  VideoReader* ref;
  std::vector<Rendition> rends;
  Options opts;
};

LadderSource::LadderSource(VideoReader& ref, std::vector<Rendition> renditions, Options opts)
    : impl_(std::make_unique<Impl>(Impl{&ref, std::move(renditions), opts})) {
  if (impl_->rends.empty()) throw Error("a ladder needs at least one rendition");
  if (impl_->opts.depth == 0) impl_->opts.depth = 1;
}

LadderSource::~LadderSource() = default;

std::vector<LadderSource::Outcome> LadderSource::run(const std::function<void(unsigned)>& progress) {
  Impl& m = *impl_;
  const std::size_t n = m.rends.size();
  // Reference frames each rendition starts at, relative to the first one read.
  unsigned lead = ~0u, spread = 0;
  for (const Rendition& r : m.rends) lead = std::min(lead, unsigned(r.offset < 0 ? -r.offset : 0));
  std::vector<unsigned> start(n);
  for (std::size_t k = 0; k < n; ++k) {
    start[k] = unsigned(m.rends[k].offset < 0 ? -m.rends[k].offset : 0) - lead;
    spread = std::max(spread, start[k]);
  }
  const unsigned depth = m.opts.depth;
  // The reference's pictures come from the first rendition's session; they
  // are held by every session, read ahead, and kept for the rendition that
  // starts latest (spread).
  Session& pool = *m.rends[0].session;
  pool.reserve_read_ahead(2 * (depth + 1) + spread + 2);
  for (std::size_t k = 1; k < n; ++k) m.rends[k].session->reserve_read_ahead(depth + 2);
  const unsigned ref_max = m.opts.max_frames ? m.opts.max_frames + spread : 0;
  ReadAhead refq(*m.ref, pool, m.opts.skip_ref + lead, ref_max, depth + spread);
  std::vector<std::unique_ptr<ReadAhead>> disq;
  for (std::size_t k = 0; k < n; ++k) {
    const Rendition& r = m.rends[k];
    disq.push_back(std::make_unique<ReadAhead>(*r.reader, *r.session, m.opts.skip_dis + unsigned(std::max(0, r.offset)),
                                               m.opts.max_frames, depth));
  }
  // Frames a GPU decoder made stay on that GPU when every extractor of every
  // session runs there (the reference's pictures go to every session).
  if (!env::hwdec_host()) {
    bool all = true;
    for (const Rendition& r : m.rends) all = all && r.session->device_importer() != nullptr;
    if (all) {
      m.ref->use_device_importer(pool.device_importer());
      for (const Rendition& r : m.rends) r.reader->use_device_importer(r.session->device_importer());
    }
  }
  refq.start();
  for (auto& q : disq) q->start();

  std::vector<Outcome> out(n);
  std::vector<bool> active(n, true);
  std::deque<std::shared_ptr<Picture>> window;  // reference frames [wbase, wbase + size)
  unsigned wbase = 0;
  bool ref_ended = false;
  std::exception_ptr ref_error;
  // Reference frame `i` (relative), or null once the reference has ended.
  auto ref_frame = [&](unsigned i) -> std::shared_ptr<Picture> {
    while (!ref_ended && i >= wbase + window.size()) {
      ReadAhead::Item it = refq.pop();
      if (it.error) {
        ref_error = it.error;
        ref_ended = true;
      } else if (!it.pic) {
        ref_ended = true;
      } else {
        window.push_back(std::move(it.pic));
      }
    }
    return i < wbase + window.size() ? window[i - wbase] : nullptr;
  };
  auto fail = [&](std::size_t k, std::string why) {
    out[k].error = std::move(why);
    active[k] = false;
    disq[k]->stop();
  };
  std::size_t live = n;
  for (unsigned i = 0; live > 0; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      if (!active[k]) continue;
      if (m.opts.max_frames && out[k].frames == m.opts.max_frames) {
        active[k] = false;
        --live;
        continue;
      }
      std::shared_ptr<Picture> a = ref_frame(start[k] + i);
      if (!a && ref_error) {
        fail(k, error_text(ref_error));
        --live;
        continue;
      }
      ReadAhead::Item b = disq[k]->pop();
      if (b.error) {
        fail(k, error_text(b.error));
        --live;
        continue;
      }
      if (!a || !b.pic) {
        --live;
        if ((!a && !b.pic) || m.opts.shortest) {
          active[k] = false;
          continue;
        }
        const std::string& rp = m.ref->path();
        const std::string& dp = disq[k]->reader().path();
        fail(k, (a ? dp : rp) + ": ended after " + std::to_string(out[k].frames) + " frames, but " + (a ? rp : dp) +
                    " has more");
        continue;
      }
      try {
        m.rends[k].session->push(std::move(a), std::move(b.pic));
        ++out[k].frames;
      } catch (const std::exception& e) {
        fail(k, e.what());
        --live;
      }
    }
    // Reference frames no active rendition needs any more go back.
    unsigned need = ~0u;
    for (std::size_t k = 0; k < n; ++k)
      if (active[k]) need = std::min(need, start[k] + i + 1);
    while (!window.empty() && wbase < need) {
      window.pop_front();
      ++wbase;
    }
    if (progress && live > 0) progress(i + 1);
  }
  window.clear();
  refq.stop();
  for (auto& q : disq) q->stop();
  return out;
}

}  // namespace vmafx
