#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {


struct FrameSource::Impl {
  struct Item {
    std::shared_ptr<Picture> pic;  // null: end of clip (or error)
    std::exception_ptr error;
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

  Session& session;
  Options opts;
  Side sides[2];
  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  unsigned delivered = 0;
  std::int64_t wait_ns = 0;  // the consumer waiting for frames
};

FrameSource::FrameSource(VideoReader& ref, VideoReader& dis, Session& session, Options opts)
    : impl_(std::make_unique<Impl>(session, opts)) {
  Impl& m = *impl_;
  if (m.opts.depth == 0) m.opts.depth = 1;
  m.sides[0].reader = &ref;
  m.sides[0].skip = m.opts.skip_ref;
  m.sides[1].reader = &dis;
  m.sides[1].skip = m.opts.skip_dis;
  // Each side holds up to depth queued pictures plus the one it fills.
  m.session.reserve_read_ahead(2 * (m.opts.depth + 1));
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
    for (unsigned n = 0; opts.max_frames == 0 || n < opts.max_frames; ++n) {
      const std::int64_t t0 = now_ns();
      {
        std::unique_lock lk(mu);
        cv.wait(lk, [&] { return stop || s.queue.size() < opts.depth; });
        if (stop) return;
      }
      const std::int64_t t1 = now_ns();
      auto pic = session.acquire();
      const std::int64_t t2 = now_ns();
      const bool got = s.reader->read(*pic);
      const std::int64_t t3 = now_ns();
      s.full_ns += t1 - t0;
      s.pool_ns += t2 - t1;
      s.read_ns += t3 - t2;
      if (!got) break;
      put({std::move(pic), nullptr});
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

bool FrameSource::next(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis) {
  Impl& m = *impl_;
  const std::int64_t t0 = now_ns();
  Impl::Item a = m.pop(m.sides[0]);
  if (a.error) std::rethrow_exception(a.error);
  Impl::Item b = m.pop(m.sides[1]);
  m.wait_ns += now_ns() - t0;
  if (b.error) std::rethrow_exception(b.error);
  if (!a.pic && !b.pic) return false;
  if (!a.pic || !b.pic) {
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
