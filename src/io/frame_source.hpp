#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <string>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "io/video_reader.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {

// Reads the reference and the distorted clip on two threads, ahead of the
// consumer, straight into pictures of a Session's pool: the two files are
// read concurrently and while earlier frames are scored.
class FrameSource {
 public:
  struct Options {
    unsigned skip_ref = 0, skip_dis = 0;  // frames to drop first
    unsigned max_frames = 0;              // pairs to deliver at most (0: all)
    unsigned depth = 4;                   // frames each side reads ahead
  };
  // Reserves the pictures it reads ahead in `session` (call before anything
  // acquires from it). The readers and the session must outlive this object.
  FrameSource(VideoReader& ref, VideoReader& dis, Session& session, Options opts);
  ~FrameSource();  // stops the readers
  FrameSource(const FrameSource&) = delete;
  FrameSource& operator=(const FrameSource&) = delete;

  // The next pair; false once both clips ended together. Throws the readers'
  // errors in the order one thread reading ref then dis frame by frame would
  // meet them, and an Error when one clip ends before the other.
  bool next(std::shared_ptr<Picture>& ref, std::shared_ptr<Picture>& dis);
  // Pairs delivered so far.
  unsigned delivered() const { return delivered_; }
  // Where the readers' time went (VMAFX_STATS=1 prints it).
  std::string timing_report() const;

 private:
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
  void run(Side& s);
  Item pop(Side& s);

  Session& session_;
  Options opts_;
  Side sides_[2];
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  unsigned delivered_ = 0;
  std::int64_t wait_ns_ = 0;  // the consumer waiting for frames
};

}  // namespace vmafx
