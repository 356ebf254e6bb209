#include "io/frame_source.hpp"

#include "core/error.hpp"

namespace vmafx {

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
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return stop_ || s.queue.size() < opts_.depth; });
        if (stop_) return;
      }
      auto pic = session_.acquire();
      if (!s.reader->read(*pic)) break;
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
  Item a = pop(sides_[0]);
  if (a.error) std::rethrow_exception(a.error);
  Item b = pop(sides_[1]);
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

}  // namespace vmafx
