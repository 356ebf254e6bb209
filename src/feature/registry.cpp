// SPDX-License-Identifier: BSD-3-Clause
// The feature table: every extractor, its device twins and the option sets
// the twin harness checks them with. This is the one list: the engine, the
// model loader (lookup by feature name), both backends, --list-features and
// tests/checkfeat all read it. An extractor's descriptor lives beside its
// code (feature/<f>.cpp), its twins in feature/cuda and feature/opencl.
#include <array>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "core/feature.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {

extern const ExtractorDescriptor kMotionExtractor, kPsnrExtractor, kVifExtractor, kAdmExtractor;
extern const ExtractorDescriptor kFloatSsimExtractor, kFloatMsSsimExtractor, kSsimExtractor;
extern const ExtractorDescriptor kPsnrHvsExtractor, kCiedeExtractor, kCambiExtractor;
extern const ExtractorDescriptor kFloatVifExtractor, kFloatAdmExtractor, kFloatMotionExtractor, kFloatPsnrExtractor,
    kFloatAnsnrExtractor, kFloatMomentExtractor;
extern const ExtractorDescriptor kSpeedChromaExtractor, kSpeedTemporalExtractor;

// The feature table, one row per extractor in libvmaf's order of lookup by
// feature name (which matters only where two extractors would provide one
// name: none do, a test checks it):
//   X(twin, .desc = &descriptor[, .opencl_source = "<file>.cl"][, .checks = k<...>Checks])
// `twin` names the twin factories, make_<twin>_twin in feature/cuda/<f>_cuda.cpp
// and feature/opencl/<f>_opencl.cpp. The optional fields default (Row): the
// kernel file <twin>.cl, the checks kDefaults (the default options), and a
// CUDA and an OpenCL twin.
#define VMAFX_FEATURES(X)                                                                                          \
  X(float_psnr, .desc = &kFloatPsnrExtractor)                                                                      \
  X(float_ansnr, .desc = &kFloatAnsnrExtractor)                                                                    \
  X(float_adm, .desc = &kFloatAdmExtractor, .checks = kFloatAdmChecks)                                             \
  X(float_vif, .desc = &kFloatVifExtractor, .checks = kFloatVifChecks)                                             \
  X(float_motion, .desc = &kFloatMotionExtractor, .checks = kFloatMotionChecks)                                    \
  X(float_moment, .desc = &kFloatMomentExtractor)                                                                  \
  X(speed_chroma, .desc = &kSpeedChromaExtractor, .opencl_source = "speed.cl", .checks = kSpeedChromaChecks)       \
  X(speed_temporal, .desc = &kSpeedTemporalExtractor, .opencl_source = "speed.cl", .checks = kSpeedTemporalChecks) \
  X(float_ms_ssim, .desc = &kFloatMsSsimExtractor, .opencl_source = "float_ssim.cl", .checks = kMsSsimChecks)      \
  X(float_ssim, .desc = &kFloatSsimExtractor, .checks = kFloatSsimChecks)                                          \
  X(ssim, .desc = &kSsimExtractor)                                                                                 \
  X(ciede, .desc = &kCiedeExtractor)                                                                               \
  X(psnr, .desc = &kPsnrExtractor, .checks = kPsnrChecks)                                                          \
  X(psnr_hvs, .desc = &kPsnrHvsExtractor)                                                                          \
  X(adm, .desc = &kAdmExtractor, .checks = kAdmChecks)                                                             \
  X(motion, .desc = &kMotionExtractor)                                                                             \
  X(vif, .desc = &kVifExtractor, .checks = kVifChecks)                                                             \
  X(cambi, .desc = &kCambiExtractor, .checks = kCambiChecks)

#ifdef VMAFX_HAVE_CUDA
namespace cuda {
#define VMAFX_DECLARE(f, ...) \
  std::unique_ptr<Extractor> make_##f##_twin(CudaBackend&, const OptionSet&, const PictureFormat&);
VMAFX_FEATURES(VMAFX_DECLARE)
#undef VMAFX_DECLARE
}  // namespace cuda
#define CUDA(f) &cuda::make_##f##_twin
#else
#define CUDA(f) nullptr
#endif
#ifdef VMAFX_HAVE_OPENCL
namespace ocl {
#define VMAFX_DECLARE(f, ...) \
  std::unique_ptr<Extractor> make_##f##_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);
VMAFX_FEATURES(VMAFX_DECLARE)
#undef VMAFX_DECLARE
}  // namespace ocl
#define OPENCL(f) &ocl::make_##f##_twin
#else
#define OPENCL(f) nullptr
#endif

namespace {

using Checks = std::span<const std::string_view>;
// The option sets checked: the defaults and what the built-in models set,
// plus the options that take a twin's rare paths.
constexpr std::string_view kVifChecks[] = {"", "vif_enhn_gain_limit=1",
                                           // not an integer: the twins' integer fast paths step aside and the
                                           // 128-bit / soft-fp64 paths decide every clamp
                                           "vif_enhn_gain_limit=1.5"};
constexpr std::string_view kAdmChecks[] = {"", "adm_enhn_gain_limit=1", "adm_enhn_gain_limit=1.5"};
constexpr std::string_view kDefaults[] = {""};
constexpr std::string_view kPsnrChecks[] = {"", "enable_mse=true:enable_apsnr=true"};
constexpr std::string_view kFloatSsimChecks[] = {"", "enable_lcs=true", "scale=2", "scale=3"};
constexpr std::string_view kMsSsimChecks[] = {"enable_lcs=true"};
// cambi: every option that changes a device stage (the resize, the source
// side, the contrast steps and their thresholds, the window, dithering) or
// the host's pooling; what the vmaf_v1.0.16 models set first.
constexpr std::string_view kCambiChecks[] = {
    "cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06",
    "",
    "full_ref=true",
    "full_ref=true:src_width=320:src_height=240",
    "enc_width=230:enc_height=160",
    "enc_width=300:enc_height=170:full_ref=true",
    "max_log_contrast=0",
    "max_log_contrast=5:tvi_threshold=0.1",
    "max_log_contrast=3:eotf=pq:topk=0.1",
    "cambi_eotf=pq:cambi_topk=1:cambi_vis_lum_threshold=40",
    "window_size=15:enc_bitdepth=8",
    "window_size=127:cambi_max_val=0.5:tvi_threshold=0.0001"};
// Every option of float_vif: the kernel scales change the taps (and the
// smallest picture), the prescale runs the host's interpolators.
constexpr std::string_view kFloatVifChecks[] = {"",
                                                "debug=true:vif_enhn_gain_limit=1",
                                                "vif_kernelscale=0.5:vif_sigma_nsq=0.5",
                                                "vif_kernelscale=2:vif_skip_scale0=true:debug=true",
                                                "vif_sigma_nsq=0:vif_scale2_min_val=0.9",
                                                "vif_prescale=0.5:vif_prescale_method=bicubic",
                                                "vif_prescale=0.75:vif_prescale_method=lanczos4"};
// Every option of float_adm: the gain limit, the three CSFs and the factor
// overrides, p != 3 (the host's powf), no masking, the skipped scales, the
// adm3 variants, and each libvmaf_cpu (the division's three variants).
constexpr std::string_view kFloatAdmChecks[] = {
    "",
    "libvmaf_cpu=intel",
    "libvmaf_cpu=amd",
    "libvmaf_cpu=generic",
    "debug=true:adm_enhn_gain_limit=1:adm_csf_mode=1:adm_csf_scale=2:adm_csf_diag_scale=0.5:"
    "adm_adm3_apply_hm=true:libvmaf_cpu=intel",
    "adm_csf_mode=2:adm_p_norm=2.5:adm_skip_aim_scale=2:adm_min_val=0.5:libvmaf_cpu=generic",
    "adm_bypass_cm=1:adm_skip_scale0=true:adm_noise_weight=0.5:debug=true",
    "adm_enhn_gain_limit=1.5:adm_f1s0=0.5:adm_f2s3=2:adm_norm_view_dist=1.5:adm_ref_display_height=2160:"
    "adm_dlm_weight=0.25"};
// Every option of float_motion: the three filters, chroma, the half-size
// frames (the host's bilinear scaler), the blend, cap and weight, force_zero.
constexpr std::string_view kFloatMotionChecks[] = {
    "",
    "motion_filter_size=3:motion_fps_weight=2:debug=false",
    "motion_filter_size=1:motion_add_uv=true",
    "motion_add_scale1=true:motion_blend_factor=0.5:motion_blend_offset=0.5:motion_max_val=5",
    "motion_add_uv=true:motion_add_scale1=true",
    "motion_force_zero=true"};
// speed: what the models set, then every prescale method (the device's scale
// tables), kernel scales and the host-only options.
constexpr std::string_view kSpeedChromaChecks[] = {
    "speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45", "speed_prescale=2",
    "speed_prescale=2:speed_prescale_method=bilinear:speed_kernelscale=0.5",
    "speed_prescale=1.5:speed_prescale_method=bicubic:speed_weight_var_mode=3",
    "speed_prescale=1.25:speed_prescale_method=lanczos4:speed_kernelscale=2"};
constexpr std::string_view kSpeedTemporalChecks[] = {
    "",
    "speed_use_ref_diff=true:speed_kernelscale=1.5",
    "speed_prescale=0.5",
    "speed_prescale=0.6:speed_prescale_method=bilinear",
    "speed_prescale=0.75:speed_prescale_method=bicubic:speed_use_ref_diff=true",
    "speed_prescale=0.5:speed_prescale_method=lanczos4:speed_kernelscale=0.5"};

// A row of VMAFX_FEATURES, the fields it may leave out at their defaults.
struct Row {
  const ExtractorDescriptor* desc;
  std::string_view opencl_source;  // empty: <twin>.cl
  Checks checks = kDefaults;
  bool has_cuda_twin = true, has_opencl_twin = true;
};

constexpr FeatureEntry entry(const Row& r, std::string_view twin_source, CudaTwinFactory cuda,
                             OpenclTwinFactory opencl) {
  return {.desc = r.desc,
          .cuda = r.has_cuda_twin ? cuda : nullptr,
          .opencl = r.has_opencl_twin ? opencl : nullptr,
          .opencl_source = !r.has_opencl_twin        ? std::string_view()
                           : r.opencl_source.empty() ? twin_source
                                                     : r.opencl_source,
          .checks = r.checks,
          .has_cuda_twin = r.has_cuda_twin,
          .has_opencl_twin = r.has_opencl_twin};
}

#define VMAFX_ENTRY(f, ...) entry(Row{__VA_ARGS__}, #f ".cl", CUDA(f), OPENCL(f)),
const FeatureEntry kTable[] = {VMAFX_FEATURES(VMAFX_ENTRY)};
#undef VMAFX_ENTRY
#undef VMAFX_FEATURES
#undef CUDA
#undef OPENCL

const std::array<const ExtractorDescriptor*, std::size(kTable)> kExtractors = [] {
  std::array<const ExtractorDescriptor*, std::size(kTable)> a{};
  for (std::size_t i = 0; i < std::size(kTable); ++i) a[i] = kTable[i].desc;
  return a;
}();

// libvmaf's alias table (feature/alias.c): internal name -> output name.
constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
    {"VMAF_feature_adm2_score", "adm2"},
    {"VMAF_feature_aim_score", "aim"},
    {"VMAF_feature_adm3_score", "adm3"},
    {"VMAF_feature_adm_scale0_score", "adm_scale0"},
    {"VMAF_feature_adm_scale1_score", "adm_scale1"},
    {"VMAF_feature_adm_scale2_score", "adm_scale2"},
    {"VMAF_feature_adm_scale3_score", "adm_scale3"},
    {"VMAF_feature_motion_score", "motion"},
    {"VMAF_feature_motion2_score", "motion2"},
    {"VMAF_feature_motion3_score", "motion3"},
    {"VMAF_feature_vif_scale0_score", "vif_scale0"},
    {"VMAF_feature_vif_scale1_score", "vif_scale1"},
    {"VMAF_feature_vif_scale2_score", "vif_scale2"},
    {"VMAF_feature_vif_scale3_score", "vif_scale3"},
    {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    {"VMAF_integer_feature_motion_score", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "integer_motion3"},
    {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
    {"Cambi_feature_cambi_score", "cambi"},
    {"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"},
    {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"},
    {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"},
    {"Speed_temporal_feature_speed_temporal_score", "speed_temporal"},
};

}  // namespace

std::span<const FeatureEntry> feature_table() { return kTable; }

const FeatureEntry& feature_entry(const ExtractorDescriptor& d) {
  for (const FeatureEntry& e : kTable)
    if (e.desc == &d) return e;
  // An extractor outside the table (tests, plug-ins) has no twins.
  static thread_local FeatureEntry none;
  none = {.desc = &d};
  return none;
}

std::span<const ExtractorDescriptor* const> all_extractors() { return kExtractors; }

const ExtractorDescriptor* find_extractor(std::string_view name) {
  for (const ExtractorDescriptor* d : all_extractors())
    if (d->name == name) return d;
  return nullptr;
}

const ExtractorDescriptor* find_extractor_by_feature(std::string_view feature_name) {
  for (const ExtractorDescriptor* d : all_extractors())
    for (std::string_view f : d->provided)
      if (f == feature_name) return d;
  return nullptr;
}

std::string_view feature_alias(std::string_view name) {
  for (const auto& [from, to] : kAliases)
    if (from == name) return to;
  return name;
}

namespace {
std::string number_text(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}
}  // namespace

std::string describe_features() {
  std::string out;
  for (const FeatureEntry& e : kTable) {
    const ExtractorDescriptor& d = *e.desc;
    out += std::string(d.name);
    std::string twins = "cpu";
    if (e.has_cuda_twin) twins += ", cuda";
    if (e.has_opencl_twin) twins += ", opencl";
    out += "  [" + twins + "]" + ((d.flags & kTemporal) ? "  temporal" : "") + "\n";
    out += "  outputs:";
    for (std::string_view f : d.provided) out += " " + std::string(feature_alias(f));
    out += "\n";
    for (const OptionSpec& o : d.options) {
      out += "  " + std::string(o.name);
      if (!o.alias.empty()) out += " (" + std::string(o.alias) + ")";
      switch (o.type) {
        case OptionType::kBool: out += std::string(" bool, default ") + (o.default_num != 0 ? "true" : "false"); break;
        case OptionType::kInt:
          out += " int, default " + number_text(o.default_num) + ", " + number_text(o.min) + ".." + number_text(o.max);
          break;
        case OptionType::kDouble:
          out +=
              " double, default " + number_text(o.default_num) + ", " + number_text(o.min) + ".." + number_text(o.max);
          break;
        case OptionType::kString: out += " string, default \"" + std::string(o.default_str) + "\""; break;
      }
      if (!o.help.empty()) out += ": " + std::string(o.help);
      out += "\n";
    }
  }
  return out;
}

}  // namespace vmafx
