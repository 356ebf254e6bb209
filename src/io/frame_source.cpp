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
#include "io/read_ahead.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {

struct FrameSource::Impl {
  using Item = ReadAhead::Item;
  Impl(Session& s, Options o) : session(s), opts(o) {}
  Item pop(int side) { return sides[side]->pop(); }
  const Item& peek(int side) { return sides[side]->peek(); }
  const VideoReader& reader(int side) const { return *readers[side]; }
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
    throw input_error(reader(shorter).path() + ": ended after " + std::to_string(frames) + " frames, but " +
                      reader(1 - shorter).path() + " has more");
  }

  Session& session;
  Options opts;
  VideoReader* readers[2] = {};
  std::unique_ptr<ReadAhead> sides[2];
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

unsigned FrameSource::auto_readers(const Session& session) {
  if (const unsigned n = env::readers()) return n;
  // The CPU backend scores far below one reader's rate; a GPU backend can
  // outrun one thread copying from the page cache.
  return session.backend_description().empty() ? 1 : 4;
}

unsigned FrameSource::auto_depth(const Session& session) { return session.backend_description().empty() ? 1 : 4; }

FrameSource::FrameSource(VideoReader& ref, VideoReader& dis, Session& session, Options opts)
    : impl_(std::make_unique<Impl>(session, opts)) {
  Impl& m = *impl_;
  if (m.opts.depth == 0) m.opts.depth = auto_depth(session);
  const bool by_pts = m.opts.sync == Options::Sync::kPts;
  const unsigned readers = m.opts.readers ? m.opts.readers : auto_readers(session);
  m.readers[0] = &ref;
  m.readers[1] = &dis;
  ReadAhead::Options o[2];
  unsigned pictures = by_pts ? 2 : 0;  // pairing by time holds the current reference picture and a peeked one more
  for (int i = 0; i < 2; ++i) {
    o[i] = {.skip = i == 0 ? m.opts.skip_ref : m.opts.skip_dis,
            .max_frames =
                by_pts ? 0 : m.opts.max_frames,  // by time, the consumer decides how many frames make max_frames pairs
            .depth = m.opts.depth,
            .readers = readers,
            .decode_only = m.opts.decode_only,
            .timestamps = by_pts};
    pictures += ReadAhead::pictures_for(*m.readers[i], o[i]);
  }
  m.session.reserve_read_ahead(pictures);
  // Frames a GPU decoder made stay on that GPU when every extractor runs there.
  if (!m.opts.decode_only && !env::hwdec_host())
    if (DeviceImporter* imp = session.device_importer())
      for (VideoReader* r : m.readers) r->use_device_importer(imp);
  for (int i = 0; i < 2; ++i) m.sides[i] = std::make_unique<ReadAhead>(*m.readers[i], session, o[i]);
  for (auto& s : m.sides) s->start();
}

FrameSource::~FrameSource() {
  for (auto& s : impl_->sides) s->stop();
}

// Each distorted frame goes with the reference frame nearest in time (the
// earlier one on a tie); times count from each clip's first frame, so clips
// that start at different times or count in different time bases pair up.
bool FrameSource::Impl::next_by_pts(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis) {
  if (opts.max_frames && delivered == opts.max_frames) return false;
  const std::int64_t t0 = now_ns();
  if (!started) {
    Item a = pop(0);
    if (a.error) std::rethrow_exception(a.error);
    Item b0 = peek(1);
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
  Item b = pop(1);
  if (b.error) std::rethrow_exception(b.error);
  if (!b.pic) {
    wait_ns += now_ns() - t0;
    // Reference frames left over are fine while they fall within the last
    // distorted frame's duration (taken as the interval before it).
    if (!opts.shortest) {
      for (;;) {
        const Item& n = peek(0);
        if (n.error) std::rethrow_exception(n.error);
        if (!n.pic) break;
        if (beyond(ticks(0, n.ts), last_dis_t, last_dis_t - prev_dis_t)) ended_early(1, dis_seen);
        pop(0);
      }
    }
    return false;
  }
  const __int128 t = ticks(1, b.ts);
  auto dist = [t](__int128 x) { return x > t ? x - t : t - x; };
  bool ref_ended = false;
  for (;;) {
    const Item& n = peek(0);
    if (n.error) std::rethrow_exception(n.error);
    if (!n.pic) {
      ref_ended = true;
      break;
    }
    const __int128 nt = ticks(0, n.ts);
    if (dist(nt) >= dist(cur_ref_t)) break;
    prev_ref_t = cur_ref_t;
    cur_ref = pop(0);
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
  Impl::Item a = m.pop(0);
  if (a.error) std::rethrow_exception(a.error);
  Impl::Item b = m.pop(1);
  m.wait_ns += now_ns() - t0;
  if (b.error) std::rethrow_exception(b.error);
  if (!a.pic && !b.pic) return false;
  if (!a.pic || !b.pic) {
    if (m.opts.shortest) return false;
    const VideoReader& shorter = m.reader(a.pic ? 1 : 0);
    const VideoReader& longer = m.reader(a.pic ? 0 : 1);
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
  for (int i = 0; i < 2; ++i) out += std::string("reader ") + names[i] + ": " + m.sides[i]->timing() + "\n";
  std::snprintf(buf, sizeof buf, "consumer waited for frames %.3f s\n", double(m.wait_ns) * 1e-9);
  out += buf;
  return out;
}

}  // namespace vmafx
