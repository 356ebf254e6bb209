// SPDX-License-Identifier: BSD-3-Clause
// The default scaler against FFmpeg's libswscale (built where pkg-config finds
// libswscale):
//  - kDefaultScaleFlags give the same output with libswscale's SIMD as with
//    its C code (av_force_cpu_flags(0)), and plain "bicubic" does not (which
//    is why the default carries more flags);
//  - the exact reimplementation (core/scale_exact.hpp) equals libswscale,
//    sample for sample, over the whole matrix (tests/support/scale_cases.hpp).
// libswscale is set up as FFmpeg 5.1's scale filter sets it up (as
// io/scale.cpp does): sizes, formats, flags, chroma siting, no threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/scale_exact.hpp"
#include "io/scale_default.hpp"
#include "support/scale_cases.hpp"

extern "C" {
#include <libavutil/cpu.h>
#include <libavutil/opt.h>
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
}

namespace vmafx {
namespace {

AVPixelFormat pix_fmt(const PictureFormat& f) {
  const int col = int(f.chroma);
  static const AVPixelFormat k8[] = {AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_GRAY8};
  static const AVPixelFormat k9[] = {AV_PIX_FMT_YUV420P9LE, AV_PIX_FMT_YUV422P9LE, AV_PIX_FMT_YUV444P9LE,
                                     AV_PIX_FMT_GRAY9LE};
  static const AVPixelFormat k10[] = {AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE,
                                      AV_PIX_FMT_GRAY10LE};
  static const AVPixelFormat k12[] = {AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE,
                                      AV_PIX_FMT_GRAY12LE};
  static const AVPixelFormat k14[] = {AV_PIX_FMT_YUV420P14LE, AV_PIX_FMT_YUV422P14LE, AV_PIX_FMT_YUV444P14LE,
                                      AV_PIX_FMT_GRAY14LE};
  static const AVPixelFormat k16[] = {AV_PIX_FMT_YUV420P16LE, AV_PIX_FMT_YUV422P16LE, AV_PIX_FMT_YUV444P16LE,
                                      AV_PIX_FMT_GRAY16LE};
  switch (f.bpc) {
    case 8: return k8[col];
    case 9: return k9[col];
    case 10: return k10[col];
    case 12: return k12[col];
    case 14: return k14[col];
    default: return k16[col];
  }
}

struct SwsFree {
  void operator()(SwsContext* c) const { sws_freeContext(c); }
};

// libswscale's conversion of `in` into `out` with `flags`, with the CPU
// flags that are in force when the context is made (and used).
void libswscale(const Picture& in, Picture& out, const char* flags, bool full_range = false) {
  std::unique_ptr<SwsContext, SwsFree> ctx(sws_alloc_context());
  ASSERT_TRUE(ctx);
  SwsContext* s = ctx.get();
  const AVPixelFormat fi = pix_fmt(in.format()), fo = pix_fmt(out.format());
  av_opt_set_int(s, "srcw", in.width(), 0);
  av_opt_set_int(s, "srch", in.height(), 0);
  av_opt_set_int(s, "src_format", fi, 0);
  av_opt_set_int(s, "dstw", out.width(), 0);
  av_opt_set_int(s, "dsth", out.height(), 0);
  av_opt_set_int(s, "dst_format", fo, 0);
  ASSERT_GE(av_opt_set(s, "sws_flags", flags, 0), 0);
  const sws::Siting st = sws::scale_filter_siting(in.format(), out.format());
  av_opt_set_int(s, "src_h_chr_pos", st.src_h, 0);
  av_opt_set_int(s, "src_v_chr_pos", st.src_v, 0);
  av_opt_set_int(s, "dst_h_chr_pos", st.dst_h, 0);
  av_opt_set_int(s, "dst_v_chr_pos", st.dst_v, 0);
  if (full_range) {
    av_opt_set_int(s, "src_range", 1, 0);
    av_opt_set_int(s, "dst_range", 1, 0);
  }
  ASSERT_GE(sws_init_context(s, nullptr, nullptr), 0) << flags;
  const std::uint8_t* src[4] = {};
  int src_stride[4] = {};
  std::uint8_t* dst[4] = {};
  int dst_stride[4] = {};
  for (int p = 0; p < in.format().plane_count(); ++p) {
    src[p] = in.plane(p).data;
    src_stride[p] = int(in.stride(p));
  }
  for (int p = 0; p < out.format().plane_count(); ++p) {
    dst[p] = out.plane_data(p);
    dst_stride[p] = int(out.stride(p));
  }
  ASSERT_EQ(sws_scale(s, src, src_stride, 0, in.height(), dst, dst_stride), out.height());
}

// Restores libswscale's own CPU detection whatever a test did.
struct CpuFlags {
  explicit CpuFlags(int flags) { av_force_cpu_flags(flags); }
  ~CpuFlags() { av_force_cpu_flags(-1); }
};

// Both runs of `flags` (SIMD, then C), and how many cases differed.
int simd_differences(const char* flags, bool large, bool report) {
  int differ = 0, n = 0;
  for (const test::ScaleCase& c : test::scale_cases(large)) {
    Picture in(c.src), simd(c.dst), plain(c.dst);
    test::fill_scale_source(in, 1000u + unsigned(n++));
    {
      CpuFlags cpu(-1);
      libswscale(in, simd, flags);
    }
    {
      CpuFlags cpu(0);
      libswscale(in, plain, flags);
    }
    const std::string diff = test::first_difference(simd, plain);
    if (!diff.empty()) {
      ++differ;
      if (report) ADD_FAILURE() << flags << ": " << test::describe(c) << ": SIMD vs C at " << diff;
    }
  }
  return differ;
}

bool cpu_has_simd() { return (av_get_cpu_flags() & (AV_CPU_FLAG_SSE2 | AV_CPU_FLAG_NEON)) != 0; }

TEST(SwscaleDefault, SameOutputWithAndWithoutSimd) {
  if (!cpu_has_simd()) GTEST_SKIP() << "libswscale finds no SIMD on this CPU";
  EXPECT_EQ(simd_differences(kDefaultScaleFlags, true, true), 0);
}

// What the extra flags are for: plain bicubic's 8-bit vertical filter and
// its SIMD-aligned filter lengths depend on the CPU. (x86 only: other CPUs'
// SIMD in libswscale 6 differs elsewhere or not at all.)
TEST(SwscaleDefault, PlainBicubicDependsOnSimd) {
  const int f = av_get_cpu_flags();
  if (!(f & AV_CPU_FLAG_SSE3)) GTEST_SKIP() << "not an x86 CPU with SSE3";
  EXPECT_GT(simd_differences("bicubic", false, false), 0);
}

TEST(ScaleExact, HostEqualsLibswscale) {
  int n = 0;
  for (const test::ScaleCase& c : test::scale_cases(true)) {
    Picture in(c.src), ref(c.dst), mine(c.dst);
    test::fill_scale_source(in, 2000u + unsigned(n++));
    libswscale(in, ref, kDefaultScaleFlags);
    sws::scale(sws::Plan(c.src, c.dst), in, mine);
    const std::string diff = test::first_difference(ref, mine);
    EXPECT_EQ(diff, "") << test::describe(c);
  }
}

// Both sides full range (a yuvj clip scored against a yuvj reference): the
// same filters; same-size depth changes of the luma differ.
TEST(ScaleExact, FullRangeBothSides) {
  int n = 0, depth = 0;
  for (const test::ScaleCase& c : test::scale_cases(false)) {
    if (c.src.chroma == ChromaFormat::k400) continue;
    Picture in(c.src), ref(c.dst), mine(c.dst);
    test::fill_scale_source(in, 4000u + unsigned(n++));
    libswscale(in, ref, kDefaultScaleFlags, true);
    const sws::Plan plan(c.src, c.dst, sws::scale_filter_siting(c.src, c.dst), true);
    if (plan.kind() == sws::Plan::Kind::kDepth) ++depth;
    sws::scale(plan, in, mine);
    EXPECT_EQ(test::first_difference(ref, mine), "") << test::describe(c);
  }
  EXPECT_GT(depth, 10);
}

}  // namespace
}  // namespace vmafx
