// SPDX-License-Identifier: BSD-3-Clause
// OpenCL twin of float_motion: the CPU extractor (fmotion::Motion: the frame
// order, motion2 / motion3, the fps weight, blend and cap) with its score
// between two references on the device: the planes to float, the blur, and
// each row's float sum of |a - b| (float_motion.cl); the rows added here in
// row order and divided as the reference does. With motion_add_scale1 the
// blurred planes come back and the reference's own fmotion::sad (half-size
// bilinear frames included) scores them.
#include <cstring>
#include <vector>

#include "feature/float_motion.hpp"
#include "feature/opencl/opencl_twin.hpp"

namespace vmafx::ocl {
namespace {

constexpr const char* kFile = "float_motion.cl";

class FloatMotionTwin final : public fmotion::Motion {
 public:
  FloatMotionTwin(std::shared_ptr<FrameGroup> g, const fmotion::Config& c)
      : Motion(c), group_(std::move(g)), id_(group_->new_twin_id()) {}

 protected:
  double score_between(const Picture& earlier, const Picture& later, unsigned /*index*/) override {
    group_->seal();
    Slot& s = group_->slot();
    cl_command_queue q = s.queue();
    const std::string tab_name =
        "float_motion:" + std::to_string(c_.taps) + ":" + std::to_string(c_.filt == fmotion::kFilter5NoOp ? 1 : 0);
    const cl_mem taps = s.device().table(tab_name, c_.filt, std::size_t(c_.taps) * 4);
    const int bps = c_.bpc > 8 ? 2 : 1;
    const cl_uint opq = 0;
    thread_local std::vector<std::uint8_t> packed;
    thread_local std::vector<float> host;
    double total = 0;
    for (int p = 0; p < c_.planes; ++p) {
      const int w = c_.dims[p][0], h = c_.dims[p][1];
      const std::size_t n = std::size_t(w) * h;
      cl_mem raw = s.scratch(id_, 0, n * bps);
      cl_mem img = s.scratch(id_, 1, n * 4);
      cl_mem tmp = s.scratch(id_, 2, n * 4);
      cl_mem blurred[2] = {s.scratch(id_, 3, n * 4), s.scratch(id_, 4, n * 4)};
      const Picture* pics[2] = {&earlier, &later};
      for (int k = 0; k < 2; ++k) {
        const PlaneView v = pics[k]->plane(p);
        packed.resize(n * bps);
        for (int y = 0; y < h; ++y)
          std::memcpy(packed.data() + std::size_t(y) * w * bps, v.data + y * v.stride, std::size_t(w) * bps);
        write(q, raw, packed.data(), n * bps);
        cl_kernel kf = s.kernel("float_vif.cl", "fv_to_float");
        set_args(kf, raw, cl_int(w), cl_int(h), cl_int(c_.bpc), img);
        run2d(q, kf, std::size_t(w), std::size_t(h), 16, 8);
        cl_kernel kv = s.kernel(kFile, "fm_vertical");
        set_args(kv, taps, cl_int(c_.taps), img, cl_int(w), cl_int(h), opq, tmp);
        run2d(q, kv, std::size_t(w), std::size_t(h), 16, 8);
        cl_kernel kh = s.kernel(kFile, "fm_horizontal");
        set_args(kh, taps, cl_int(c_.taps), tmp, cl_int(w), cl_int(h), opq, blurred[k]);
        run2d(q, kh, std::size_t(w), std::size_t(h), 16, 8);
      }
      double v;
      if (!c_.add_scale1) {
        cl_mem rows = s.scratch(id_, 5, std::size_t(h) * 4);
        cl_kernel kr = s.kernel(kFile, "fm_rows");
        set_args(kr, blurred[0], blurred[1], cl_int(w), cl_int(h), rows);
        run(q, kr, std::size_t(h), 64);
        host.resize(std::size_t(h));
        read(q, rows, host.data(), std::size_t(h) * 4);
        float acc = 0.0f;
        for (int i = 0; i < h; ++i) acc += host[std::size_t(i)];
        v = acc / static_cast<float>(w * h);
      } else {
        host.resize(2 * n);
        read(q, blurred[0], host.data(), n * 4);
        read(q, blurred[1], host.data() + n, n * 4);
        v = fmotion::sad(host.data(), host.data() + n, w, h, true, c_.dims[0][0]);
      }
      total = p == 0 ? v : total + v;
    }
    return total;
  }

 private:
  std::shared_ptr<FrameGroup> group_;
  int id_;
};

}  // namespace

std::unique_ptr<Extractor> make_float_motion_twin(std::shared_ptr<FrameGroup> g, const OptionSet& o,
                                                  const PictureFormat& f) {
  return std::make_unique<FloatMotionTwin>(std::move(g), fmotion::config(o, f));
}

}  // namespace vmafx::ocl
