// SPDX-License-Identifier: BSD-3-Clause
// psnr_hvs, ciede and cambi vs libvmaf 3.2.0, compared with ==.
//
// 1. The "features" run of every golden pair: psnr_hvs_y/cb/cr, psnr_hvs,
//    ciede2000 and cambi on every frame (null = +inf), single-threaded and with
//    2 threads. Where the oracle dropped an extractor (cambi below 216x216,
//    psnr_hvs at 16 bit), ours must refuse it in create with a one-line Error.
// 2. cambi option variants on golden clips, and 3. synthetic pictures that
//    reach what the golden clips do not (banding at 12 and 16 bit, 4:2:2
//    ciede, the 1080p high-res speed-up with the vmaf_v1.0.16 options).
//    Their expected values were made with libvmaf 3.2.0 built from the same
//    source tree (/work/vmaf-src, meson release, -Denable_asm=false, the
//    golden set's %.17g output patch) and run with --cpumask 255:
//      vmaf -r REF -d DIS [-w W -h H -p P -b B] -n --feature cambi=OPTS ...
//    For 3, build this file with -DVMAFX_DUMP_TOOLS, set
//    VMAFX_DUMP_SYNTH=<dir> and run SyntheticDump.WhenAsked: it writes the
//    raw clips (and prints the command lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "backend/backends.hpp"
#include "support/devices.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "support/golden.hpp"

namespace vmafx::test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string g17(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// Extractors the oracle dropped for a pair's run (manifest "dropped_features").
std::vector<std::string> dropped(const std::string& pair, const std::string& run) {
  std::ifstream in(data_dir() + "/golden/manifest.json");
  const nlohmann::json m = nlohmann::json::parse(in);
  std::vector<std::string> out;
  for (const auto& p : m.at("pairs")) {
    if (p.at("name") != pair) continue;
    for (const auto& o : p.at("oracle"))
      if (o.at("run") == run && o.contains("dropped_features"))
        for (const auto& d : o.at("dropped_features")) out.push_back(d.at("feature").get<std::string>());
  }
  return out;
}

// Runs `fn` and returns the message of the vmafx::Error it throws ("" if none).
template <class F>
std::string error_of(F&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

struct Family {
  const char* extractor;
  const char* names;  // regex of its names in the features run
  std::size_t count;
  const char* refusal;  // start of our Error where the oracle dropped it
};
constexpr Family kFamilies[] = {
    {"psnr_hvs", "^psnr_hvs(_y|_cb|_cr)?$", 4, "psnr_hvs: invalid bit depth 16"},
    {"ciede", "^ciede2000$", 1, "ciede: "},
    {"cambi", "^cambi$", 1, "cambi: picture 176x144 is too small"},
};

class HvsCiedeCambiGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(HvsCiedeCambiGolden, FeaturesRun) {
  const GoldenPair& pair = golden_pair(GetParam());
  const GoldenRun want = load_golden(golden_oracle_path(pair.name, "features"));
  const std::vector<std::string> gone = dropped(pair.name, "features");
  std::vector<FeatureRequest> requests;
  std::vector<std::string> names;
  for (const Family& f : kFamilies) {
    const std::vector<std::string> n = golden_names(want, f.names);
    if (std::find(gone.begin(), gone.end(), f.extractor) != gone.end()) {
      EXPECT_TRUE(n.empty()) << f.extractor;
      const std::string msg = error_of([&] { run_features(pair, {FeatureRequest{f.extractor, {}}}); });
      EXPECT_EQ(msg.rfind(f.refusal, 0), 0u) << f.extractor << ": " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      continue;
    }
    ASSERT_EQ(n.size(), f.count) << f.extractor;
    requests.push_back(FeatureRequest{f.extractor, {}});
    names.insert(names.end(), n.begin(), n.end());
  }
  ASSERT_FALSE(requests.empty());
  for (unsigned threads : {0u, 2u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const FeatureCollector got = run_features(pair, requests, EngineOptions{.threads = threads});
    EXPECT_TRUE(frames_equal(got, want, names));
    // Nothing beyond libvmaf's names is written.
    EXPECT_EQ(got.all().size(), names.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, HvsCiedeCambiGolden, ::testing::ValuesIn(pair_names()), param_name);

// ---------------------------------------------------------------------------
// Expected per-frame values by output name.
using Expected = std::vector<std::pair<std::string, std::vector<double>>>;

::testing::AssertionResult values_equal(const FeatureCollector& got, const Expected& want) {
  std::size_t compared = 0;
  for (const auto& [name, values] : want) {
    const auto* s = got.find(name);
    if (!s) return ::testing::AssertionFailure() << "no output named " << name;
    for (unsigned i = 0; i < values.size(); ++i) {
      if (!s->has(i)) return ::testing::AssertionFailure() << name << " missing at frame " << i;
      const double a = s->value[i], b = values[i];
      if (!(a == b || (std::isinf(b) && a == b)))
        return ::testing::AssertionFailure() << name << " frame " << i << ": want " << g17(b) << ", got " << g17(a);
      ++compared;
    }
    if (s->value.size() > values.size() && s->has(unsigned(values.size())))
      return ::testing::AssertionFailure() << name << " has more frames than expected";
  }
  if (got.all().size() != want.size())
    return ::testing::AssertionFailure() << "wrote " << got.all().size() << " names, want " << want.size();
  return ::testing::AssertionSuccess() << compared << " values equal";
}

struct Variant {
  const char* pair;
  std::map<std::string, std::string> opts;
  Expected want;
};

// libvmaf 3.2.0 (C path): vmaf <pair's features-run input args> -n --feature cambi=<opts>
const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      // The options of the vmaf_v1.0.16 models.
      {"mosaic1080__down960_x264_crf23_up",
       {{"cambi_high_res_speedup", "1080"}, {"cambi_max_val", "17"}, {"cambi_vis_lum_threshold", "0.06"}},
       {{"cambi_hrs_1080_cmxv_17_vlt_0.06", {1.2917649066208172, 1.2359106778515447}}}},
      {"mosaic1080__down960_x264_crf23_up",
       {{"full_ref", "true"}, {"src_width", "1280"}, {"src_height", "720"}},
       {{"cambi_srch_720_srcw_1280", {1.4690621183506656, 1.3663016154189724}},
        {"cambi_source", {0.014963511868161864, 0.01339837256238644}},
        {"cambi_full_reference", {1.4540986064825037, 1.3529032428565859}}}},
      {"mosaic1080__down960_x264_crf23_up",
       {{"enc_width", "1366"}, {"enc_height", "768"}, {"cambi_high_res_speedup", "1080"}},
       {{"cambi_hrs_1080_ench_768_encw_1366", {1.2386511562847473, 1.1051117098001577}}}},
      {"mosaic1080__down960_x264_crf23_up",
       {{"cambi_high_res_speedup", "1440"}, {"window_size", "127"}},
       {{"cambi_hrs_1440_ws_127", {0.97572624213347658, 0.88250834148601742}}}},
      {"mandel240p10__x265_crf30",
       {{"full_ref", "true"}},
       {{"cambi", {0.29136351773233121, 0.36926653456657826, 0.83403892676637625}},
        {"cambi_source", {0.15652545236878926, 0.1201597856436715, 1.130021766388055}},
        {"cambi_full_reference", {0.13483806536354195, 0.24910674892290677, 0}}}},
      {"mandel240p10__x265_crf30",
       {{"enc_bitdepth", "8"}, {"topk", "0.3"}},
       {{"cambi_encbd_8_topk_0.3", {0.53739208742524636, 0.87336139029939008, 1.7326861400374234}}}},
      {"mandel240p10__x265_crf30",
       {{"max_log_contrast", "5"}, {"tvi_threshold", "0.001"}},
       {{"cambi_mlc_5_tvit_0.001", {0.63473300159128021, 1.1974713102284102, 2.5798143623483303}}}},
      {"mandel240p10__x265_crf30",
       {{"eotf", "pq"}, {"cambi_vis_lum_threshold", "50"}},
       {{"cambi_vlt_50_eotf_pq", {0.018964537520601291, 0.057867520596041819, 0.010734908237601773}}}},
      {"rocket240x177p422p10__x264_crf32",
       {{"cambi_topk", "0.01"}, {"cambi_eotf", "pq"}},
       {{"cambi_ceot_pq_ctpk_0.01", {11.967222543705768, 12.795164649811429, 14.04735530761303}}}},
      {"coffee320__x264_crf30",
       {{"full_ref", "true"}, {"src_width", "640"}, {"src_height", "480"}, {"enc_width", "300"}, {"enc_height", "200"}},
       {{"cambi_ench_200_encw_300_srch_480_srcw_640", {0.78373730800278207, 0.70133610490481046, 0.85336416633064982}},
        {"cambi_source", {0.14991384074863423, 0.1539022350995474, 0.15477089436178601}},
        {"cambi_full_reference", {0.63382346725414784, 0.5474338698052631, 0.69859327196886378}}}},
      {"testsrc2_240p444__vp9_crf45",
       {{"topk", "1"}, {"eotf", "pq"}, {"cambi_eotf", "bt1886"}},
       {{"cambi_eotf_pq_topk_1", {1.1932151016701349, 1.2706704690284802, 1.3536357634970633}}}},
  };
  return v;
}

class CambiVariant : public ::testing::TestWithParam<std::size_t> {};

TEST_P(CambiVariant, MatchesLibvmaf) {
  const Variant& v = variants()[GetParam()];
  SCOPED_TRACE(v.pair);
  const GoldenPair& pair = golden_pair(v.pair);
  for (unsigned threads : {0u, 2u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const FeatureCollector got =
        run_features(pair, {FeatureRequest{"cambi", v.opts}}, EngineOptions{.threads = threads});
    EXPECT_TRUE(values_equal(got, v.want));
  }
}

INSTANTIATE_TEST_SUITE_P(Options, CambiVariant, ::testing::Range<std::size_t>(0, variants().size()));

// ---------------------------------------------------------------------------
// Synthetic pictures. Luma: a ramp quantised to steps of 2 (8 bit: 4) 10-bit
// codes (visible bands), a noisy column band and a flat patch; the distorted
// side shifts the ramp and the noise. Chroma: small periodic patterns.
std::uint32_t lcg(std::uint32_t& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 16;
}

void synth(Picture& p, unsigned frame, unsigned seed) {
  const PictureFormat& f = p.format();
  const int w = f.width, h = f.height, bpc = f.bpc;
  const long peak = (1L << bpc) - 1;
  std::uint32_t s = seed * 7919u + frame * 104729u + 1u;
  auto put = [&](int plane, int x, int y, long v) {
    v = v < 0 ? 0 : (v > peak ? peak : v);
    if (bpc == 8)
      p.row<std::uint8_t>(plane, y)[x] = std::uint8_t(v);
    else
      p.row<std::uint16_t>(plane, y)[x] = std::uint16_t(v);
  };
  const int step = bpc >= 10 ? 2 : 4;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const long r = 200 + (long(x) * 300) / w + (long(y) * 200) / h + frame * 5 + seed * 3;
      long v = ((r / step) * step * peak) / 1023;
      if (x >= w / 2 && x < w / 2 + w / 8) v += long(lcg(s) % 8) * (peak / 255);
      if (x < w / 8 && y < h / 8) v = peak / 3;
      put(0, x, y, v);
    }
  }
  for (int plane = 1; plane < f.plane_count(); ++plane) {
    const PlaneView pv = p.plane(plane);
    for (int y = 0; y < pv.height; ++y)
      for (int x = 0; x < pv.width; ++x) {
        const long d = plane == 1 ? (x + y + long(frame) + seed) % 16 : -((2 * x + y + long(seed)) % 8);
        put(plane, x, y, peak / 2 + d * (peak / 256 + 1));
      }
  }
}

struct Synthetic {
  const char* name;
  PictureFormat fmt;
  const char* extractor;
  std::map<std::string, std::string> opts;
  Expected want;
};
constexpr unsigned kSynthFrames = 3;

const std::vector<Synthetic>& synthetic() {
  static const std::vector<Synthetic> v = {
      {"syn320x240p16",
       {320, 240, 16, ChromaFormat::k420},
       "cambi",
       {},
       {{"cambi", {9.2222961187092345, 9.2511507091338387, 9.1667215130969772}}}},
      {"syn320x240p16",
       {320, 240, 16, ChromaFormat::k420},
       "cambi",
       {{"full_ref", "true"}},
       {{"cambi", {9.2222961187092345, 9.2511507091338387, 9.1667215130969772}},
        {"cambi_source", {9.2696292700275542, 9.1779356924179201, 9.2080282918720275}},
        {"cambi_full_reference", {0, 0.073215016715918679, 0}}}},
      {"syn320x240p16",
       {320, 240, 16, ChromaFormat::k420},
       "ciede",
       {},
       {{"ciede2000", {38.596405241426851, 38.624400938896599, 38.631419366817212}}}},
      {"syn301x217p444p12",
       {301, 217, 12, ChromaFormat::k444},
       "cambi",
       {},
       {{"cambi", {9.6210734593498781, 9.7001889344828971, 9.5496991518935559}}}},
      {"syn301x217p444p12",
       {301, 217, 12, ChromaFormat::k444},
       "cambi",
       {{"full_ref", "true"}, {"enc_width", "280"}, {"enc_height", "200"}},
       {{"cambi_ench_200_encw_280", {10.017918840671722, 9.9676362127712803, 9.8848859465962349}},
        {"cambi_source", {9.750891188511936, 9.6074833351501105, 9.6865309705017566}},
        {"cambi_full_reference", {0.2670276521597863, 0.36015287762116976, 0.19835497609447827}}}},
      {"syn301x217p444p12",
       {301, 217, 12, ChromaFormat::k444},
       "ciede",
       {},
       {{"ciede2000", {38.649706526177681, 38.672017816217931, 38.671190240511599}}}},
      {"syn301x217p444p12",
       {301, 217, 12, ChromaFormat::k444},
       "psnr_hvs",
       {},
       {{"psnr_hvs_y", {44.568024225648564, 44.703693668499923, 44.644224654942384}},
        {"psnr_hvs_cb", {39.187828755243586, 39.193124712486252, 39.190757071954046}},
        {"psnr_hvs_cr", {45.520086315928047, 45.520086315928047, 45.520086315928047}},
        {"psnr_hvs", {43.684984121031988, 43.774590044341181, 43.735410687242819}}}},
      {"syn1920x1080",
       {1920, 1080, 8, ChromaFormat::k420},
       "cambi",
       {},
       {{"cambi", {19.382144578991547, 19.340598815208473, 19.296951387102911}}}},
      {"syn1920x1080",
       {1920, 1080, 8, ChromaFormat::k420},
       "cambi",
       {{"cambi_high_res_speedup", "1080"}},
       {{"cambi_hrs_1080", {19.157836078691329, 19.119779097698494, 19.077609893677369}}}},
      {"syn1920x1080",
       {1920, 1080, 8, ChromaFormat::k420},
       "cambi",
       {{"cambi_high_res_speedup", "1080"}, {"cambi_max_val", "17"}, {"cambi_vis_lum_threshold", "0.06"}},
       {{"cambi_hrs_1080_cmxv_17_vlt_0.06", {17, 17, 17}}}},
      {"syn242x216p422p10",
       {242, 216, 10, ChromaFormat::k422},
       "cambi",
       {},
       {{"cambi", {9.3234428986417779, 9.2949348335400188, 9.2176836011176402}}}},
      {"syn242x216p422p10",
       {242, 216, 10, ChromaFormat::k422},
       "ciede",
       {},
       {{"ciede2000", {38.93567447001972, 38.963483100606418, 38.972577829956023}}}},
      {"syn242x216p422p10",
       {242, 216, 10, ChromaFormat::k422},
       "psnr_hvs",
       {},
       {{"psnr_hvs_y", {44.633488827475027, 44.650573066244945, 44.588523779210121}},
        {"psnr_hvs_cb", {39.156165022621622, 39.160477213791502, 39.163453860043489}},
        {"psnr_hvs_cr", {45.233907524205385, 45.233907524205385, 45.233907524205385}},
        {"psnr_hvs", {43.699084385571751, 43.711328394181365, 43.672082291750094}}}},
      {"syn244x216p422",
       {244, 216, 8, ChromaFormat::k422},
       "ciede",
       {},
       {{"ciede2000", {39.20320174199334, 39.213896530051805, 39.21567884153832}}}},
      {"syn244x216p422",
       {244, 216, 8, ChromaFormat::k422},
       "psnr_hvs",
       {},
       {{"psnr_hvs_y", {43.828421250975026, 43.837659385761015, 43.770752891745303}},
        {"psnr_hvs_cb", {38.900761196955308, 38.906515050484806, 38.916409021049333}},
        {"psnr_hvs_cr", {43.971580148262895, 43.971580148262895, 43.971580148262895}},
        {"psnr_hvs", {43.008609781175593, 43.016209764423657, 42.974314435794611}}}},
      {"syn216",
       {216, 216, 8, ChromaFormat::k420},
       "cambi",
       {},
       {{"cambi", {0.0044190667633520544, 0.0043417172937358977, 0.0043280018078104198}}}},
      {"syn216",
       {216, 216, 8, ChromaFormat::k420},
       "cambi",
       {{"enc_bitdepth", "10"}, {"max_log_contrast", "3"}},
       {{"cambi_encbd_10_mlc_3", {22.885565529401436, 22.895373718180114, 22.87196256458428}}}},
      {"syn216",
       {216, 216, 8, ChromaFormat::k420},
       "ciede",
       {},
       {{"ciede2000", {39.025939182354115, 39.03976675519398, 39.031959176969799}}}},
      {"syn216",
       {216, 216, 8, ChromaFormat::k420},
       "psnr_hvs",
       {},
       {{"psnr_hvs_y", {43.865357619404996, 43.785823890973212, 43.807841235795159}},
        {"psnr_hvs_cb", {38.915509935147725, 38.908281670697882, 38.891747321676753}},
        {"psnr_hvs_cr", {44.0043766969644, 44.0043766969644, 44.0043766969644}},
        {"psnr_hvs", {43.039490527358346, 42.984872609186297, 42.995260138119697}}}},
      {"syn241x250p444",
       {241, 250, 8, ChromaFormat::k444},
       "ciede",
       {},
       {{"ciede2000", {39.017549804729626, 39.037499171474778, 39.03637159588294}}}},
      {"syn241x250p444",
       {241, 250, 8, ChromaFormat::k444},
       "psnr_hvs",
       {},
       {{"psnr_hvs_y", {43.899366253576524, 43.873014377602729, 43.825290703314295}},
        {"psnr_hvs_cb", {38.912304087253013, 38.905979555145443, 38.915108213224286}},
        {"psnr_hvs_cr", {43.986151054916689, 43.986151054916689, 43.986151054916689}},
        {"psnr_hvs", {43.059653314225713, 43.04062236157759, 43.01138999228904}}}},
  };
  return v;
}

FeatureCollector run_synthetic(const PictureFormat& fmt, const std::string& extractor,
                               const std::map<std::string, std::string>& opts, unsigned threads,
                               Backend* backend = nullptr) {
  Engine e(fmt, EngineOptions{.threads = threads, .backend = backend, .cpu_fallback = false});
  e.use(FeatureRequest{extractor, opts});
  for (unsigned i = 0; i < kSynthFrames; ++i) {
    auto r = e.acquire();
    auto d = e.acquire();
    synth(*r, i, 0);
    synth(*d, i, 1);
    e.push(std::move(r), std::move(d));
  }
  e.finish();
  return std::move(e.collector());
}

class SyntheticVsLibvmaf : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SyntheticVsLibvmaf, Equal) {
  const Synthetic& c = synthetic()[GetParam()];
  SCOPED_TRACE(std::string(c.name) + " " + c.extractor);
  for (unsigned threads : {0u, 2u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    EXPECT_TRUE(values_equal(run_synthetic(c.fmt, c.extractor, c.opts, threads), c.want));
  }
}

INSTANTIATE_TEST_SUITE_P(Clips, SyntheticVsLibvmaf, ::testing::Range<std::size_t>(0, synthetic().size()));

// 4. cambi's device twins (feature/cuda, feature/opencl) on the libvmaf
// values of 2 and 3: every option variant and synthetic clip, including the
// 1080p speed-up of the vmaf_v1.0.16 models. Skipped where the backend has no
// device (PoCL runs the OpenCL ones in CI). On PoCL a 1080p picture without
// the speed-up (the 65-pixel window at full size) takes about 10 s a frame on
// a loaded 2-core machine: those cases run on OpenCL only with
// VMAFX_SLOW_TWIN_TESTS=1 (scripts/device-check.sh sets it), always on CUDA.
struct DeviceCase {
  std::string backend;
  bool synthetic;
  std::size_t index;
};
std::vector<DeviceCase> device_cases() {
  std::vector<DeviceCase> out;
  const char* slow = std::getenv("VMAFX_SLOW_TWIN_TESTS");
  const bool all = slow && std::string(slow) == "1";
  auto full_size = [](bool is_1080, const std::map<std::string, std::string>& opts) {
    const auto it = opts.find("cambi_high_res_speedup");
    return is_1080 && (it == opts.end() || it->second != "1080");
  };
  for (const std::string& b : test::built_device_backends()) {
    const bool skip_slow = b == "opencl" && !all;
    for (std::size_t i = 0; i < variants().size(); ++i)
      if (!skip_slow || !full_size(std::string(variants()[i].pair).rfind("mosaic1080", 0) == 0, variants()[i].opts))
        out.push_back({b, false, i});
    for (std::size_t i = 0; i < synthetic().size(); ++i) {
      const Synthetic& c = synthetic()[i];
      if (std::string(c.extractor) != "cambi") continue;
      if (!skip_slow || !full_size(c.fmt.width >= 1920, c.opts)) out.push_back({b, true, i});
    }
  }
  return out;
}

// The backend, or nullptr with *skip set when this machine lists no device
// of it (test::device_listed); a listed device that fails to start is an Error.
std::unique_ptr<Backend> device_or_skip(const std::string& name, std::string* skip) {
  if (!test::device_listed(name)) {
    *skip = "no " + name + " device listed";
    return nullptr;
  }
  return create_backend(name, 0);
}

class CambiTwinVsLibvmaf : public ::testing::TestWithParam<DeviceCase> {};

TEST_P(CambiTwinVsLibvmaf, Equal) {
  const DeviceCase& c = GetParam();
  std::string skip;
  const std::unique_ptr<Backend> backend = device_or_skip(c.backend, &skip);
  if (!backend) GTEST_SKIP() << skip;
  {  // two workers: two frames at once, each with its own queue / stream
    const unsigned threads = 2;
    if (c.synthetic) {
      const Synthetic& s = synthetic()[c.index];
      SCOPED_TRACE(s.name);
      EXPECT_TRUE(values_equal(run_synthetic(s.fmt, s.extractor, s.opts, threads, backend.get()), s.want));
    } else {
      const Variant& v = variants()[c.index];
      SCOPED_TRACE(v.pair);
      const FeatureCollector got =
          run_features(golden_pair(v.pair), {FeatureRequest{"cambi", v.opts}},
                       EngineOptions{.threads = threads, .backend = backend.get(), .cpu_fallback = false});
      EXPECT_TRUE(values_equal(got, v.want));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, CambiTwinVsLibvmaf, ::testing::ValuesIn(device_cases()),
                         [](const ::testing::TestParamInfo<DeviceCase>& i) {
                           return i.param.backend + (i.param.synthetic ? "_synthetic_" : "_variant_") +
                                  std::to_string(i.param.index);
                         });

// The twins against the CPU extractor on its edge sizes (one row, one column,
// odd sizes, 4:0:0, 9 and 12 bit) and its failure on a sample above 2^bpc - 1
// (the same one-line Error, for the same frame and side).
class CambiTwinEdges : public ::testing::TestWithParam<std::string> {};

TEST_P(CambiTwinEdges, EqualCpu) {
  std::string skip;
  const std::unique_ptr<Backend> backend = device_or_skip(GetParam(), &skip);
  if (!backend) GTEST_SKIP() << skip;
  for (const PictureFormat& f :
       {PictureFormat{216, 1, 8, ChromaFormat::k444}, PictureFormat{1, 216, 12, ChromaFormat::k400},
        PictureFormat{217, 9, 9, ChromaFormat::k444}, PictureFormat{233, 301, 10, ChromaFormat::k420}}) {
    for (const std::map<std::string, std::string>& opts :
         {std::map<std::string, std::string>{}, std::map<std::string, std::string>{{"full_ref", "true"}}}) {
      SCOPED_TRACE(std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) + "-bit" +
                   (opts.empty() ? "" : " full_ref"));
      const FeatureCollector cpu = run_synthetic(f, "cambi", opts, 0);
      const FeatureCollector twin = run_synthetic(f, "cambi", opts, 0, backend.get());
      ASSERT_EQ(cpu.all().size(), twin.all().size());
      for (std::size_t k = 0; k < cpu.all().size(); ++k) {
        const auto& a = cpu.all()[k];
        const auto& b = twin.all()[k];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.written, b.written) << a.name;
        for (std::size_t i = 0; i < a.value.size() && i < b.value.size(); ++i)
          EXPECT_EQ(g17(a.value[i]), g17(b.value[i])) << a.name << " frame " << i;
      }
    }
  }
  // heatmaps_path: the twin writes the heat maps from its c-values, byte for byte the CPU's.
  {
    const PictureFormat f{241, 217, 8, ChromaFormat::k420};
    const std::string base = ::testing::TempDir() + "vmafx_cambi_heat_" + GetParam() + "_" + std::to_string(::getpid());
    for (const char* side : {"cpu", "twin"}) {
      std::filesystem::remove_all(base + side);
      (void)run_synthetic(f, "cambi", {{"heatmaps_path", base + side}}, 2,
                          std::string(side) == "cpu" ? nullptr : backend.get());
    }
    int files = 0, nonzero = 0;
    for (const auto& e : std::filesystem::directory_iterator(base + "cpu")) {
      std::ifstream a(e.path(), std::ios::binary), b(base + "twin/" + e.path().filename().string(), std::ios::binary);
      const std::string ca((std::istreambuf_iterator<char>(a)), {}), cb((std::istreambuf_iterator<char>(b)), {});
      EXPECT_FALSE(ca.empty()) << e.path();
      EXPECT_TRUE(ca == cb) << e.path().filename() << " differs";
      nonzero += ca.find_first_not_of('\0') != std::string::npos;
      ++files;
    }
    EXPECT_EQ(files, 5);
    EXPECT_GE(nonzero, 1) << "every heat map is all zero";
    std::filesystem::remove_all(base + "cpu");
    std::filesystem::remove_all(base + "twin");
  }
  const PictureFormat f{240, 216, 10, ChromaFormat::k420};
  for (const bool in_ref : {false, true}) {
    Engine e(f, EngineOptions{.backend = backend.get(), .cpu_fallback = false});
    e.use(FeatureRequest{"cambi", {{"full_ref", "true"}}});
    try {
      for (unsigned i = 0; i < 2; ++i) {
        auto r = e.acquire();
        auto d = e.acquire();
        synth(*r, i, 0);
        synth(*d, i, 1);
        if (i == 1) (in_ref ? r : d)->row<std::uint16_t>(0, 3)[4] = 1024;
        e.push(std::move(r), std::move(d));
      }
      e.finish();
      ADD_FAILURE() << "no error";
    } catch (const Error& err) {
      EXPECT_EQ(std::string(err.what()), std::string("cambi: frame 1: the ") + (in_ref ? "reference" : "distorted") +
                                             " luma holds a value above 1023, the maximum for 10-bit input");
    }
  }
}

// A build without device backends has no such tests.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CambiTwinVsLibvmaf);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CambiTwinEdges);
INSTANTIATE_TEST_SUITE_P(Devices, CambiTwinEdges, ::testing::ValuesIn(test::built_device_backends()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// Writes the synthetic clips as raw planar YUV (little-endian for > 8 bit).
// A generator for the synthetic clips, not a test: build with
// -DVMAFX_DUMP_TOOLS to get it (then set VMAFX_DUMP_SYNTH=<dir>).
#ifdef VMAFX_DUMP_TOOLS
const char* chroma_arg(ChromaFormat c) {
  return c == ChromaFormat::k444 ? "444" : c == ChromaFormat::k422 ? "422" : "420";
}

TEST(SyntheticDump, WhenAsked) {
  const char* dir = std::getenv("VMAFX_DUMP_SYNTH");
  if (!dir) GTEST_SKIP() << "set VMAFX_DUMP_SYNTH=<dir> to write the synthetic clips";
  std::map<std::string, PictureFormat> clips;
  for (const Synthetic& c : synthetic()) clips[c.name] = c.fmt;
  for (const auto& [name, fmt] : clips) {
    for (unsigned seed : {0u, 1u}) {
      const std::string path = std::string(dir) + "/" + name + (seed ? ".dis.yuv" : ".ref.yuv");
      std::ofstream out(path, std::ios::binary);
      ASSERT_TRUE(out) << path;
      for (unsigned i = 0; i < kSynthFrames; ++i) {
        Picture p(fmt);
        synth(p, i, seed);
        for (int pl = 0; pl < fmt.plane_count(); ++pl) {
          const PlaneView v = p.plane(pl);
          for (int y = 0; y < v.height; ++y)
            out.write(reinterpret_cast<const char*>(v.data + y * v.stride), v.width * fmt.bytes_per_sample());
        }
      }
    }
    std::printf("%s: -w %d -h %d -p %s -b %d\n", name.c_str(), fmt.width, fmt.height, chroma_arg(fmt.chroma), fmt.bpc);
  }
}
#endif  // VMAFX_DUMP_TOOLS

}  // namespace
}  // namespace vmafx::test
