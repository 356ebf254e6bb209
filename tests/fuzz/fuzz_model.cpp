// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the model loader (JSON tree, model_dict, libsvm text,
// bootstrap collections, score transforms) and prediction. The input is a
// model file, loaded as --model path=FILE loads one (Model::from_file); the
// built-in models are this format, and model/*.json seed the corpus. A model
// that loads is loaded again with every --model modifier (disable_clip,
// enable_transform, an extractor option overload) and predicts frames of
// ordinary, extreme and non-finite feature values.
//
// Oracle: no sanitizer report, no crash, no hang; every failure is a
// vmafx::Error whose message is one line starting with the path; a loaded
// model names each feature's extractor and predicts one score per frame (and
// a bootstrap collection its sub-models and four statistics).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "fuzz_common.hpp"
#include "model/model.hpp"

using namespace vmafx;

namespace {

void exercise(const Model& m) {
  const std::size_t n = m.features().size();
  for (const ModelFeature& f : m.features())
    if (f.extractor.empty() || f.name.empty()) std::abort();
  const double inf = std::numeric_limits<double>::infinity();
  const double rows[][4] = {{0.5, 0.9, 3.0, 0.1},          {0.0, 0.0, 0.0, 0.0},  {1.0, 1.0, 1.0, 1.0},
                            {-1e300, 1e300, -0.0, 5e-324}, {inf, -inf, 0.0, 1.0}, {NAN, 0.5, NAN, 0.5}};
  std::vector<double> values(n);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < n; ++i) values[i] = row[i % 4];
    const auto scores = m.predict(values);
    if (scores.empty() || scores[0].first != m.name()) std::abort();
    if (!m.is_bootstrap() && scores.size() != 1) std::abort();
    if (m.is_bootstrap() && scores.size() < 6) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::MemFile file(data, size);
  try {
    exercise(Model::from_file(file.path(), {}));
    ModelOptions opts;
    opts.name = "m";
    opts.disable_clip = true;
    opts.enable_transform = true;
    opts.feature_overloads = {{"adm", "adm_enhn_gain_limit", "1.0"}, {"vif", "vif_enhn_gain_limit", "x"}};
    exercise(Model::from_file(file.path(), opts));
  } catch (const Error& e) {
    fuzz::check_message(e.what(), file.path() + ": ");
  }
  return 0;
}
