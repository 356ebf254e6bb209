#pragma once
#include <condition_variable>
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
};

}  // namespace vmafx
