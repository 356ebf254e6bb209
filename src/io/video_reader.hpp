// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Internal: the file readers behind vmafx::open_video (vmaf_exact/input.hpp).
#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "vmaf_exact/input.hpp"

namespace vmafx {

// A reader on a file descriptor: frames are read with vectored read()s
// straight into the picture's rows (one for the whole frame, or pieces of
// kHotBytes where the range check ORs the samples as they arrive; no
// intermediate buffer, no per-frame allocation). Every error is an Error
// whose message starts with the path.
class FileReader : public VideoReader {
 public:
  ~FileReader() override;

 protected:
  FileReader(std::string path, int fd) : VideoReader(std::move(path)), fd_(fd) {}
  // Reads exactly the frame's planes into `pic` plus up to `tail_bytes` more
  // into `tail`. Returns the number of payload bytes read (short at end of
  // file) and sets `tail_got`. With `bits` (only where or_while_reading()),
  // the payload is read in pieces of at most kHotBytes and each piece's
  // samples are OR-ed into *bits while it is still in cache.
  std::size_t read_frame(Picture& pic, char* tail, std::size_t tail_bytes, std::size_t& tail_got,
                         unsigned* bits = nullptr);
  // Reads up to n bytes; fewer only at end of file.
  std::size_t read_bytes(void* dst, std::size_t n);
  // Range check of >8-bit samples of frame `index` (and byte order on
  // big-endian hosts).
  void check_samples(Picture& pic, std::uint64_t index) const;
  // Whether the range check can be an OR of the samples as they are read:
  // 9- to 15-bit samples on a little-endian host.
  bool or_while_reading() const;
  // After a frame read with read_frame(..., &bits) where or_while_reading(),
  // or with no bits: the full check (and its culprit) only when needed.
  void finish_check(Picture& pic, std::uint64_t index, const unsigned* bits) const {
    if (!bits || *bits >= (1u << fmt_.bpc)) check_samples(pic, index);
  }
  static constexpr std::size_t kHotBytes = std::size_t(1) << 18;
  // The frame's payload in `pic` as iovecs in file order: a plane whose rows
  // are contiguous as pieces of at most `piece` bytes (kHotBytes is even:
  // whole samples), any other plane a row each.
  void payload_pieces(Picture& pic, std::size_t piece, std::vector<::iovec>& out) const;
  [[noreturn]] void fail(const std::string& what) const;
  // "<path>: read error: <strerror(err)>".
  [[noreturn]] void fail_io(int err) const;
  // Positional reads (VideoReader::read_at): frames start at `data_offset`,
  // each after a `marker`-byte header ("FRAME\n" for Y4M, none for raw);
  // only for regular files.
  void set_layout(std::uint64_t data_offset, std::size_t marker);
  bool positional() const override { return positional_; }
  At read_at(std::uint64_t index, Picture& pic) const override;
  void resume_at(std::uint64_t index) override;
  // The message of a truncated frame payload (they differ by format).
  virtual std::string truncated_message() const = 0;

  int fd_ = -1;
  // Bytes already read from fd_ that come before what it returns next (the
  // start of a raw clip, read to look for a Y4M signature: no seeking back,
  // so pipes and FIFOs work).
  std::string pending_;
  // Called by resume_at(): drops what was read ahead of the position.
  virtual void reset_read_ahead() {}

 private:
  bool positional_ = false;
  std::uint64_t data_offset_ = 0;
  std::size_t marker_ = 0;

  std::vector<::iovec> iov_;     // reused: no allocation per frame
  std::vector<::iovec> pieces_;  // iov_ as built (iov_ advances while reading)
};

// Parses a Y4M stream header line (without "YUV4MPEG2 " and the newline).
// Exposed for tests. Throws Error("<path>: ...").
PictureFormat parse_y4m_header(const std::string& fields, const std::string& path);

}  // namespace vmafx
