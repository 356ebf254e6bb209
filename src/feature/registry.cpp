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

// Twin factories, defined in feature/cuda/<f>_cuda.cpp and
// feature/opencl/<f>_opencl.cpp when the backend is built.
#define VMAFX_TWINS(X) X(motion) X(vif) X(adm) X(psnr) X(ssim) X(float_ssim) X(float_ms_ssim)
#define VMAFX_TWINS_MISC(X) X(float_psnr) X(float_moment) X(float_ansnr) X(psnr_hvs)
#ifdef VMAFX_HAVE_CUDA
namespace cuda {
#define VMAFX_DECLARE(f) std::unique_ptr<Extractor> make_##f##_twin(CudaBackend&, const OptionSet&, const PictureFormat&);
VMAFX_TWINS(VMAFX_DECLARE)
VMAFX_TWINS_MISC(VMAFX_DECLARE)
#undef VMAFX_DECLARE
}  // namespace cuda
#define CUDA(f) &cuda::make_##f##_twin
#else
#define CUDA(f) nullptr
#endif
#ifdef VMAFX_HAVE_OPENCL
namespace ocl {
#define VMAFX_DECLARE(f) \
  std::unique_ptr<Extractor> make_##f##_twin(std::shared_ptr<FrameGroup>, const OptionSet&, const PictureFormat&);
VMAFX_TWINS(VMAFX_DECLARE)
VMAFX_TWINS_MISC(VMAFX_DECLARE)
#undef VMAFX_DECLARE
}  // namespace ocl
#define OPENCL(f) &ocl::make_##f##_twin
#else
#define OPENCL(f) nullptr
#endif
#undef VMAFX_TWINS
#undef VMAFX_TWINS_MISC

namespace {

using Checks = std::span<const std::string_view>;
// The option sets checked: the defaults and what the built-in models set,
// plus the options that take a twin's rare paths.
constexpr std::string_view kVifChecks[] = {
    "", "vif_enhn_gain_limit=1",
    // not an integer: the twins' integer fast paths step aside and the
    // 128-bit / soft-fp64 paths decide every clamp
    "vif_enhn_gain_limit=1.5"};
constexpr std::string_view kAdmChecks[] = {"", "adm_enhn_gain_limit=1", "adm_enhn_gain_limit=1.5"};
constexpr std::string_view kDefaults[] = {""};
constexpr std::string_view kPsnrChecks[] = {"", "enable_mse=true:enable_apsnr=true"};
constexpr std::string_view kFloatSsimChecks[] = {"", "enable_lcs=true", "scale=2", "scale=3"};
constexpr std::string_view kMsSsimChecks[] = {"enable_lcs=true"};

// In libvmaf's order of lookup by feature name (which matters only where two
// extractors would provide one name: none do, a test checks it).
const FeatureEntry kTable[] = {
    {.desc = &kFloatPsnrExtractor, .cuda = CUDA(float_psnr), .opencl = OPENCL(float_psnr),
     .opencl_source = "float_psnr.cl", .checks = kDefaults, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kFloatAnsnrExtractor, .cuda = CUDA(float_ansnr), .opencl = OPENCL(float_ansnr),
     .opencl_source = "float_ansnr.cl", .checks = kDefaults, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kFloatAdmExtractor},
    {.desc = &kFloatVifExtractor},
    {.desc = &kFloatMotionExtractor},
    {.desc = &kFloatMomentExtractor, .cuda = CUDA(float_moment), .opencl = OPENCL(float_moment),
     .opencl_source = "float_moment.cl", .checks = kDefaults, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kSpeedChromaExtractor},
    {.desc = &kSpeedTemporalExtractor},
    {.desc = &kFloatMsSsimExtractor, .cuda = CUDA(float_ms_ssim), .opencl = OPENCL(float_ms_ssim),
     .opencl_source = "float_ssim.cl", .checks = kMsSsimChecks, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kFloatSsimExtractor, .cuda = CUDA(float_ssim), .opencl = OPENCL(float_ssim),
     .opencl_source = "float_ssim.cl", .checks = kFloatSsimChecks, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kSsimExtractor, .cuda = CUDA(ssim), .opencl = OPENCL(ssim), .opencl_source = "ssim.cl",
     .checks = kDefaults, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kCiedeExtractor},
    {.desc = &kPsnrExtractor, .cuda = CUDA(psnr), .opencl = OPENCL(psnr), .opencl_source = "motion.cl",
     .checks = kPsnrChecks, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kPsnrHvsExtractor, .cuda = CUDA(psnr_hvs), .opencl = OPENCL(psnr_hvs), .opencl_source = "psnr_hvs.cl",
     .checks = kDefaults, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kAdmExtractor, .cuda = CUDA(adm), .opencl = OPENCL(adm), .opencl_source = "adm.cl",
     .checks = kAdmChecks, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kMotionExtractor, .cuda = CUDA(motion), .opencl = OPENCL(motion), .opencl_source = "motion.cl",
     .checks = kDefaults, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kVifExtractor, .cuda = CUDA(vif), .opencl = OPENCL(vif), .opencl_source = "vif.cl",
     .checks = kVifChecks, .has_cuda_twin = true, .has_opencl_twin = true},
    {.desc = &kCambiExtractor},
};
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
          out += " double, default " + number_text(o.default_num) + ", " + number_text(o.min) + ".." + number_text(o.max);
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
