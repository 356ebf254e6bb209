#include "io/frame_source.hpp"

#include <chrono>
#include <cstdio>

#include "core/error.hpp"

namespace vmafx {

namespace {
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

FrameSource::FrameSource(VideoReader& ref, VideoReader& dis, Session& session, Options opts)
    : session_(session), opts_(opts) {
  if (opts_.depth == 0) opts_.depth = 1;
  sides_[0].reader = &ref;
  sides_[0].skip = opts_.skip_ref;
  sides_[1].reader = &dis;
  sides_[1].skip = opts_.skip_dis;
  // Each side holds up to depth queued pictures plus the one it fills.
  session_.reserve_read_ahead(2 * (opts_.depth + 1));
  for (Side& s : sides_) s.thread = std::thread([this, &s] { run(s); });
}

FrameSource::~FrameSource() {
  std::deque<Item> drop[2];
  {
    std::lock_guard lk(mu_);
    stop_ = true;
    for (int i = 0; i < 2; ++i) drop[i].swap(sides_[i].queue);
  }
  cv_.notify_all();
  // Giving the queued pictures back wakes a reader waiting for the pool.
  for (auto& d : drop) d.clear();
  for (Side& s : sides_) s.thread.join();
}

void FrameSource::run(Side& s) {
  auto put = [&](Item it) {
    std::lock_guard lk(mu_);
    if (!stop_) s.queue.push_back(std::move(it));
    cv_.notify_all();
  };
  try {
    if (s.skip) {
      auto scratch = session_.acquire();
      for (unsigned i = 0; i < s.skip; ++i)
        if (!s.reader->skip(*scratch))
          throw Error(s.reader->path() + ": has only " + std::to_string(i) + " frames, cannot skip " +
                      std::to_string(s.skip));
    }
    for (unsigned n = 0; opts_.max_frames == 0 || n < opts_.max_frames; ++n) {
      const std::int64_t t0 = now_ns();
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return stop_ || s.queue.size() < opts_.depth; });
        if (stop_) return;
      }
      const std::int64_t t1 = now_ns();
      auto pic = session_.acquire();
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

FrameSource::Item FrameSource::pop(Side& s) {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return !s.queue.empty(); });
  // An end or an error stays at the head: it is the side's last word.
  if (!s.queue.front().pic) return s.queue.front();
  Item it = std::move(s.queue.front());
  s.queue.pop_front();
  cv_.notify_all();
  return it;
}

bool FrameSource::next(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis) {
  const std::int64_t t0 = now_ns();
  Item a = pop(sides_[0]);
  if (a.error) std::rethrow_exception(a.error);
  Item b = pop(sides_[1]);
  wait_ns_ += now_ns() - t0;
  if (b.error) std::rethrow_exception(b.error);
  if (!a.pic && !b.pic) return false;
  if (!a.pic || !b.pic) {
    const VideoReader& shorter = a.pic ? *sides_[1].reader : *sides_[0].reader;
    const VideoReader& longer = a.pic ? *sides_[0].reader : *sides_[1].reader;
    throw Error(shorter.path() + ": ended after " + std::to_string(delivered_) + " frames, but " + longer.path() +
                " has more (use --frame_cnt to score a prefix)");
  }
  ref = std::move(a.pic);
  dis = std::move(b.pic);
  ++delivered_;
  return true;
}

std::string FrameSource::timing_report() const {
  std::string out;
  char buf[256];
  const char* names[2] = {"ref", "dis"};
  for (int i = 0; i < 2; ++i) {
    std::snprintf(buf, sizeof buf, "reader %s: read %.3f s, waiting for a picture %.3f s, for queue room %.3f s\n",
                  names[i], double(sides_[i].read_ns) * 1e-9, double(sides_[i].pool_ns) * 1e-9,
                  double(sides_[i].full_ns) * 1e-9);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "consumer waited for frames %.3f s\n", double(wait_ns_) * 1e-9);
  out += buf;
  return out;
}

}  // namespace vmafx
