// SPDX-License-Identifier: BSD-3-Clause
// Frames a hardware decoder leaves in device memory (DeviceImporter of the
// CUDA backend): NV12, P010 and planar surfaces with pitched rows become the
// picture's planar device copy sample for sample, stray low bits are caught,
// and a session scoring such pictures writes the very scores of the same
// frames from host memory (vmaf_v0.6.1 with psnr: vif, adm, motion and psnr
// twins, the motion twin's shared luma included). Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend/backends.hpp"
#include "support/pictures.hpp"
#include "vmaf_exact/collector.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/session.hpp"
#ifdef VMAFX_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace vmafx {
namespace {

#ifdef VMAFX_HAVE_CUDA

bool have_gpu() { return !list_cuda_devices().empty(); }

// A decoder surface in device memory: luma rows, then chroma (interleaved or
// two planes), each with `pitch` bytes per row (wider than the samples).
struct Surface {
  std::vector<void*> mem;
  DeviceImporter::Surface s;
  ~Surface() {
    for (void* p : mem) cudaFree(p);
  }
  void plane(int p, const std::vector<std::uint8_t>& rows, int row_bytes, int h, int pitch) {
    void* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, std::size_t(pitch) * h), cudaSuccess);
    mem.push_back(d);
    ASSERT_EQ(cudaMemcpy2D(d, pitch, rows.data(), row_bytes, row_bytes, h, cudaMemcpyHostToDevice), cudaSuccess);
    s.data[p] = d;
    s.pitch[p] = pitch;
  }
};

// The surface a decoder would hand over for `pic` (host samples): NV12/P016
// style when interleaved, planar otherwise; 16-bit containers with the
// samples `shift` bits up.
void make_surface(const Picture& pic, bool interleaved, int shift, Surface& out) {
  const PictureFormat& f = pic.format();
  const int bps = f.bytes_per_sample();
  auto sample = [&](int p, int x, int y) -> unsigned {
    return bps == 1 ? pic.row<std::uint8_t>(p, y)[x] : pic.row<std::uint16_t>(p, y)[x];
  };
  auto put = [&](std::vector<std::uint8_t>& v, std::size_t at, unsigned value) {
    if (bps == 1)
      v[at] = std::uint8_t(value);
    else {
      const std::uint16_t u = std::uint16_t(value << shift);
      std::memcpy(&v[at], &u, 2);
    }
  };
  const int w = f.width, h = f.height;
  std::vector<std::uint8_t> y(std::size_t(w) * h * bps);
  for (int r = 0; r < h; ++r)
    for (int x = 0; x < w; ++x) put(y, (std::size_t(r) * w + x) * bps, sample(0, x, r));
  out.plane(0, y, w * bps, h, w * bps + 256);
  out.s.shift = shift;
  out.s.interleaved_chroma = interleaved;
  if (f.plane_count() == 1) return;
  const int cw = f.plane_width(1), ch = f.plane_height(1);
  if (interleaved) {
    std::vector<std::uint8_t> uv(std::size_t(2) * cw * ch * bps);
    for (int r = 0; r < ch; ++r)
      for (int x = 0; x < cw; ++x) {
        put(uv, (std::size_t(r) * 2 * cw + 2 * x) * bps, sample(1, x, r));
        put(uv, (std::size_t(r) * 2 * cw + 2 * x + 1) * bps, sample(2, x, r));
      }
    out.plane(1, uv, 2 * cw * bps, ch, 2 * cw * bps + 128);
  } else {
    for (int p = 1; p < 3; ++p) {
      std::vector<std::uint8_t> c(std::size_t(cw) * ch * bps);
      for (int r = 0; r < ch; ++r)
        for (int x = 0; x < cw; ++x) put(c, (std::size_t(r) * cw + x) * bps, sample(p, x, r));
      out.plane(p, c, cw * bps, ch, cw * bps + 64);
    }
  }
}

// The device copy read back into a host picture of the same geometry.
void read_back(const Picture& pic, Picture& out) {
  const Picture::DeviceCopy* dc = pic.device_copy();
  ASSERT_NE(dc, nullptr);
  for (int p = 0; p < pic.format().plane_count(); ++p) {
    const PlaneView v = pic.plane(p);
    ASSERT_EQ(cudaMemcpy(out.plane_data(p), dc->plane[p], std::size_t(v.stride) * v.height, cudaMemcpyDeviceToHost),
              cudaSuccess);
  }
}

bool same_samples(const Picture& a, const Picture& b) {
  const PictureFormat& f = a.format();
  for (int p = 0; p < f.plane_count(); ++p)
    for (int y = 0; y < f.plane_height(p); ++y)
      if (std::memcmp(a.row<std::uint8_t>(p, y), b.row<std::uint8_t>(p, y),
                      std::size_t(f.plane_width(p)) * f.bytes_per_sample()) != 0)
        return false;
  return true;
}

TEST(CudaImport, SurfacesBecomePlanarCopiesSampleForSample) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  auto backend = create_backend("cuda", 0);
  DeviceImporter* imp = backend->device_importer();
  ASSERT_NE(imp, nullptr);
  EXPECT_EQ(imp->cuda_device(), 0);
  std::mt19937 rng(3);
  struct Case {
    PictureFormat f;
    bool interleaved;
    int shift;
  } cases[] = {
      {{64, 36, 8, ChromaFormat::k420}, true, 0},    // NV12
      {{38, 22, 8, ChromaFormat::k420}, true, 0},    // NV12, rows of 38 samples
      {{64, 36, 10, ChromaFormat::k420}, true, 6},   // P010
      {{48, 20, 12, ChromaFormat::k420}, true, 4},   // P016 of a 12-bit stream
      {{40, 24, 16, ChromaFormat::k420}, true, 0},   // P016
      {{40, 24, 8, ChromaFormat::k444}, false, 0},   // planar 4:4:4
      {{40, 24, 10, ChromaFormat::k444}, false, 6},  // YUV444P16 of a 10-bit stream
  };
  for (const Case& c : cases) {
    Picture host(c.f), dev(c.f), back(c.f);
    test::fill_random(host, rng, 0, (1 << c.f.bpc) - 1);
    Surface s;
    make_surface(host, c.interleaved, c.shift, s);
    ASSERT_TRUE(imp->import(s.s, dev)) << c.f.width << "x" << c.f.height << " " << c.f.bpc;
    read_back(dev, back);
    EXPECT_TRUE(same_samples(host, back)) << c.f.width << "x" << c.f.height << " " << c.f.bpc;
    dev.clear_device_copy();
    EXPECT_EQ(dev.device_copy(), nullptr);
  }
}

TEST(CudaImport, StrayLowBitsAreCaught) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  auto backend = create_backend("cuda", 0);
  DeviceImporter* imp = backend->device_importer();
  const PictureFormat f{32, 16, 10, ChromaFormat::k420};
  Picture host(f), dev(f);
  std::mt19937 rng(5);
  test::fill_random(host, rng, 0, (1 << f.bpc) - 1);
  for (int plane : {0, 1}) {
    Surface s;
    make_surface(host, true, 6, s);
    // One sample of the plane gets a bit below the 10 significant ones.
    std::uint16_t v = 0;
    const std::size_t at = std::size_t(s.s.pitch[plane]) * 3 + 2 * 5;
    auto* p = static_cast<std::uint8_t*>(const_cast<void*>(s.s.data[plane])) + at;
    ASSERT_EQ(cudaMemcpy(&v, p, 2, cudaMemcpyDeviceToHost), cudaSuccess);
    v |= 1u << 2;
    ASSERT_EQ(cudaMemcpy(p, &v, 2, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_FALSE(imp->import(s.s, dev)) << "plane " << plane;
  }
  Surface ok;
  make_surface(host, true, 6, ok);
  EXPECT_TRUE(imp->import(ok.s, dev));  // the flag does not stick
}

// The same frames scored from host pictures and from device copies: every
// series equal, for the v0.6.1 model with psnr and for every other twin
// (cambi with a resize whose samples outside the picture come from the host
// in libvmaf's layout: read back from the device copy).
TEST(CudaImport, ScoresOfDeviceCopiesEqualHostPictures) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  struct Run {
    std::vector<std::string> models, features;
  } runs[] = {
      {{}, {"psnr"}},
      {{"version=vmaf_v1.0.16_1d5h_2160"}, {"cambi=enc_width=230:enc_height=160", "cambi=full_ref=true"}},
      {{"version=vmaf_float_v0.6.1"},
       {"float_ssim", "float_ms_ssim", "ssim", "psnr_hvs", "float_psnr", "float_ansnr", "float_moment",
        "speed_temporal", "motion=motion_five_frame_window=true"}},
  };
  for (const Run& run : runs)
    for (int bpc : {8, 10}) {
      const PictureFormat f{352, 288, bpc, ChromaFormat::k420};
      SessionConfig cfg;
      cfg.backend = "cuda";
      cfg.models = run.models;
      cfg.features = run.features;
      cfg.threads = 3;
      const int frames = 6;
      std::vector<FeatureCollector::Series> want, got;
      for (bool device : {false, true}) {
        Session session(f, cfg);
        DeviceImporter* imp = session.device_importer();
        ASSERT_NE(imp, nullptr) << session.backend_description();
        const test::Filler content = test::scaled_content(bpc);
        std::vector<std::unique_ptr<Surface>> keep;
        for (int i = 0; i < frames; ++i) {
          auto a = session.acquire(), b = session.acquire();
          content(*a, *b, unsigned(i));
          if (device) {
            for (auto* pic : {a.get(), b.get()}) {
              keep.push_back(std::make_unique<Surface>());
              make_surface(*pic, true, bpc == 8 ? 0 : 16 - bpc, *keep.back());
              // The host samples must not be what the twins read.
              for (int p = 0; p < 3; ++p)
                std::memset(pic->plane_data(p), 0x5a, std::size_t(pic->stride(p)) * pic->plane(p).height);
              ASSERT_TRUE(imp->import(keep.back()->s, *pic));
            }
          }
          session.push(std::move(a), std::move(b));
        }
        session.finish();
        (device ? got : want) = session.scores().all();
      }
      ASSERT_GT(want.size(), 3u);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(got[k].name, want[k].name);
        EXPECT_EQ(got[k].value, want[k].value) << want[k].name << " " << bpc << " bit";
        EXPECT_EQ(got[k].written, want[k].written) << want[k].name;
      }
    }
}

#endif  // VMAFX_HAVE_CUDA

TEST(CudaImport, CpuSessionsHaveNoImporter) {
  SessionConfig cfg;
  cfg.no_prediction = true;
  cfg.features = {"psnr"};
  Session session({16, 8, 8, ChromaFormat::k420}, cfg);
  EXPECT_EQ(session.device_importer(), nullptr);
}

}  // namespace
}  // namespace vmafx
