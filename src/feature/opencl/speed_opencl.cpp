// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twins of "speed_chroma" and "speed_temporal" (feature/speed.cpp):
// on the device (speed.cl) the planes on the float scale, the temporal
// difference, the optional prescale and the antialias Gaussian decimated by
// 16; on the host the reference's own speed::score_decimated() on the small
// decimated images (local mean, the model fit with its libm logs) and its
// output functions.
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "feature/opencl/opencl_twin.hpp"
#include "feature/speed.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "speed.cl";

// The device part of one decimation: a w x h plane (or the difference of two)
// to the dw x dh image at `off` floats into `out`.
class Decimator {
 public:
  Decimator(const speed::Params& p, const speed::Dims& d) : p_(p), d_(d), t_(speed::decimation_tables(p, d)) {}

  // Scratch slots used: first .. first + 2.
  // a, b: packed planes of `pitch` samples per row.
  void enqueue(Slot& s, int owner, int first, cl_mem a, cl_mem b, int pitch, bool diff, int bpc, cl_mem out,
               std::size_t off) {
    Device& dev = s.device();
    const cl_int wide = bpc > 8 ? 1 : 0;
    const int w = d_.ow, h = d_.oh;
    cl_mem img = s.scratch(owner, first, std::size_t(w) * h * 4);
    cl_kernel kf = s.kernel(kFile, "speed_to_float");
    set_args(kf, a, b, cl_int(pitch), cl_int(w), cl_int(h), wide, cl_int(bpc), cl_int(diff ? 1 : 0), img);
    run2d(s.queue(), kf, std::size_t(w), std::size_t(h), 32, 8);
    if (t_.prescale) {
      const std::string tag = "speed." + std::to_string(int(p_.method)) + "." + std::to_string(d_.ow) + "." +
                              std::to_string(d_.oh) + "." + std::to_string(d_.sw) + "." + std::to_string(d_.sh);
      cl_mem ix = dev.table(tag + ".ix", t_.ix.data(), t_.ix.size() * 4);
      cl_mem iy = dev.table(tag + ".iy", t_.iy.data(), t_.iy.size() * 4);
      cl_mem wx = dev.table(tag + ".wx", t_.wx.data(), t_.wx.size() * 4);
      cl_mem wy = dev.table(tag + ".wy", t_.wy.data(), t_.wy.size() * 4);
      cl_mem scaled = s.scratch(owner, first + 1, std::size_t(d_.sw) * d_.sh * 4);
      cl_kernel k;
      switch (p_.method) {
        case flt::ScaleMethod::kNearest:
          k = s.kernel(kFile, "speed_scale_nearest");
          set_args(k, img, cl_int(w), ix, iy, cl_int(d_.sw), cl_int(d_.sh), scaled);
          break;
        case flt::ScaleMethod::kBilinear:
          k = s.kernel(kFile, "speed_scale_bilinear");
          set_args(k, img, cl_int(w), ix, wx, iy, wy, cl_int(d_.sw), cl_int(d_.sh), scaled);
          break;
        default:
          k = s.kernel(kFile, "speed_scale_interp");
          set_args(k, img, cl_int(w), ix, wx, iy, wy, cl_int(t_.scale_taps),
                   cl_int(p_.method == flt::ScaleMethod::kLanczos4 ? 1 : 0), cl_int(d_.sw), cl_int(d_.sh), scaled);
          break;
      }
      run2d(s.queue(), k, std::size_t(d_.sw), std::size_t(d_.sh), 32, 8);
      img = scaled;
    }
    const int fw = int(t_.taps.size());
    cl_mem filt = dev.table("speed.aa." + std::to_string(fw), t_.taps.data(), t_.taps.size() * 4);
    cl_mem tmp = s.scratch(owner, first + 2, std::size_t(d_.sw) * d_.dh * 4);
    cl_kernel kv = s.kernel(kFile, "speed_vertical");
    set_args(kv, img, cl_int(d_.sw), cl_int(d_.sh), filt, cl_int(fw), cl_int(16), cl_int(d_.dh), tmp);
    run2d(s.queue(), kv, std::size_t(d_.sw), std::size_t(d_.dh), 32, 8);
    cl_kernel kh = s.kernel(kFile, "speed_horizontal");
    set_args(kh, tmp, cl_int(d_.sw), filt, cl_int(fw), cl_int(16), cl_int(d_.dw), cl_int(d_.dh), out, cl_int(off));
    run2d(s.queue(), kh, std::size_t(d_.dw), std::size_t(d_.dh), 16, 8);
  }

  std::size_t image() const { return std::size_t(d_.dw) * d_.dh; }

 private:
  speed::Params p_;
  speed::Dims d_;
  speed::DecimationTables t_;
};

struct ChromaPending : FrameState {
  std::vector<float> host;  // U ref, U dis, V ref, V dis
};

class SpeedChromaTwin final : public FrameTwin<ChromaPending> {
 public:
  SpeedChromaTwin(std::shared_ptr<FrameGroup> g, const speed::ChromaSetup& c, const PictureFormat& f)
      : FrameTwin(std::move(g)), c_(c), fmt_(f), dec_(c.p, c.d) {}

 private:
  void emit(Slot&, Pending& st, const Picture&, const Picture&, unsigned index, FeatureSink& out) override {
    speed::put_chroma_decimated(c_, st.host.data(), dec_.image(), index, out);
  }

  void enqueue(Slot& s, const Picture& ref, const Picture& dis, unsigned index, Pending& st) override {
    const std::size_t n = dec_.image();
    cl_mem out = s.scratch(id_, 0, 4 * n * 4);
    for (int c = 0; c < 2; ++c) {
      const Slot::Planes pl = s.planes(ref, dis, index, c + 1);
      const int pitch = fmt_.plane_width(c + 1);
      dec_.enqueue(s, id_, 1, pl.ref, pl.ref, pitch, false, fmt_.bpc, out, 2 * c * n);
      dec_.enqueue(s, id_, 1, pl.dis, pl.dis, pitch, false, fmt_.bpc, out, (2 * c + 1) * n);
    }
    st.host.resize(4 * n);
    st.read.start(s.queue(), out, st.host.data(), 4 * n * 4);
  }

  speed::ChromaSetup c_;
  PictureFormat fmt_;
  Decimator dec_;
};

// Frame i differences the luma of frames i - 1 and i: the earlier frame's
// pictures come from the engine (history()), so frames run on any worker.
class SpeedTemporalTwin final : public Twin {
 public:
  SpeedTemporalTwin(std::shared_ptr<FrameGroup> g, const speed::TemporalSetup& t, const PictureFormat& f)
      : Twin(std::move(g)), t_(t), fmt_(f), dec_(t.p, t.d) {}

  unsigned history() const override { return 1; }

  void extract(const Picture&, const Picture&, unsigned, FeatureSink&) override {
    throw std::logic_error("speed_temporal: the OpenCL twin runs through extract_with()");
  }

  void extract_with(const Picture& ref, const Picture& dis, const Earlier& earlier, unsigned index,
                    FeatureSink& out) override {
    if (index == 0) {
      speed::put_temporal(0.0f, index, out);
      return;
    }
    if (earlier.count < 1) throw std::logic_error("speed_temporal: the earlier frame is missing");
    Slot& s = slot();
    Pending& st = s.state<Pending>(id_);
    const Slot::Planes pl = s.planes(ref, dis, index, 0);
    cl_mem prev_ref = upload(s, st.prev[0], *earlier.ref[0]);
    cl_mem prev_dis = upload(s, st.prev[1], *earlier.dis[0]);
    const std::size_t n = dec_.image();
    cl_mem o = s.scratch(id_, 0, 2 * n * 4);
    dec_.enqueue(s, id_, 1, prev_ref, pl.ref, fmt_.width, true, fmt_.bpc, o, 0);
    dec_.enqueue(s, id_, 1, prev_dis, t_.use_ref_diff ? pl.ref : pl.dis, fmt_.width, true, fmt_.bpc, o, n);
    st.host.resize(2 * n);
    read(s.queue(), o, st.host.data(), 2 * n * 4);  // also completes the uploads
    speed::put_temporal_decimated(t_, st.host.data(), n, index, out);
  }

 private:
  struct Pending : Slot::State {
    Buffer prev[2];
    std::vector<float> host;
  };

  // The earlier frame's luma, packed, into `buf` (not waited for: the
  // blocking read that ends extract_with() follows it on the in-order queue).
  cl_mem upload(Slot& s, Buffer& buf, const Picture& pic) {
    const std::size_t row = std::size_t(fmt_.width) * fmt_.bytes_per_sample();
    const std::size_t rows = std::size_t(fmt_.height);
    cl_mem m = buf.get(s.device().context(), row * rows);
    const PlaneView v = pic.plane(0);
    ProfEvent ev("upload (speed_temporal earlier frame)");
    if (std::size_t(v.stride) == row) {
      check(clEnqueueWriteBuffer(s.queue(), m, CL_FALSE, 0, row * rows, v.data, 0, nullptr, ev.out()), "upload");
    } else {
      const std::size_t buf_origin[3] = {0, 0, 0}, host_origin[3] = {0, 0, 0};
      const std::size_t region[3] = {row, rows, 1};
      check(clEnqueueWriteBufferRect(s.queue(), m, CL_FALSE, buf_origin, host_origin, region, row, 0,
                                     std::size_t(v.stride), 0, v.data, 0, nullptr, ev.out()),
            "upload");
    }
    return m;
  }

  speed::TemporalSetup t_;
  PictureFormat fmt_;
  Decimator dec_;
};

}  // namespace

std::unique_ptr<Extractor> make_speed_chroma_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                  const PictureFormat& f) {
  return std::make_unique<SpeedChromaTwin>(std::move(g), speed::chroma_setup(o, f), f);
}

std::unique_ptr<Extractor> make_speed_temporal_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                    const PictureFormat& f) {
  return std::make_unique<SpeedTemporalTwin>(std::move(g), speed::temporal_setup(o, f), f);
}

}  // namespace vmafx::ocl
