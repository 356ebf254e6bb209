// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// SpEED ("speed_chroma" and "speed_temporal" extractors of libvmaf 3.2.0:
// speed.c with vif_tools.c and picture_copy.c, plain C path).
//
// A plane (samples - 128, 8-bit scale, as float) is optionally rescaled
// (speed_prescale / speed_prescale_method), low-passed with a Gaussian,
// decimated by 16, and its local mean removed. On the 5x5 blocks of that
// image a Gaussian scale mixture is fitted (25x25 covariance, its
// eigenvalues by Householder tridiagonalisation + implicit QR, the per-block
// variances by a Householder-QR linear solve), giving per-block entropies and
// variances; the score is the mean over blocks of |H_ref*log2(1+v) - H_dis*log2(1+v')|.
//
// speed_chroma (not temporal): the U and V planes of each frame, written at
// the frame's index with put(): speed_chroma_u / _v / _uv (each capped at
// speed_max_val). uv is (u + v) / 2, or the one channel whose fit did not fail
// when the other's covariance was singular.
// speed_temporal (temporal): the difference of the luma of frame i-1 and i
// (reference, and distorted minus distorted or, with speed_use_ref_diff,
// minus the reference), written at index i with put(); index 0 writes 0.
// Nothing on flush. speed_max_val is accepted but, as in libvmaf, not applied.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/feature.hpp"
#include "feature/float_common.hpp"

namespace vmafx {

extern const ExtractorDescriptor kSpeedChromaExtractor;
extern const ExtractorDescriptor kSpeedTemporalExtractor;

namespace speed {

struct Params {
  float kernelscale = 1.0f;
  double prescale = 1.0;
  flt::ScaleMethod method = flt::ScaleMethod::kNearest;
  float sigma_nn = 0.29f;
  float nn_floor = 0.0f;
  int weight_var_mode = 0;
};

// The image sizes of one SpEED computation on a w x h plane.
struct Dims {
  int ow = 0, oh = 0;            // input plane
  int sw = 0, sh = 0;            // after the prescale
  int dw = 0, dh = 0;            // after the decimation by 16
  int tw = 0, th = 0;            // dw, dh truncated to multiples of the block size
  int nbh = 0, nbv = 0, nb = 0;  // blocks
  int subw = 0, subh = 0;        // tw - 4, th - 4
};
constexpr int kBlock = 5;
constexpr int kBlockElems = kBlock * kBlock;

Dims make_dims(int w, int h, double prescale);
// Throws Error "<owner>: ..." when libvmaf could not run on this size/options.
void check(std::string_view owner, const Dims& d, const Params& p);

// Score of a pair of packed ow x oh float planes (both are overwritten).
// Returns true when a covariance matrix was singular (libvmaf's err flag).
// It is score_decimated() of the two planes' decimate(): (optional) prescale
// to sw x sh with flt::scale_frame, then flt::convolve_decimated with the
// antialias_filter() taps, step 16, to dw x dh.
bool score(const Params& p, const Dims& d, float* ref, float* dis, float* out);

// The antialias Gaussian of the decimation: writes its taps (at most 128) and
// returns their number (odd).
int antialias_filter(const Params& p, float* filt);

// score() from the two decimated dw x dh images (packed; both overwritten):
// local mean removal, the Gaussian-scale-mixture fit and the score. The device
// twins compute the decimated images and finish here.
bool score_decimated(const Params& p, const Dims& d, float* ref, float* dis, float* out);

// The decimation's tables for the device twins: the antialias taps and, with
// a prescale (sw x sh differs from ow x oh), flt::scale_axis's index and
// weight tables of each axis (scale_taps per output).
struct DecimationTables {
  std::vector<float> taps;
  bool prescale = false;
  int scale_taps = 0;
  std::vector<int> ix, iy;
  std::vector<float> wx, wy;
};
DecimationTables decimation_tables(const Params& p, const Dims& d);

// est_params' block statistics of a dw x dh image (rows of dw floats): the
// 25 window means and the 25 x 25 covariance matrix, by rows().
void block_moments(const Dims& d, const float* data, float* means, float* cov);

// The row table: SpEED's hot loops behind one pointer each, the same
// signature for the scalar reference (speed.cpp) and the SIMD rows
// (speed_simd.cpp, init_simd_rows), which give the same floats.
struct Rows {
  // data: `len` readable floats, rows of `st` floats. For the 25 offsets
  // o = (r, c), r, c < 5 (o = 5 r + c), of a subw x subh window:
  //   means[o] = (sum over i < subh, j < subw of data[(r + i) st + c + j]) / float(subw subh)
  // (float sum in i, j order), and for offsets x >= y
  //   cov[25 x + y] = cov[25 y + x] = float(sum (double(vx) - mx) (double(vy) - my) / double(subw subh))
  // with mx = double(means[x]) (double sum in i, j order).
  // Needs (4 + subh - 1) st + 4 + subw <= len.
  void (*block_moments)(const float* data, std::size_t len, int st, int subw, int subh, float* means, float* cov);
  // picture_copy of one row: dst[x] = float(src[x]) + -128.0f (8-bit), or
  // float(src[x]) / scaler + -128.0f (deeper), x < w.
  void (*to_float8)(const std::uint8_t* src, int w, float* dst);
  void (*to_float16)(const std::uint16_t* src, int w, float scaler, float* dst);
};
// The scalar reference rows.
const Rows& scalar_rows();
// scalar_rows() with the SIMD rows over them while vmafx::simd::enabled()
// (read at each call: call it once per plane, not per pixel).
const Rows& rows();

// Eigenvalues of a symmetric n x n float matrix (libvmaf's order and rounding).
void eigenvalues(const float* a, int n, float* out);
// Solves A X = B (A n x n, B n x m) by Householder QR; false when R is singular.
bool solve(const float* a, int n, const float* b, int m, float* x);

// The extractors' parameters, with the CPU reference's checks and errors
// (the twins' factories use them too).
struct ChromaSetup {
  Params p;
  Dims d;  // of a chroma plane
  double max_val;
};
ChromaSetup chroma_setup(const OptionSet& o, const PictureFormat& fmt);
struct TemporalSetup {
  Params p;
  Dims d;  // of the luma plane
  bool use_ref_diff;
};
TemporalSetup temporal_setup(const OptionSet& o, const PictureFormat& fmt);

// The outputs: speed_chroma's u, v and uv from the two planes' scores and
// error flags (uv, the caps); speed_temporal's score of frame `index`.
void put_chroma(const float s[2], const bool err[2], double max_val, unsigned index, FeatureSink& out);
void put_temporal(float s, unsigned index, FeatureSink& out);
// The device twins' outputs from their decimated dw x dh images (n floats
// each, overwritten): speed_chroma's U ref, U dis, V ref, V dis; speed_temporal's
// ref, dis differences.
void put_chroma_decimated(const ChromaSetup& c, float* img, std::size_t n, unsigned index, FeatureSink& out);
void put_temporal_decimated(const TemporalSetup& t, float* img, std::size_t n, unsigned index, FeatureSink& out);

}  // namespace speed
}  // namespace vmafx
