// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// VMAF models: JSON loading (libvmaf's model format), the built-in models, and
// per-frame prediction that reproduces libvmaf 3.2.0's arithmetic bit for bit.
// See docs/models.md.
#include <cstddef>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vmafx {

struct ModelFeature {
  // Internal feature name as written in the model's "feature_names" (and as
  // libvmaf looks it up), e.g. "VMAF_integer_feature_adm2_score".
  std::string name;
  // This feature's "feature_opts_dicts" entry (plus any --model overloads):
  // option name -> value text as libvmaf passes it to the extractor. JSON
  // numbers are normalised like libvmaf does (strtof, then "%g": 1.0 -> "1",
  // 0.06 -> "0.06"), JSON booleans are "true"/"false". Empty if none.
  std::map<std::string, std::string> opts;
  // Name of the libvmaf feature extractor that provides `name` (the first one
  // in libvmaf's extractor list that lists it): "adm", "motion", "vif",
  // "float_adm", "float_vif", "float_motion", "cambi", "speed_chroma", ...
  std::string extractor;

  bool operator==(const ModelFeature&) const = default;
};

// One "extractor.option=value" override from a --model string, e.g.
// --model version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.0 gives
// {"adm", "adm_enhn_gain_limit", "1.0"}. Applied (overwriting) to the options of
// every feature of the model (and of every bootstrap sub-model) that `extractor`
// provides; numeric values are normalised like libvmaf does.
struct ModelFeatureOverload {
  std::string extractor;
  std::string option;
  std::string value;
};

struct ModelOptions {             // from --model key=value pairs
  std::string name = "vmaf";      // output name (libvmaf's default is "vmaf")
  bool disable_clip = false;      // ignore the model's score_clip
  bool enable_transform = false;  // apply score_transform even without "enabled": true
  std::vector<ModelFeatureOverload> feature_overloads;
};

namespace model_detail {
struct ModelData;
}

// One libsvm nu-SVR model, or a bootstrap collection (vmaf_b_v0.6.3 etc.).
class Model {
 public:
  // source_for_errors names the model in error messages (a path, or a version).
  static Model from_json(std::string_view json_text, std::string_view source_for_errors, const ModelOptions& opts);
  // A built-in model by version ("vmaf_v0.6.1", ...). Throws Error listing the
  // valid versions when there is no such model.
  static Model builtin(std::string_view version, const ModelOptions& opts);
  static std::vector<std::string> builtin_versions();  // sorted
  // Throws Error("<path>: ...") on an unreadable file or a bad model.
  static Model from_file(const std::string& path, const ModelOptions& opts);

  const std::string& name() const;
  // Distinct features the model needs (distinct by name and options), in the
  // order libvmaf meets them when it registers extractors: a model's
  // feature_names order; for a bootstrap collection the sub-models "1".."N" in
  // order, then sub-model "0".
  const std::vector<ModelFeature>& features() const;
  bool is_bootstrap() const;

  // values[i] is the frame's value of features()[i]. Returns the (name, score)
  // pairs libvmaf appends for this frame, in libvmaf's order: {name} alone, or
  // for a bootstrap collection {name, name_0001 .. name_NNNN, name_bagging,
  // name_stddev, name_ci_p95_lo, name_ci_p95_hi}. Throws Error if
  // values.size() != features().size().
  std::vector<std::pair<std::string, double>> predict(std::span<const double> values) const;

 private:
  explicit Model(std::shared_ptr<const model_detail::ModelData> d);
  std::shared_ptr<const model_detail::ModelData> d_;
};

}  // namespace vmafx
