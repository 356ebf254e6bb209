// SPDX-License-Identifier: BSD-3-Clause
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "core/clock.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {

struct FrameSource::Impl {
  struct Item {
    std::shared_ptr<Picture> pic;  // null: end of clip (or error)
    std::exception_ptr error;
    Timestamp ts{};  // with Sync::kPts
  };
  struct Side {
    VideoReader* reader;
    unsigned skip;
    std::deque<Item> queue;
    std::thread thread;
    // nanoseconds reading, waiting for a pool picture, waiting for queue room
    std::atomic<std::int64_t> read_ns{0}, pool_ns{0}, full_ns{0};
  };
  Impl(Session& s, Options o) : session(s), opts(o) {}
  void run(Side& s);
  Item pop(Side& s);
  const Item& peek(Side& s);
  bool next_by_pts(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis);
  // A frame's time since its clip's first frame, in units of 1 / (ref den *
  // dis den) seconds: comparable across the two clips.
  __int128 ticks(int side, const Timestamp& t) const {
    const Timestamp& first = firsts[side];
    const std::int64_t other_den = firsts[1 - side].den;
    return (__int128(t.value) - first.value) * t.num * other_den;
  }
  // Whether time t comes after a clip's last frame, shown at `last` for
  // `duration` (the interval before it; 0 for a one-frame clip).
  static bool beyond(__int128 t, __int128 last, __int128 duration) {
    return duration > 0 ? t >= last + duration : t > last;
  }
  [[noreturn]] void ended_early(int shorter, unsigned frames) const {
    throw input_error(sides[shorter].reader->path() + ": ended after " + std::to_string(frames) + " frames, but " +
                      sides[1 - shorter].reader->path() + " has more");
  }

  Session& session;
  Options opts;
  Side sides[2];
  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  unsigned delivered = 0;
  std::int64_t wait_ns = 0;  // the consumer waiting for frames
  // Sync::kPts: each clip's first time, the reference frame paired last (it
  // may pair again) and the times before it, the last distorted times.
  Timestamp firsts[2];
  bool started = false;
  Item cur_ref;
  __int128 cur_ref_t = 0, prev_ref_t = 0, last_dis_t = 0, prev_dis_t = 0;
  unsigned ref_used = 0;  // reference frames taken from the queue
  unsigned dis_seen = 0;  // distorted frames paired
};

FrameSource::FrameSource(VideoReader& ref, VideoReader& dis, Session& session, Options opts)
    : impl_(std::make_unique<Impl>(session, opts)) {
  Impl& m = *impl_;
  if (m.opts.depth == 0) m.opts.depth = 1;
  m.sides[0].reader = &ref;
  m.sides[0].skip = m.opts.skip_ref;
  m.sides[1].reader = &dis;
  m.sides[1].skip = m.opts.skip_dis;
  // Each side holds up to depth queued pictures plus the one it fills; pairing
  // by time holds the current reference picture and a peeked one more.
  m.session.reserve_read_ahead(2 * (m.opts.depth + 1) + (m.opts.sync == Options::Sync::kPts ? 2 : 0));
  // Frames a GPU decoder made stay on that GPU when every extractor runs there.
  if (!m.opts.decode_only && !env::hwdec_host())
    if (DeviceImporter* imp = session.device_importer())
      for (Impl::Side& s : m.sides) s.reader->use_device_importer(imp);
  for (Impl::Side& s : m.sides) s.thread = std::thread([&m, &s] { m.run(s); });
}

FrameSource::~FrameSource() {
  Impl& m = *impl_;
  std::deque<Impl::Item> drop[2];
  {
    std::lock_guard lk(m.mu);
    m.stop = true;
    for (int i = 0; i < 2; ++i) drop[i].swap(m.sides[i].queue);
  }
  m.cv.notify_all();
  // Giving the queued pictures back wakes a reader waiting for the pool.
  for (auto& d : drop) d.clear();
  for (Impl::Side& s : m.sides) s.thread.join();
}

void FrameSource::Impl::run(Side& s) {
  auto put = [&](Item it) {
    std::lock_guard lk(mu);
    if (!stop) s.queue.push_back(std::move(it));
    cv.notify_all();
  };
  try {
    if (s.skip) {
      auto scratch = session.acquire();
      for (unsigned i = 0; i < s.skip; ++i)
        if (!s.reader->skip(*scratch))
          throw input_error(s.reader->path() + ": has only " + std::to_string(i) + " frames, cannot skip " +
                            std::to_string(s.skip));
    }
    const bool by_pts = opts.sync == Options::Sync::kPts;
    std::optional<Timestamp> last;
    // By time, the consumer decides how many frames make max_frames pairs.
    for (unsigned n = 0; by_pts || opts.max_frames == 0 || n < opts.max_frames; ++n) {
      const std::int64_t t0 = now_ns();
      {
        std::unique_lock lk(mu);
        cv.wait(lk, [&] { return stop || s.queue.size() < opts.depth; });
        if (stop) return;
      }
      const std::int64_t t1 = now_ns();
      auto pic = session.acquire();
      const std::int64_t t2 = now_ns();
      const bool got = opts.decode_only ? s.reader->decode_only(*pic) : s.reader->read(*pic);
      const std::int64_t t3 = now_ns();
      s.full_ns += t1 - t0;
      s.pool_ns += t2 - t1;
      s.read_ns += t3 - t2;
      if (!got) break;
      Item it{std::move(pic), nullptr};
      if (by_pts) {
        const std::optional<Timestamp> ts = s.reader->timestamp();
        const std::string where = s.reader->path() + ": frame " + std::to_string(s.skip + n);
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

FrameSource::Impl::Item FrameSource::Impl::pop(Side& s) {
  std::unique_lock lk(mu);
  cv.wait(lk, [&] { return !s.queue.empty(); });
  // An end or an error stays at the head: it is the side's last word.
  if (!s.queue.front().pic) return s.queue.front();
  Item it = std::move(s.queue.front());
  s.queue.pop_front();
  cv.notify_all();
  return it;
}

const FrameSource::Impl::Item& FrameSource::Impl::peek(Side& s) {
  std::unique_lock lk(mu);
  cv.wait(lk, [&] { return !s.queue.empty(); });
  return s.queue.front();  // stays valid: only this thread pops
}

// Each distorted frame goes with the reference frame nearest in time (the
// earlier one on a tie); times count from each clip's first frame, so clips
// that start at different times or count in different time bases pair up.
bool FrameSource::Impl::next_by_pts(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis) {
  if (opts.max_frames && delivered == opts.max_frames) return false;
  const std::int64_t t0 = now_ns();
  if (!started) {
    Item a = pop(sides[0]);
    if (a.error) std::rethrow_exception(a.error);
    Item b0 = peek(sides[1]);
    if (b0.error) std::rethrow_exception(b0.error);
    if (!a.pic && !b0.pic) return false;
    if (!a.pic || !b0.pic) {
      if (opts.shortest) return false;
      ended_early(a.pic ? 1 : 0, 0);
    }
    firsts[0] = a.ts;
    firsts[1] = b0.ts;
    started = true;
    cur_ref = std::move(a);
    ref_used = 1;
    cur_ref_t = prev_ref_t = ticks(0, cur_ref.ts);
  }
  Item b = pop(sides[1]);
  if (b.error) std::rethrow_exception(b.error);
  if (!b.pic) {
    wait_ns += now_ns() - t0;
    // Reference frames left over are fine while they fall within the last
    // distorted frame's duration (taken as the interval before it).
    if (!opts.shortest) {
      for (;;) {
        const Item& n = peek(sides[0]);
        if (n.error) std::rethrow_exception(n.error);
        if (!n.pic) break;
        if (beyond(ticks(0, n.ts), last_dis_t, last_dis_t - prev_dis_t)) ended_early(1, dis_seen);
        pop(sides[0]);
      }
    }
    return false;
  }
  const __int128 t = ticks(1, b.ts);
  auto dist = [t](__int128 x) { return x > t ? x - t : t - x; };
  bool ref_ended = false;
  for (;;) {
    const Item& n = peek(sides[0]);
    if (n.error) std::rethrow_exception(n.error);
    if (!n.pic) {
      ref_ended = true;
      break;
    }
    const __int128 nt = ticks(0, n.ts);
    if (dist(nt) >= dist(cur_ref_t)) break;
    prev_ref_t = cur_ref_t;
    cur_ref = pop(sides[0]);
    cur_ref_t = nt;
    ++ref_used;
  }
  wait_ns += now_ns() - t0;
  // Past the reference's last frame and its duration: the reference has ended.
  if (ref_ended && beyond(t, cur_ref_t, cur_ref_t - prev_ref_t)) {
    if (opts.shortest) return false;
    ended_early(0, ref_used);
  }
  prev_dis_t = dis_seen ? last_dis_t : t;
  last_dis_t = t;
  ++dis_seen;
  ref = cur_ref.pic;
  dis = std::move(b.pic);
  ++delivered;
  return true;
}

bool FrameSource::next(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis) {
  Impl& m = *impl_;
  if (m.opts.sync == Options::Sync::kPts) return m.next_by_pts(ref, dis);
  const std::int64_t t0 = now_ns();
  Impl::Item a = m.pop(m.sides[0]);
  if (a.error) std::rethrow_exception(a.error);
  Impl::Item b = m.pop(m.sides[1]);
  m.wait_ns += now_ns() - t0;
  if (b.error) std::rethrow_exception(b.error);
  if (!a.pic && !b.pic) return false;
  if (!a.pic || !b.pic) {
    if (m.opts.shortest) return false;
    const VideoReader& shorter = a.pic ? *m.sides[1].reader : *m.sides[0].reader;
    const VideoReader& longer = a.pic ? *m.sides[0].reader : *m.sides[1].reader;
    throw input_error(shorter.path() + ": ended after " + std::to_string(m.delivered) + " frames, but " +
                      longer.path() + " has more");
  }
  ref = std::move(a.pic);
  dis = std::move(b.pic);
  ++m.delivered;
  return true;
}

unsigned FrameSource::delivered() const { return impl_->delivered; }

std::string FrameSource::timing_report() const {
  const Impl& m = *impl_;
  std::string out;
  char buf[256];
  const char* names[2] = {"ref", "dis"};
  for (int i = 0; i < 2; ++i) {
    std::snprintf(buf, sizeof buf, "reader %s: read %.3f s, waiting for a picture %.3f s, for queue room %.3f s\n",
                  names[i], double(m.sides[i].read_ns) * 1e-9, double(m.sides[i].pool_ns) * 1e-9,
                  double(m.sides[i].full_ns) * 1e-9);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "consumer waited for frames %.3f s\n", double(m.wait_ns) * 1e-9);
  out += buf;
  return out;
}

}  // namespace vmafx
