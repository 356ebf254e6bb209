// SPDX-License-Identifier: BSD-3-Clause
#include "io/read_ahead.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/clock.hpp"
#include "core/error.hpp"

namespace vmafx {

unsigned ReadAhead::threads_for(const VideoReader& r, const Options& o) {
  return o.timestamps || o.readers <= 1 || !r.positional() ? 1 : o.readers;
}

ReadAhead::ReadAhead(VideoReader& r, Session& pool, Options o) : reader_(r), pool_(pool), opts_(o) {
  if (opts_.depth == 0) opts_.depth = 1;
  threads_ = threads_for(r, opts_);
  if (opts_.max_frames) limit_ = std::uint64_t(opts_.skip) + opts_.max_frames;
}

ReadAhead::~ReadAhead() { stop(); }

void ReadAhead::start() {
  if (threads_ == 1) {
    workers_.emplace_back([this] { run_sequential(0); });
    return;
  }
  for (unsigned i = 0; i < threads_; ++i) workers_.emplace_back([this] { run_worker(); });
}

void ReadAhead::stop() {
  std::deque<Item> drop;
  std::map<std::uint64_t, Done> drop_done;
  {
    std::lock_guard lk(mu_);
    stop_ = true;
    drop.swap(queue_);
    drop_done.swap(done_);
  }
  cv_.notify_all();
  drop.clear();  // gives pictures back: wakes a reader waiting for the pool
  drop_done.clear();
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

void ReadAhead::put(Item it) {
  std::lock_guard lk(mu_);
  if (!stop_) queue_.push_back(std::move(it));
  cv_.notify_all();
}

ReadAhead::Item ReadAhead::pop() {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return !queue_.empty(); });
  if (!queue_.front().pic) return queue_.front();
  Item it = std::move(queue_.front());
  queue_.pop_front();
  cv_.notify_all();
  return it;
}

const ReadAhead::Item& ReadAhead::peek() {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return !queue_.empty(); });
  return queue_.front();  // stays valid: only the consumer pops
}

// Frame after frame from `first` (0, or where positional reads met an
// irregular frame: every frame before it was delivered or skipped).
void ReadAhead::run_sequential(std::uint64_t first) {
  try {
    if (first) reader_.resume_at(first);
    const std::uint64_t skip = opts_.skip;
    if (first < skip) {
      auto scratch = pool_.acquire();
      for (std::uint64_t i = first; i < skip; ++i)
        if (!reader_.skip(*scratch))
          throw input_error(reader_.path() + ": has only " + std::to_string(i) + " frames, cannot skip " +
                            std::to_string(skip));
    }
    std::optional<Timestamp> last;
    for (std::uint64_t n = first > skip ? first - skip : 0; opts_.max_frames == 0 || n < opts_.max_frames; ++n) {
      const std::int64_t t0 = now_ns();
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return stop_ || queue_.size() < opts_.depth; });
        if (stop_) return;
      }
      const std::int64_t t1 = now_ns();
      auto pic = pool_.acquire();
      const std::int64_t t2 = now_ns();
      const bool got = opts_.decode_only ? reader_.decode_only(*pic) : reader_.read(*pic);
      const std::int64_t t3 = now_ns();
      {
        std::lock_guard lk(mu_);
        full_ns_ += t1 - t0;
        pool_ns_ += t2 - t1;
        read_ns_ += t3 - t2;
      }
      if (!got) break;
      Item it{std::move(pic), nullptr};
      if (opts_.timestamps) {
        const std::optional<Timestamp> ts = reader_.timestamp();
        const std::string where = reader_.path() + ": frame " + std::to_string(skip + n);
        if (!ts) throw input_error(where + " has no presentation time; pairing by time needs one on every frame");
        if (ts->num <= 0 || ts->den <= 0) throw input_error(where + ": bad time base");
        if (last && (ts->num != last->num || ts->den != last->den))
          throw input_error(where + ": the time base changed mid-stream");
        if (last && ts->value <= last->value)
          throw input_error(where + ": presentation time " + std::to_string(ts->value) + " does not come after " +
                            std::to_string(last->value));
        last = ts;
        it.ts = *ts;
      }
      put(std::move(it));
    }
    put({});
  } catch (...) {
    put({nullptr, std::current_exception()});
  }
}

void ReadAhead::flush_locked() {
  const std::uint64_t skip = opts_.skip;
  while (!finished_) {
    if (opts_.max_frames && next_out_ == skip + opts_.max_frames) {
      queue_.push_back({});
      finished_ = true;
      break;
    }
    auto it = done_.find(next_out_);
    if (it == done_.end()) break;
    Done d = std::move(it->second);
    done_.erase(it);
    const std::uint64_t idx = next_out_;
    if (d.error) {
      queue_.push_back({nullptr, d.error});
      finished_ = true;
    } else if (d.at == VideoReader::At::kFrame) {
      if (idx >= skip) queue_.push_back({std::move(d.pic), nullptr});
      ++next_out_;
    } else if (d.at == VideoReader::At::kEnd) {
      if (idx < skip)
        queue_.push_back(
            {nullptr, std::make_exception_ptr(input_error(reader_.path() + ": has only " + std::to_string(idx) +
                                                          " frames, cannot skip " + std::to_string(skip)))});
      else
        queue_.push_back({});
      finished_ = true;
    } else {  // irregular: one thread reads on from here
      finished_ = true;
      takeover_ = idx;
    }
  }
  if (finished_) done_.clear();
}

void ReadAhead::run_worker() {
  const unsigned cap = opts_.depth + threads_ - 1;  // pictures this clip holds at most
  for (;;) {
    std::unique_lock lk(mu_);
    const std::int64_t t0 = now_ns();
    cv_.wait(lk, [&] {
      return stop_ || finished_ || next_claim_ >= limit_ || queue_.size() + done_.size() + in_flight_ < cap;
    });
    full_ns_ += now_ns() - t0;
    if (stop_ || finished_ || next_claim_ >= limit_) return;
    const std::uint64_t idx = next_claim_++;
    ++in_flight_;
    lk.unlock();

    Done d;
    const std::int64_t t1 = now_ns();
    std::int64_t t2 = t1;
    try {
      d.pic = pool_.acquire();
      t2 = now_ns();
      d.at = reader_.read_at(idx, *d.pic);
    } catch (...) {
      d.error = std::current_exception();
    }
    const std::int64_t t3 = now_ns();
    if (d.at != VideoReader::At::kFrame || d.error) d.pic.reset();

    lk.lock();
    pool_ns_ += t2 - t1;
    read_ns_ += t3 - t2;
    --in_flight_;
    std::uint64_t takeover = ~std::uint64_t(0);
    if (!stop_ && !finished_ && idx < limit_) {
      // Nothing after an end, an error or an irregular frame is needed.
      if (d.at != VideoReader::At::kFrame || d.error) limit_ = idx + 1;
      done_.emplace(idx, std::move(d));
      flush_locked();
      // Whichever thread's flush met the irregular frame reads on from it.
      if (takeover_ != ~std::uint64_t(0) && !taken_over_) {
        takeover = takeover_;
        taken_over_ = true;
      }
    }
    cv_.notify_all();
    lk.unlock();
    if (takeover != ~std::uint64_t(0)) {
      run_sequential(takeover);
      return;
    }
  }
}

std::string ReadAhead::timing() const {
  std::lock_guard lk(mu_);
  char buf[160];
  std::snprintf(buf, sizeof buf, "read %.3f s, waiting for a picture %.3f s, for queue room %.3f s",
                double(read_ns_) * 1e-9, double(pool_ns_) * 1e-9, double(full_ns_) * 1e-9);
  std::string out = buf;
  if (threads_ > 1) out += " (" + std::to_string(threads_) + " threads, positional reads)";
  if (const std::string d = reader_.decode_report(); !d.empty()) out += "; " + d;
  return out;
}

}  // namespace vmafx
