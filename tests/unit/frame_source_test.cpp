// SPDX-License-Identifier: BSD-3-Clause
// The read path: vectored reads into pictures (contiguous planes and padded
// rows), the read-ahead of the next FRAME marker, and FrameSource's two
// reader threads (order, skips, limits, errors in sequential order, early stop).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "io/frame_source.hpp"
#include "io/video_reader.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {
namespace {

// The message of read_at(i)'s error, or "no error".
std::string read_at_error(VideoReader& r, std::uint64_t i, Picture& pic) {
  try {
    r.read_at(i, pic);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

namespace fs = std::filesystem;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vmafx_source_test_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // An 8-bit 4:2:0 Y4M clip; every sample of frame i is (base + i) & 255,
  // except sample (x, y) of the luma, which is x + 3 * y + i.
  std::string y4m(const std::string& name, int w, int h, int frames, int base, const std::string& frame_hdr = "FRAME",
                  int truncate_last_by = 0) {
    const std::string p = path(name);
    std::ofstream o(p, std::ios::binary);
    o << "YUV4MPEG2 W" << w << " H" << h << " F25:1 C420jpeg\n";
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    for (int i = 0; i < frames; ++i) {
      o << frame_hdr << "\n";
      std::string data;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) data.push_back(char((x + 3 * y + i) & 255));
      data.append(std::size_t(2 * cw * ch), char((base + i) & 255));
      if (i == frames - 1 && truncate_last_by) data.resize(data.size() - std::size_t(truncate_last_by));
      o << data;
    }
    return p;
  }
  fs::path dir_;
};

int luma(const Picture& p, int x, int y) { return p.row<std::uint8_t>(0, y)[x]; }

TEST_F(Files, ReaderFillsPaddedAndContiguousRows) {
  // 64 wide: rows are contiguous (one iovec per plane); 37 wide: padded rows.
  for (int w : {64, 37}) {
    const std::string p = y4m("c" + std::to_string(w) + ".y4m", w, 9, 3, 100, "FRAME Ixyz A1:1");
    auto r = open_video(p, std::nullopt);
    Picture pic(r->format());
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(r->read(pic)) << w;
      EXPECT_EQ(luma(pic, 0, 0), i);
      EXPECT_EQ(luma(pic, w - 1, 8), (w - 1 + 24 + i) & 255);
      EXPECT_EQ(pic.row<std::uint8_t>(2, 4)[(w + 1) / 2 - 1], 100 + i);
    }
    EXPECT_FALSE(r->read(pic));
    EXPECT_FALSE(r->read(pic));
    EXPECT_EQ(r->frames_read(), 3u);
  }
}

TEST_F(Files, ReaderReportsMarkerAndTruncationErrorsAtTheirFrame) {
  auto error_at = [&](const std::string& p, int ok_frames) {
    auto r = open_video(p, std::nullopt);
    Picture pic(r->format());
    for (int i = 0; i < ok_frames; ++i) EXPECT_TRUE(r->read(pic)) << p;
    try {
      r->read(pic);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string trunc = y4m("t.y4m", 16, 16, 3, 0, "FRAME", 5);
  EXPECT_EQ(error_at(trunc, 2), trunc + ": frame 2: truncated frame data");
  // The frame after the last full one starts with garbage: found when it is read.
  const std::string bad = y4m("b.y4m", 16, 16, 2, 0);
  { std::ofstream(bad, std::ios::app | std::ios::binary) << "FRAMX\n"; }
  EXPECT_EQ(error_at(bad, 2), bad + ": frame 2: missing FRAME marker");
  const std::string shortm = y4m("s.y4m", 16, 16, 1, 0);
  { std::ofstream(shortm, std::ios::app | std::ios::binary) << "FRA"; }
  EXPECT_EQ(error_at(shortm, 1), shortm + ": frame 1: missing FRAME marker (truncated)");
  const std::string hdr = y4m("h.y4m", 16, 16, 1, 0);
  { std::ofstream(hdr, std::ios::app | std::ios::binary) << "FRAME"; }
  EXPECT_EQ(error_at(hdr, 1), hdr + ": frame 1: truncated frame header");
  const std::string params = y4m("p.y4m", 16, 16, 1, 0);
  { std::ofstream(params, std::ios::app | std::ios::binary) << "FRAME Ixyz"; }
  EXPECT_EQ(error_at(params, 1), params + ": frame 1: truncated frame header");
}

TEST_F(Files, RawReaderSplitsFramesAndReportsAPartialOne) {
  const std::string p = path("r.yuv");
  {
    std::ofstream o(p, std::ios::binary);
    for (int i = 0; i < 12 + 3; ++i) o.put(char(i));  // one frame and 3 bytes
  }
  // 4x2 4:2:0: luma 8 bytes, chroma 2x1 each: 12 bytes per frame.
  auto r = open_video(p, RawFormat{4, 2, ChromaFormat::k420, 8});
  Picture pic(r->format());
  ASSERT_TRUE(r->read(pic));
  EXPECT_EQ(luma(pic, 3, 1), 7);
  EXPECT_EQ(pic.row<std::uint8_t>(2, 0)[1], 11);
  try {
    r->read(pic);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              p + ": frame 1: truncated frame data (file size is not a multiple of the frame size)");
  }
}

TEST_F(Files, ReadsRawAndY4mFromAPipe) {
  // A FIFO cannot seek: the bytes read to look for a Y4M signature must
  // start the first raw frame.
  const std::string y = y4m("src.y4m", 8, 4, 3, 9);
  std::string raw_bytes;
  for (int i = 0; i < 3 * 48; ++i) raw_bytes.push_back(char(i * 7));
  for (const bool raw : {true, false}) {
    const std::string fifo = path(raw ? "raw.fifo" : "y4m.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
      std::ofstream o(fifo, std::ios::binary);
      if (raw) {
        o << raw_bytes;
      } else {
        std::ifstream in(y, std::ios::binary);
        o << in.rdbuf();
      }
    });
    auto r = open_video(fifo, raw ? std::optional<RawFormat>(RawFormat{8, 4, ChromaFormat::k420, 8}) : std::nullopt);
    EXPECT_FALSE(r->positional()) << "a pipe is read by one thread";
    Picture pic(r->format());
    EXPECT_EQ(r->read_at(0, pic), VideoReader::At::kIrregular);
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(r->read(pic)) << raw << " " << i;
      if (raw) {
        EXPECT_EQ(luma(pic, 0, 0), (i * 48 * 7) & 255);
        EXPECT_EQ(pic.row<std::uint8_t>(2, 1)[3], char((i * 48 + 47) * 7) & 255);
      } else {
        EXPECT_EQ(luma(pic, 7, 3), 7 + 9 + i);
      }
    }
    EXPECT_FALSE(r->read(pic));
    writer.join();
  }
}

struct Outcome {
  std::vector<int> ref_first, dis_chroma;  // per pair: ref luma(0,0), dis chroma sample
  std::string error;
};

Outcome read_all(VideoReader& ref, VideoReader& dis, FrameSource::Options o, unsigned threads = 2) {
  Outcome run;
  SessionConfig cfg;
  cfg.no_prediction = true;
  cfg.threads = threads;
  Session session(ref.format(), cfg);
  try {
    FrameSource src(ref, dis, session, o);
    std::shared_ptr<Picture> a, b;
    while (src.next(a, b)) {
      run.ref_first.push_back(luma(*a, 0, 0));
      run.dis_chroma.push_back(b->row<std::uint8_t>(1, 0)[0]);
      session.push(std::move(a), std::move(b));
    }
    EXPECT_EQ(src.delivered(), run.ref_first.size());
    session.finish();
  } catch (const Error& e) {
    run.error = e.what();
  }
  return run;
}

TEST_F(Files, SourceDeliversPairsInOrderWithSkipsAndLimit) {
  const std::string r = y4m("r.y4m", 32, 16, 12, 0), d = y4m("d.y4m", 32, 16, 10, 50);
  {
    auto a = open_video(r, std::nullopt), b = open_video(d, std::nullopt);
    const Outcome run = read_all(*a, *b, {.skip_ref = 2, .skip_dis = 0});
    EXPECT_EQ(run.error, "");
    ASSERT_EQ(run.ref_first.size(), 10u);
    for (int i = 0; i < 10; ++i) {
      EXPECT_EQ(run.ref_first[std::size_t(i)], i + 2);
      EXPECT_EQ(run.dis_chroma[std::size_t(i)], 50 + i);
    }
  }
  {
    auto a = open_video(r, std::nullopt), b = open_video(d, std::nullopt);
    const Outcome run = read_all(*a, *b, {.skip_ref = 1, .skip_dis = 3, .max_frames = 4, .depth = 1});
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.ref_first, (std::vector<int>{1, 2, 3, 4}));
    EXPECT_EQ(run.dis_chroma, (std::vector<int>{53, 54, 55, 56}));
  }
}

TEST_F(Files, SourceErrorsComeInSequentialOrder) {
  const std::string r = y4m("r.y4m", 32, 16, 6, 0), d = y4m("d.y4m", 32, 16, 4, 0);
  {
    auto a = open_video(r, std::nullopt), b = open_video(d, std::nullopt);
    EXPECT_EQ(read_all(*a, *b, {}).error, d + ": ended after 4 frames, but " + r + " has more");
  }
  {
    auto a = open_video(d, std::nullopt), b = open_video(r, std::nullopt);
    EXPECT_EQ(read_all(*a, *b, {}).error, d + ": ended after 4 frames, but " + r + " has more");
  }
  {
    // Both fail: the reference's error at frame 3 comes before the
    // distorted one's at frame 4, whatever thread gets there first.
    const std::string rt = y4m("rt.y4m", 32, 16, 4, 0, "FRAME", 1), dt = y4m("dt.y4m", 32, 16, 5, 0, "FRAME", 1);
    for (int k = 0; k < 5; ++k) {
      auto a = open_video(rt, std::nullopt), b = open_video(dt, std::nullopt);
      EXPECT_EQ(read_all(*a, *b, {}).error, rt + ": frame 3: truncated frame data");
      auto c = open_video(dt, std::nullopt), e = open_video(rt, std::nullopt);
      EXPECT_EQ(read_all(*c, *e, {}).error, rt + ": frame 3: truncated frame data");
    }
  }
  {
    auto a = open_video(r, std::nullopt), b = open_video(d, std::nullopt);
    EXPECT_EQ(read_all(*a, *b, {.skip_dis = 9}).error, d + ": has only 4 frames, cannot skip 9");
  }
}

TEST_F(Files, SourceStopsEarlyWithoutHanging) {
  // The consumer gives up after one pair of a long clip while both readers
  // are blocked (read-ahead full, the pool exhausted).
  const std::string r = y4m("r.y4m", 32, 16, 60, 0), d = y4m("d.y4m", 32, 16, 60, 0);
  auto a = open_video(r, std::nullopt), b = open_video(d, std::nullopt);
  SessionConfig cfg;
  cfg.no_prediction = true;
  cfg.threads = 1;
  Session session(a->format(), cfg);
  {
    FrameSource src(*a, *b, session, {.depth = 2});
    std::shared_ptr<Picture> x, y;
    ASSERT_TRUE(src.next(x, y));
  }
  SUCCEED();
}

// Several threads per file (positional reads): the same pairs and the same
// first error as one thread, for every file shape that changes the path:
// frame parameters (the positional readers hand over to one thread at the
// first irregular frame, skipped or not), a bad marker, a truncated last
// frame, a sample out of range, skips past the end, limits, depth 1.
struct Mixed {
  std::string name;
  int frames;
  int params_from;                 // frames from here on carry parameters ("FRAME Ixyz")
  std::string bad_marker_at = {};  // "3": frame 3's marker is "FRAMX"
};

TEST_F(Files, PositionalReadersDeliverWhatOneReaderDelivers) {
  auto mixed = [&](const Mixed& m, int base) {
    const std::string p = path(m.name);
    std::ofstream o(p, std::ios::binary);
    o << "YUV4MPEG2 W24 H8 F25:1 C420jpeg\n";
    for (int i = 0; i < m.frames; ++i) {
      o << (m.bad_marker_at == std::to_string(i) ? "FRAMX" : "FRAME") << (i >= m.params_from ? " Ixyz\n" : "\n");
      std::string data;
      for (int k = 0; k < 24 * 8; ++k) data.push_back(char((i + k) & 255));
      data.append(2 * 12 * 4, char((base + i) & 255));
      o << data;
    }
    return p;
  };
  const std::string plain = y4m("plain.y4m", 24, 8, 20, 7);
  const std::string trunc = y4m("trunc.y4m", 24, 8, 9, 7, "FRAME", 5);
  const std::string late = mixed({"late.y4m", 20, 11}, 7);
  const std::string early = mixed({"early.y4m", 20, 1}, 7);
  const std::string badm = mixed({"badm.y4m", 20, 99, "6"}, 7);
  struct Case {
    std::string ref, dis;
    FrameSource::Options o;
    std::string error;  // what one reader says
    std::size_t pairs;
  };
  const std::vector<Case> cases = {
      {plain, plain, {}, "", 20},
      {plain, plain, {.skip_ref = 3, .skip_dis = 1, .max_frames = 7, .depth = 1}, "", 7},
      {plain, late, {}, "", 20},
      {late, early, {.skip_ref = 4, .skip_dis = 4}, "", 16},
      {early, late, {.skip_ref = 12, .skip_dis = 12, .depth = 2}, "", 8},
      {plain, trunc, {}, trunc + ": frame 8: truncated frame data", 8},
      {plain, badm, {.skip_dis = 2}, badm + ": frame 6: missing FRAME marker", 4},
      {badm, plain, {.skip_ref = 8}, badm + ": frame 6: missing FRAME marker", 0},
      {plain, late, {.skip_dis = 30}, late + ": has only 20 frames, cannot skip 30", 0},
      {plain, plain, {.skip_ref = 20, .skip_dis = 20}, "", 0},
  };
  for (const Case& c : cases) {
    Outcome one;
    {
      auto a = open_video(c.ref, std::nullopt), b = open_video(c.dis, std::nullopt);
      EXPECT_TRUE(a->positional());
      FrameSource::Options o = c.o;
      o.readers = 1;
      one = read_all(*a, *b, o);
    }
    EXPECT_EQ(one.error, c.error) << c.ref << " " << c.dis;
    EXPECT_EQ(one.ref_first.size(), c.pairs) << c.ref << " " << c.dis;
    for (unsigned readers : {2u, 3u, 5u}) {
      for (int k = 0; k < 3; ++k) {
        auto a = open_video(c.ref, std::nullopt), b = open_video(c.dis, std::nullopt);
        FrameSource::Options o = c.o;
        o.readers = readers;
        const Outcome many = read_all(*a, *b, o);
        EXPECT_EQ(many.error, one.error) << readers << " readers, " << c.ref << " " << c.dis;
        EXPECT_EQ(many.ref_first, one.ref_first) << readers;
        EXPECT_EQ(many.dis_chroma, one.dis_chroma) << readers;
      }
    }
  }
}

TEST_F(Files, PositionalReadsOfRawClipsAndTheirErrors) {
  // 10-bit 4:2:0 raw, 8x4: 96 bytes a frame; frame 5 has a sample of 1024,
  // and the file ends 10 bytes into frame 7.
  const std::string p = path("r10.yuv");
  {
    std::ofstream o(p, std::ios::binary);
    for (int i = 0; i < 7; ++i)
      for (int k = 0; k < 48; ++k) {
        const int v = (i == 5 && k == 40) ? 1024 : (i * 7 + k) & 1023;
        o.put(char(v & 255));
        o.put(char(v >> 8));
      }
    o << std::string(10, '\0');
  }
  const RawFormat fmt{8, 4, ChromaFormat::k420, 10};
  auto r = open_video(p, fmt);
  ASSERT_TRUE(r->positional());
  Picture pic(r->format());
  EXPECT_EQ(r->read_at(2, pic), VideoReader::At::kFrame);
  EXPECT_EQ(pic.row<std::uint16_t>(0, 1)[3], 2 * 7 + 11);
  EXPECT_EQ(r->read_at(8, pic), VideoReader::At::kEnd);
  auto message = [&](std::uint64_t i) { return read_at_error(*r, i, pic); };
  EXPECT_EQ(message(5), p + ": frame 5: sample value 1024 exceeds 10-bit range");
  EXPECT_EQ(message(7), p + ": frame 7: truncated frame data (file size is not a multiple of the frame size)");
  // The same through FrameSource with one and with four threads.
  for (unsigned readers : {1u, 4u}) {
    auto a = open_video(p, fmt), b = open_video(p, fmt);
    EXPECT_EQ(read_all(*a, *b, {.readers = readers}).error, p + ": frame 5: sample value 1024 exceeds 10-bit range");
    auto c = open_video(p, fmt), d = open_video(p, fmt);
    const Outcome run = read_all(*c, *d, {.skip_ref = 6, .skip_dis = 6, .readers = readers});
    EXPECT_EQ(run.error, p + ": frame 5: sample value 1024 exceeds 10-bit range") << "skipped frames are read";
  }
  // Frames larger than one positional read (the bits are gathered read by
  // read): a stray bit past the first 256 KiB of luma, one in chroma, and a
  // frame with a stray bit whose file ends inside it (the truncation wins).
  {
    const std::string q = path("big10.yuv");
    const int w = 1024, hgt = 512;
    const std::size_t samples = std::size_t(w) * hgt * 3 / 2;
    std::vector<std::uint16_t> f(samples);
    for (std::size_t k = 0; k < samples; ++k) f[k] = std::uint16_t((k * 13) & 1023);
    {
      std::ofstream o(q, std::ios::binary);
      auto put = [&] { o.write(reinterpret_cast<const char*>(f.data()), std::streamsize(samples * 2)); };
      put();
      f[300000] = 2048;  // luma, in the third read
      put();
      f[300000] = 5;
      f[samples - 1] = 4096;  // the last chroma sample
      put();
      f[samples - 1] = 7;
      f[10] = 1500;
      o.write(reinterpret_cast<const char*>(f.data()), std::streamsize(samples));  // half a frame
    }
    auto big = open_video(q, RawFormat{w, hgt, ChromaFormat::k420, 10});
    ASSERT_TRUE(big->positional());
    Picture bp(big->format());
    EXPECT_EQ(big->read_at(0, bp), VideoReader::At::kFrame);
    EXPECT_EQ(bp.row<std::uint16_t>(0, 300)[7], std::uint16_t(((300 * 1024 + 7) * 13) & 1023));
    auto big_message = [&](std::uint64_t i) { return read_at_error(*big, i, bp); };
    EXPECT_EQ(big_message(1), q + ": frame 1: sample value 2048 exceeds 10-bit range");
    EXPECT_EQ(big_message(2), q + ": frame 2: sample value 4096 exceeds 10-bit range");
    EXPECT_EQ(big_message(3), q + ": frame 3: truncated frame data (file size is not a multiple of the frame size)");
    // The same frames read in order (read(): the planes in pieces of at most
    // 256 KiB, each OR-ed as it arrives): from the file, and through a FIFO
    // written in odd-sized chunks, so that reads end inside a sample.
    const RawFormat bf{w, hgt, ChromaFormat::k420, 10};
    const auto read_error = [&](VideoReader& r, Picture& pic) {
      try {
        while (r.read(pic)) {}
      } catch (const Error& e) {
        return std::string(e.what());
      }
      return std::string("no error");
    };
    auto seq = open_video(q, bf);
    Picture sp(seq->format());
    ASSERT_TRUE(seq->read(sp));
    EXPECT_EQ(sp.row<std::uint16_t>(2, 255)[511], std::uint16_t(((samples - 1) * 13) & 1023));
    EXPECT_EQ(read_error(*seq, sp), q + ": frame 1: sample value 2048 exceeds 10-bit range");
    seq->resume_at(2);
    EXPECT_EQ(read_error(*seq, sp), q + ": frame 2: sample value 4096 exceeds 10-bit range");
    const std::string fifo = path("big10.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {  // frames 0 and 1: all that the reader takes
      std::ifstream in(q, std::ios::binary);
      std::ofstream o(fifo, std::ios::binary);
      std::vector<char> buf(77777);
      for (std::size_t left = 4 * samples; left > 0;) {
        const std::size_t n = std::min(left, buf.size());
        in.read(buf.data(), std::streamsize(n));
        o.write(buf.data(), std::streamsize(n));
        o.flush();
        left -= n;
      }
    });
    auto piped = open_video(fifo, bf);
    EXPECT_FALSE(piped->positional());
    Picture pp(piped->format());
    ASSERT_TRUE(piped->read(pp));
    EXPECT_EQ(pp.row<std::uint16_t>(0, 300)[7], std::uint16_t(((300 * 1024 + 7) * 13) & 1023));
    EXPECT_EQ(pp.row<std::uint16_t>(2, 255)[511], std::uint16_t(((samples - 1) * 13) & 1023));
    EXPECT_EQ(read_error(*piped, pp), fifo + ": frame 1: sample value 2048 exceeds 10-bit range");
    writer.join();
  }
  // After positional reads, read() goes on from where resume_at() puts it.
  r->resume_at(3);
  ASSERT_TRUE(r->read(pic));
  EXPECT_EQ(pic.row<std::uint16_t>(0, 0)[0], 21);
  EXPECT_EQ(r->frames_read(), 4u);
}

// A reader of gray frames with the presentation times it is given (a library
// caller's own VideoReader): FrameSource's checks of the times when it pairs
// by them, which no built-in reader can fail (their time bases are fixed).
class TimedReader final : public VideoReader {
 public:
  TimedReader(std::string name, std::vector<Timestamp> times) : VideoReader(std::move(name)), times_(std::move(times)) {
    fmt_ = {32, 16, 8, ChromaFormat::k420};
  }
  bool read(Picture& pic) override {
    if (frames_ == times_.size()) return false;
    for (int p = 0; p < 3; ++p)
      for (int y = 0; y < fmt_.plane_height(p); ++y)
        for (int x = 0; x < fmt_.plane_width(p); ++x) pic.row<std::uint8_t>(p, y)[x] = 128;
    ++frames_;
    return true;
  }
  std::optional<Timestamp> timestamp() const override {
    if (frames_ == 0) return std::nullopt;
    return times_[frames_ - 1];
  }

 private:
  std::vector<Timestamp> times_;
};

TEST(SourceTimes, BadOrChangingTimeBasesAndTimesGoingBack) {
  const std::vector<Timestamp> good = {{0, 1, 25}, {1, 1, 25}, {2, 1, 25}};
  std::vector<Timestamp> ref_times;  // 0 .. 9 (longer than any distorted clip here)
  for (int i = 0; i < 10; ++i) ref_times.push_back({i, 1, 25});
  auto run = [&](std::vector<Timestamp> dis_times) {
    TimedReader ref("ref", ref_times), dis("dis", std::move(dis_times));
    return read_all(ref, dis, {.sync = FrameSource::Options::Sync::kPts, .shortest = true}).error;
  };
  EXPECT_EQ(run(good), "");
  EXPECT_EQ(run({{0, 1, 25}, {1, 0, 25}, {2, 1, 25}}), "dis: frame 1: bad time base");
  EXPECT_EQ(run({{0, 1, 0}}), "dis: frame 0: bad time base");
  EXPECT_EQ(run({{0, -1, 25}}), "dis: frame 0: bad time base");
  EXPECT_EQ(run({{0, 1, 25}, {1, 1, 50}, {2, 1, 25}}), "dis: frame 1: the time base changed mid-stream");
  EXPECT_EQ(run({{0, 1, 25}, {5, 1, 25}, {5, 1, 25}}), "dis: frame 2: presentation time 5 does not come after 5");
  EXPECT_EQ(run({{4, 1, 25}, {3, 1, 25}}), "dis: frame 1: presentation time 3 does not come after 4");
}

// A Y4M reader that counts how FrameSource uses it.
class Counting final : public VideoReader {
 public:
  explicit Counting(std::unique_ptr<VideoReader> r) : VideoReader(r->path()), r_(std::move(r)) { fmt_ = r_->format(); }
  bool read(Picture& p) override {
    ++reads;
    return count(r_->read(p));
  }
  bool decode_only(Picture& p) override {
    ++decodes;
    return count(r_->skip(p));
  }
  bool use_device_importer(DeviceImporter*) override {
    ++offers;
    return false;
  }
  int reads = 0, decodes = 0, offers = 0;

 private:
  bool count(bool got) {
    if (got) ++frames_;
    return got;
  }
  std::unique_ptr<VideoReader> r_;
};

TEST_F(Files, DecodeOnlyDecodesAndNothingIsOfferedTheCpu) {
  const std::string r = y4m("r.y4m", 32, 16, 5, 0), d = y4m("d.y4m", 32, 16, 5, 50);
  SessionConfig cfg;
  cfg.no_prediction = true;
  for (bool decode_only : {false, true}) {
    Counting a(open_video(r, std::nullopt)), b(open_video(d, std::nullopt));
    Session session(a.format(), cfg);
    EXPECT_EQ(session.device_importer(), nullptr);  // the CPU backend keeps frames on the host
    unsigned pairs = 0;
    {
      FrameSource src(a, b, session, {.decode_only = decode_only});
      std::shared_ptr<Picture> x, y;
      while (src.next(x, y)) ++pairs;
    }
    EXPECT_EQ(pairs, 5u);
    for (const Counting* c : {&a, &b}) {
      EXPECT_EQ(c->decodes, decode_only ? 6 : 0);  // 5 frames and the end
      EXPECT_EQ(c->reads, decode_only ? 0 : 6);
      EXPECT_EQ(c->offers, 0);
      EXPECT_EQ(c->frames_read(), 5u);
    }
  }
}

// The CPU backend reads one frame ahead per side: its workers' own frames in
// flight are the queue.
TEST(FrameSourceAuto, CpuBackendReadsOneFrameAhead) {
  SessionConfig cfg;
  cfg.no_prediction = true;
  cfg.backend = "cpu";
  Session session({16, 8, 8, ChromaFormat::k420}, cfg);
  EXPECT_EQ(FrameSource::auto_depth(session), 1u);
}

// A pool picture that held a frame on a GPU comes back as host memory.
TEST(Pool, PicturesComeBackWithoutDeviceCopies) {
  SessionConfig cfg;
  cfg.no_prediction = true;
  Session session({16, 8, 8, ChromaFormat::k420}, cfg);
  const Picture* first;
  {
    auto p = session.acquire();
    first = p.get();
    Picture::DeviceCopy dc;
    dc.cuda_device = 0;
    dc.plane[0] = p.get();  // any pointer: nothing reads it here
    p->set_device_copy(dc);
    ASSERT_NE(p->device_copy(), nullptr);
  }
  auto q = session.acquire();
  ASSERT_EQ(q.get(), first);  // the same picture, reused
  EXPECT_EQ(q->device_copy(), nullptr);
}

}  // namespace
}  // namespace vmafx

namespace vmafx {
namespace {

// LadderSource: every rendition gets the pairs FrameSource would give it,
// with its own offset; the reference's pictures are shared between sessions.
TEST_F(Files, LadderPairsEachRenditionWithItsOffset) {
  // Chroma is base + i: "later" (base 13) holds the reference's chroma from
  // its frame 3 on (offset -3), "self" is the reference itself.
  const std::string ref = y4m("ref.y4m", 16, 8, 10, 10);
  const std::string self = y4m("self.y4m", 16, 8, 10, 10);
  const std::string later = y4m("later.y4m", 16, 8, 7, 13);
  auto r = open_video(ref, std::nullopt);
  auto a = open_video(self, std::nullopt), b = open_video(later, std::nullopt);
  SessionConfig cfg;
  cfg.no_prediction = true;
  cfg.features = {"psnr"};
  Session s0(r->format(), cfg), s1(r->format(), cfg);
  LadderSource ladder(*r, {{a.get(), &s0, 0}, {b.get(), &s1, -3}}, {});
  std::vector<unsigned> progress;
  const auto out = ladder.run([&](unsigned n) { progress.push_back(n); });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].frames, 10u);
  EXPECT_EQ(out[0].error, "");
  EXPECT_EQ(out[1].frames, 7u);
  EXPECT_EQ(out[1].error, "");
  EXPECT_EQ(progress.back(), 10u);
  s1.finish();
  s0.finish();
  const auto* cb0 = s0.scores().find("psnr_cb");
  const auto* cb1 = s1.scores().find("psnr_cb");
  ASSERT_TRUE(cb0 && cb1);
  ASSERT_EQ(cb0->value.size(), 10u);
  ASSERT_EQ(cb1->value.size(), 7u);
  // Equal chroma in every pair of both renditions: the identical-pair value.
  for (double v : cb1->value) EXPECT_EQ(v, cb0->value[0]);
  // Luma (x + 3y + i) differs by 3 in the offset rendition's pairs.
  EXPECT_LT(s1.scores().find("psnr_y")->value[0], s0.scores().find("psnr_y")->value[0]);
}

TEST_F(Files, LadderFailsOneRenditionAndScoresTheOthers) {
  const std::string ref = y4m("ref.y4m", 16, 8, 5, 10);
  const std::string ok = y4m("ok.y4m", 16, 8, 5, 50);
  const std::string cut = y4m("cut.y4m", 16, 8, 3, 50, "FRAME", 7);
  auto r = open_video(ref, std::nullopt);
  auto a = open_video(ok, std::nullopt), b = open_video(cut, std::nullopt);
  SessionConfig cfg;
  cfg.no_prediction = true;
  cfg.features = {"psnr"};
  Session s1(r->format(), cfg), s0(r->format(), cfg);  // s1 lends the reference pictures: it goes last
  const auto out = LadderSource(*r, {{b.get(), &s1, 0}, {a.get(), &s0, 0}}, {}).run();
  EXPECT_EQ(out[0].error, cut + ": frame 2: truncated frame data");
  EXPECT_EQ(out[0].frames, 2u);
  EXPECT_EQ(out[1].error, "");
  EXPECT_EQ(out[1].frames, 5u);
  s0.finish();
}

TEST(LadderErrors, NeedsARendition) {
  auto r = open_video(std::string(VMAFX_TEST_DATA_DIR) + "/golden/clips/astro176.ref.y4m", std::nullopt);
  try {
    LadderSource l(*r, {}, {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "a ladder needs at least one rendition");
  }
}

TEST(SyncErrors, NegativeWindow) {
  const std::string clip = std::string(VMAFX_TEST_DATA_DIR) + "/golden/clips/astro176.ref.y4m";
  auto a = open_video(clip, std::nullopt), b = open_video(clip, std::nullopt);
  try {
    find_sync_offset(*a, *b, -1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--sync-window -1: expected 0 or more");
  }
}

}  // namespace
}  // namespace vmafx

namespace vmafx {
namespace {

// scale_video refuses bit depths libswscale has no planar format for (11, 13, 15).
TEST_F(Files, ScaleRefusesDepthsWithoutAPixelFormat) {
  const std::string raw = path("c11.yuv");
  std::ofstream(raw, std::ios::binary) << std::string(16 * 8 * 3, '\0');
  const PictureFormat eight{16, 8, 8, ChromaFormat::k420}, eleven{16, 8, 11, ChromaFormat::k420};
  try {
    scale_video(open_video(raw, RawFormat{16, 8, ChromaFormat::k420, 11}), eight, default_scale_flags());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), raw + ": cannot scale a 11-bit clip (libswscale has 8, 9, 10, 12, 14 and 16 bit)");
  }
  const std::string y = y4m("c8.y4m", 16, 8, 1, 0);
  try {
    scale_video(open_video(y, std::nullopt), eleven, default_scale_flags());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              y + ": cannot scale to the reference's 11-bit format (libswscale has 8, 9, 10, 12, 14 and 16 bit)");
  }
}

}  // namespace
}  // namespace vmafx
