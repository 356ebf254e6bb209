// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CAMBI banding detector ("cambi" extractor of libvmaf 3.2.0, cambi.c and
// luminance_tools.c; the plain C path, not the AVX2 one).
//
// No-reference by default: per frame it writes Cambi_feature_cambi_score
// (alias "cambi") for the distorted picture, with libvmaf's append_with_dict,
// so the name carries the option suffix (e.g. "cambi_hrs_1080_cmxv_17_vlt_0.06"
// for the vmaf_v1.0.16 models). With full_ref=true it also writes, in this
// order, "cambi_source" (the same score of the reference picture, at
// src_width x src_height) and "cambi_full_reference" (max(0, dist - source)).
// Those two are not in libvmaf's provided-feature dictionary, so its
// append_with_dict writes them as given: plain names, no alias, no suffix.
// Every value is clipped at cambi_max_val.
//
// Pipeline, per picture: luma to 10 bit (nearest-neighbour resize to the
// encode or source size; 2x2 anti-dithering when the encode is below 10 bit);
// a 7x7 zero-derivative mask; then 5 scales (halving; with the high-res
// speed-up the first scale is already halved), each: 3x3 separable mode
// filter, per-pixel banding confidence from windowed value histograms,
// top-k mean; scales weighted 16:8:4:2:1.
//
// Options: all of libvmaf's, with its names, aliases, ranges and defaults.
// heatmaps_path writes libvmaf's 16-bit heat maps (one file per scale).
//
// Refused in create, each with a one-line Error naming cambi:
//  * both sides of the encode (or source) size below 216 (as libvmaf);
//  * inconsistent source/encode aspect, unknown eotf, a window too large for
//    the reciprocal table, an unusable heatmaps_path (as libvmaf);
//  * cambi_vis_lum_threshold above the EOTF's peak (libvmaf loops forever);
//  * sizes where the banding window is wider than the picture at the coarsest
//    scale (aspect ratios beyond about 10:1). libvmaf then reads outside the
//    picture (stale buffers or out of bounds), so its result is not defined;
//  * full_ref with 10-bit input, the encode at the input size and a source
//    width whose 32-aligned row differs from the input's: libvmaf copies the
//    picture with the wrong row pitch there.
// A luma sample above 2^bpc - 1 (bpc 9..15) makes extract throw, as libvmaf
// fails that frame.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/feature.hpp"
#include "vmaf_exact/picture.hpp"

namespace vmafx {

extern const ExtractorDescriptor kCambiExtractor;

namespace cambi {

enum class Eotf { kBt1886, kPq };

// 10-bit limited-range luma: code 64 is black, 940 white.
double bt1886_eotf(double v);
double pq_eotf(double v);
double luminance(int sample, Eotf eotf);

// Largest 10-bit code at which a step of `diff` codes is still visible
// (libvmaf's bisection; 0 when never visible, 1023 when always).
int tvi_for_diff(int diff, double tvi_threshold, Eotf eotf);
// Smallest code whose luminance reaches `threshold` (0 when that is black).
// Throws Error when no code reaches it.
int vis_lum_threshold_luma(double threshold, Eotf eotf);
// The window adjusted to the picture size: ((window * (w + h)) / 375) >> 4,
// halved (rounding up) with the speed-up, then made odd.
std::uint16_t adjust_window(std::uint16_t window, unsigned w, unsigned h, bool speedup);

// Everything create() resolves from the options and the picture format.
struct Settings {
  int width = 0, height = 0, bpc = 8;  // input
  unsigned enc_width = 0, enc_height = 0, enc_bitdepth = 0;
  unsigned src_width = 0, src_height = 0;
  std::uint16_t window = 0, src_window = 0;  // adjusted
  double topk = 0.6;
  double max_val = 1000.0;
  bool full_ref = false;
  bool speedup = false;
  int num_diffs = 4;
  std::uint16_t tvi[32] = {};  // tvi_for_diff(d + 1) + num_diffs
  int diff_weights[32] = {};
  std::uint16_t vlt_luma = 0;
  int band_base = 0, band_size = 0;  // histogram rows: 10-bit codes [base, base + size)
  std::string heatmaps_path;         // empty: none
};
// Throws Error (naming cambi) where libvmaf's init fails, and for the cases
// listed above.
Settings resolve(const OptionSet& opts, const PictureFormat& fmt);

// The building blocks, on 10-bit planes (stride in samples). Each runs the
// SIMD code of cambi_simd.cpp when vmafx::simd::enabled() (VMAFX_SIMD not
// "off"), else the scalar reference below (namespace scalar); both give the
// same values.
//
// 2x2 box average (>> 2) in place (stride w); the last column and row average
// 2 samples.
void anti_dither(std::uint16_t* d, int w, int h);
// Keeps every other sample of every other row: w x h from the 2w x 2h region, in place.
void decimate(std::uint16_t* d, std::ptrdiff_t stride, int w, int h);
// 1 where the 7x7 neighbourhood holds more than the size-dependent threshold
// of zero-derivative pixels (equal to the right and lower neighbours).
void spatial_mask(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* mask);
// spatial_mask, then decimate of the mask: its even rows and columns, packed
// ((w + 1) / 2 x (h + 1) / 2 at the same stride).
void spatial_mask_half(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* mask);
// 3x3 mode filter (horizontal, then vertical) in place; the first and last
// rows are kept. `scratch` holds 3 * w values.
void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* scratch);
// Banding confidence of every masked pixel (0 elsewhere) into out (stride w),
// from histograms of the masked pixel values in the window x window
// neighbourhood (per-thread scratch).
void c_values(const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int w, int h, int window,
              const Settings& st, float* out);
// Mean of the top max(1, (int)(topk * n)) values, as libvmaf sums them in the
// order its quick-select leaves them. May reorder `values`. With SIMD on, the
// sum is formed without the select where that provably gives the same double
// (see topk_mean_without_select), else as the reference.
double topk_mean(float* values, int n, double topk);
// That select-free path alone: true (and *mean) when it applies.
bool topk_mean_without_select(const float* values, int n, double topk, double* mean);

// ---- The host end, shared by the CPU extractor and the device twins ---------
// (feature/cuda/cambi_cuda.cpp, feature/opencl/cambi_opencl.cpp: they run the
// per-pixel stages on the device and finish with these.)

constexpr int kScales = 5;
// Scale sizes: 5 halvings (rounding up) of w x h, the first one only with the speed-up.
struct ScaleDims {
  int w[kScales], h[kScales];
};
ScaleDims scale_dims(int w, int h, bool speedup);
// The zero-derivative count above which a pixel is in the mask (w x h: the
// picture at the encode or source size).
std::uint16_t mask_threshold(unsigned w, unsigned h);
// libvmaf's nearest-neighbour resize along one axis: the input index of each
// of out_n outputs from in_n samples (float stepping). An index can be in_n
// or more; the sample is then read as layout_sample() says.
std::vector<unsigned> resize_positions(unsigned in_n, unsigned out_n);
// The luma sample at (x, y), past the picture, as libvmaf reads it from its
// own layout (rows padded to 32 samples, planes back to back).
unsigned layout_sample(const Picture& pic, long long x, long long y);
// Throws the CPU extractor's input Error when a luma sample of `pic` is above
// 2^bpc - 1 (bpc 9..15); is_src: the reference (full_ref), else the distorted.
void check_luma(const Picture& pic, bool is_src, unsigned index);
// A picture's score from the top-k means of its scales: weighted 16:8:4:2:1,
// over the window's pixel count.
double combine_scales(const double scores[kScales], int window);
// Writes a frame's outputs (the score; with full_ref the source score and the
// difference), clipped at cambi_max_val. `src` is unused without full_ref.
void put_scores(const Settings& st, unsigned index, double dist, double src, FeatureSink& out);

// What the device twins (CUDA, OpenCL) keep of one picture scored per frame:
// the distorted one at the encode size, or, with full_ref, the reference at
// the source size; each scale's c-values at off[scale] in the twin's buffers.
struct TwinSide {
  int w = 0, h = 0, window = 0;
  bool is_src = false;
  ScaleDims d{};
  std::size_t off[kScales] = {};
  std::size_t total = 0;
  std::vector<int> xmap, ymap;         // input positions; -1 - k: patch column / row k
  std::vector<unsigned> bad_x, bad_y;  // the input positions of the patched columns / rows
  // The samples where libvmaf's resize steps outside the picture, which the
  // host reads (layout_sample): the patched rows, then the patched columns.
  std::size_t patch_size() const { return bad_y.size() * std::size_t(w) + bad_x.size() * std::size_t(h); }
  void fill_patch(const Picture& samples, std::uint16_t* patch) const;
};
// The side of a twin with settings st whose input is in_w x in_h.
TwinSide twin_side(const Settings& st, int in_w, int in_h, bool is_src);
// The sides of a twin on pictures of format f: the distorted one, then with
// full_ref the reference.
std::vector<TwinSide> twin_sides(const Settings& st, const PictureFormat& f);

class Heatmaps;
// A twin's host end of a frame, in the reference's order (the distorted
// picture first): per side, check(side) (the luma range check), the heat maps
// of the distorted side (when `heatmaps`), the top-k means of its scales from
// `cvals` (the sides' c-values one after another, each scale at off[scale];
// reordered by the selection); then the scores.
void finish_twin(const Settings& st, const std::vector<TwinSide>& sides, float* cvals, const Heatmaps* heatmaps,
                 std::vector<std::uint16_t>& row, const std::function<void(const TwinSide&)>& check, unsigned index,
                 FeatureSink& out);

// libvmaf's 16-bit heat maps, one file per scale, opened (and the directory
// made) on construction. write() may be called from several threads, for
// frames in any order.
class Heatmaps {
 public:
  Heatmaps(const std::string& dir, unsigned w, unsigned h);
  ~Heatmaps();
  Heatmaps(const Heatmaps&) = delete;
  Heatmaps& operator=(const Heatmaps&) = delete;
  // One scale of one frame (c: w x h c-values) at its place in the file.
  void write(const float* c, int w, int h, int scale, int window, const Settings& st, unsigned frame,
             std::vector<std::uint16_t>& row) const;

 private:
  std::FILE* files_[kScales] = {};
  mutable std::mutex mu_;
};

namespace scalar {
// The references, written as libvmaf's C path computes them.
// A luma row to 10 bit (bpc <= 8: v << (10 - bpc); 9: v << 1; else rounded
// down by bpc - 10 bits, in 32-bit arithmetic).
void convert_row(const std::uint8_t* in, std::uint16_t* out, int w, int bpc);
void convert_row(const std::uint16_t* in, std::uint16_t* out, int w, int bpc);
void anti_dither(std::uint16_t* d, int w, int h);
void decimate(std::uint16_t* d, std::ptrdiff_t stride, int w, int h);
void spatial_mask(const std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* mask);
void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::uint16_t* scratch);
// `hist` has band_size * w counters (any content).
void c_values(const std::uint16_t* img, const std::uint16_t* mask, std::ptrdiff_t stride, int w, int h, int window,
              const Settings& st, float* out, std::uint16_t* hist);
// libvmaf's quick-select, then the sum of the first k in order.
double topk_mean(float* values, int n, double topk);
}  // namespace scalar

}  // namespace cambi
}  // namespace vmafx
