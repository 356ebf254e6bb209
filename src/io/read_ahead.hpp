// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Internal: reads one clip ahead into pictures of a Session, for FrameSource
// and LadderSource. One thread reads frame after frame; a reader with
// positional reads (VideoReader::positional: raw YUV and Y4M in regular files)
// may instead be read by several threads at once, each taking the next frame
// index, with the frames handed out in order. Either way the items that come
// out are the same: the frames in order, then an end or the error a
// one-thread read would meet first (frames after it are dropped).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "vmaf_exact/input.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {

class ReadAhead {
 public:
  struct Item {
    std::shared_ptr<Picture> pic;  // null: end of clip (or error)
    std::exception_ptr error;
    Timestamp ts{};  // with Options::timestamps
  };
  struct Options {
    unsigned skip = 0;         // frames to drop first
    unsigned max_frames = 0;   // frames to read at most (0: all)
    unsigned depth = 4;        // frames queued ahead at most
    unsigned readers = 1;      // threads; more than 1 only for a positional reader
    bool decode_only = false;  // VideoReader::decode_only
    // Each frame's presentation time, checked (present, one time base, rising);
    // reads with one thread.
    bool timestamps = false;
  };
  // Threads a clip is read with (Options::readers where it can).
  static unsigned threads_for(const VideoReader& r, const Options& o);
  // Pictures the caller reserves in the session for this reader.
  static unsigned pictures_for(const VideoReader& r, const Options& o) { return o.depth + threads_for(r, o); }

  ReadAhead(VideoReader& r, Session& pool, Options o);
  ~ReadAhead();  // stop()
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;
  void start();
  // Stops the threads and gives back the queued pictures (wakes a thread
  // waiting for the pool).
  void stop();
  // The next item; an end or an error stays at the head.
  Item pop();
  // The next item without taking it (valid until the next pop()).
  const Item& peek();
  VideoReader& reader() { return reader_; }
  // "read 1.234 s, waiting for a picture 0.000 s, for queue room 0.100 s (4 threads)"
  std::string timing() const;

 private:
  void put(Item it);
  void run_sequential(std::uint64_t first);
  void run_worker();
  // Moves finished frames that come next into the queue (lock held).
  void flush_locked();

  VideoReader& reader_;
  Session& pool_;
  Options opts_;
  unsigned threads_ = 1;
  std::vector<std::thread> workers_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::deque<Item> queue_;
  // Positional reading: frame indices (from the clip's start) claimed,
  // finished out of order, the next one the queue takes, and where the
  // clip's frames stop (an end, an error, max_frames, an irregular frame).
  std::uint64_t next_claim_ = 0, next_out_ = 0, limit_ = ~std::uint64_t(0);
  unsigned in_flight_ = 0;
  struct Done {
    std::shared_ptr<Picture> pic;
    std::exception_ptr error;
    VideoReader::At at = VideoReader::At::kFrame;
  };
  std::map<std::uint64_t, Done> done_;
  bool finished_ = false;                       // the end or error is queued (or sequential reading took over)
  std::uint64_t takeover_ = ~std::uint64_t(0);  // the irregular frame sequential reading starts at
  bool taken_over_ = false;
  std::int64_t read_ns_ = 0, pool_ns_ = 0, full_ns_ = 0;  // summed over threads (under mu_)
};

}  // namespace vmafx
