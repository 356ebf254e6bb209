// The one list of extractors. A feature's descriptor lives beside its code
// (feature/<f>.cpp); this file only names it.
#include <array>
#include <string_view>
#include <utility>

#include "core/feature.hpp"

namespace vmafx {

// Descriptors, defined in feature/<f>.cpp.
// (keep sorted as libvmaf's feature_extractor_list is not: order here is only
// the order of --list-features)
extern const ExtractorDescriptor kMotionExtractor;
extern const ExtractorDescriptor kPsnrExtractor;
extern const ExtractorDescriptor kVifExtractor;
extern const ExtractorDescriptor kAdmExtractor;
extern const ExtractorDescriptor kFloatSsimExtractor, kFloatMsSsimExtractor, kSsimExtractor;
extern const ExtractorDescriptor kPsnrHvsExtractor, kCiedeExtractor, kCambiExtractor;
extern const ExtractorDescriptor kFloatVifExtractor, kFloatAdmExtractor, kFloatMotionExtractor, kFloatPsnrExtractor, kFloatAnsnrExtractor, kFloatMomentExtractor;
extern const ExtractorDescriptor kSpeedChromaExtractor, kSpeedTemporalExtractor;
// @@DESCRIPTOR_DECLS@@

namespace {

constexpr const ExtractorDescriptor* kExtractors[] = {
    &kMotionExtractor,
    &kPsnrExtractor,
    &kVifExtractor,
    &kAdmExtractor,
    &kFloatSsimExtractor, &kFloatMsSsimExtractor, &kSsimExtractor,
    &kPsnrHvsExtractor, &kCiedeExtractor, &kCambiExtractor,
    &kFloatVifExtractor, &kFloatAdmExtractor, &kFloatMotionExtractor, &kFloatPsnrExtractor, &kFloatAnsnrExtractor, &kFloatMomentExtractor,
    &kSpeedChromaExtractor, &kSpeedTemporalExtractor,
    // @@DESCRIPTOR_LIST@@
    nullptr,
};

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

std::span<const ExtractorDescriptor* const> all_extractors() {
  return {kExtractors, std::size(kExtractors) - 1};
}

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

}  // namespace vmafx
