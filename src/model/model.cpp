// SPDX-License-Identifier: BSD-3-Clause
#include "model/model.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <tuple>

#include "core/embedded.hpp"
#include "core/error.hpp"
#include "core/feature.hpp"
#include "core/options.hpp"
#include "model/json_tree.hpp"
#include "model/svm.hpp"

namespace vmafx {

extern const EmbeddedFile kBuiltinModels[];
extern const std::size_t kBuiltinModels_count;

namespace model_detail {

namespace {

// Which extractor provides a feature name: the feature table's lookup, as
// libvmaf's (the first extractor in its list whose provided features name it).
const char* extractor_for_feature(const std::string& name) {
  const ExtractorDescriptor* d = find_extractor_by_feature(name);
  return d ? d->name.data() : nullptr;
}

constexpr std::size_t kMaxFeatures = 64;  // libvmaf's per-model limit
constexpr std::size_t kMaxKnots = 10;     // libvmaf's score_transform knot limit

}  // namespace

enum class ModelType { Svm, Bootstrap, ResidueBootstrap };
enum class Norm { None, LinearRescale };

struct Point {
  double x = 0.0, y = 0.0;
};

struct ScoreTransform {
  bool enabled = false;
  bool p0_on = false, p1_on = false, p2_on = false;
  double p0 = 0.0, p1 = 0.0, p2 = 0.0;
  bool knots_on = false;
  std::vector<Point> knots;
  bool out_lte_in = false, out_gte_in = false;
};

struct SubModel {
  std::string name;
  ModelType type = ModelType::Svm;
  Norm norm = Norm::None;
  double slope = 0.0, intercept = 0.0;
  std::vector<std::string> feature_names;
  std::vector<std::map<std::string, std::string>> feature_opts;
  std::vector<std::string> feature_extractors;
  std::vector<double> feature_slope, feature_intercept;
  std::vector<std::size_t> value_index;  // feature i's position in ModelData::features
  bool clip = false;
  double clip_min = 0.0, clip_max = 0.0;
  bool chroma = false;
  double chroma_param = 0.0;
  std::size_t chroma_guiding = 0, chroma_guided = 0;  // feature positions ("adm3", "speed_chroma")
  ScoreTransform transform;
  SvmModel svm;
};

struct ModelData {
  std::string name;
  std::vector<ModelFeature> features;
  SubModel main;               // the model, or sub-model "0" of a collection
  std::vector<SubModel> boot;  // sub-models "1".."N" of a collection
  bool bootstrap = false;
};

namespace {

class Loader {
 public:
  Loader(std::string_view source, const ModelOptions& opts) : source_(source), opts_(opts) {}

  std::shared_ptr<ModelData> load(std::string_view text) {
    const JsonValue root = parse_json(text, source_);
    if (!root.is_object()) fail("", std::string("the top level is ") + kind_name(root.kind) + ", not an object");
    auto d = std::make_shared<ModelData>();
    d->name = opts_.name;
    if (root.find("model_dict")) {
      d->main = load_model(root, "", opts_.name);
    } else {
      // A bootstrap collection: members "0", "1", ... in this order; libvmaf
      // skips any member that is not the next number.
      unsigned i = 0;
      for (const auto& [key, value] : root.members) {
        if (key != std::to_string(i)) continue;
        const std::string where = "model \"" + key + "\": ";
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, "_%04u", i);
        SubModel m = load_model(value, where, i == 0 ? opts_.name : opts_.name + suffix);
        if (i == 0)
          d->main = std::move(m);
        else
          d->boot.push_back(std::move(m));
        ++i;
      }
      if (i == 0) fail("", "no \"model_dict\" (and no bootstrap sub-models \"0\", \"1\", ...)");
      if (d->boot.empty()) fail("", "bootstrap collection has sub-model \"0\" but no \"1\"");
      const ModelType t = d->boot[0].type;
      if (t == ModelType::Svm) {
        fail("",
             "bootstrap collection sub-models have model_type LIBSVMNUSVR, expected "
             "BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR");
      }
      for (std::size_t k = 1; k < d->boot.size(); ++k)
        if (d->boot[k].type != t) fail("", "bootstrap collection sub-models have different model_type");
      d->bootstrap = true;
    }
    apply_overloads(*d);
    collect_features(*d);
    return d;
  }

 private:
  // Messages quote the model's own strings (a model_type, a feature name, an
  // option key), which may hold control characters: those are escaped, so
  // that the message stays one line.
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    std::string msg = std::string(source_) + ": " + where;
    for (const char c : what) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\x%02x", unsigned(static_cast<unsigned char>(c)));
        msg += esc;
      } else {
        msg += c;
      }
    }
    throw model_error(msg);
  }

  const JsonValue& need(const JsonValue& obj, const char* key, const std::string& where) const {
    const JsonValue* v = obj.find(key);
    if (!v) fail(where, std::string("model_dict: missing \"") + key + "\"");
    return *v;
  }

  void check_kind(const JsonValue& v, JsonValue::Kind k, const std::string& where, const std::string& what) const {
    if (v.kind != k) fail(where, what + " is " + kind_name(v.kind) + ", expected " + kind_name(k));
  }

  std::vector<double> numbers(const JsonValue& arr, const std::string& where, const char* key) const {
    check_kind(arr, JsonValue::Kind::Array, where, std::string("model_dict: \"") + key + "\"");
    std::vector<double> out;
    for (const JsonValue& v : arr.items) {
      if (!v.is_number()) fail(where, std::string("model_dict: \"") + key + "\" holds " + kind_name(v.kind));
      out.push_back(v.number);
    }
    return out;
  }

  SubModel load_model(const JsonValue& top, const std::string& where, const std::string& name) const {
    if (!top.is_object()) fail(where, std::string("is ") + kind_name(top.kind) + ", not an object");
    const JsonValue* mdp = top.find("model_dict");
    if (!mdp) fail(where, "missing \"model_dict\"");
    const JsonValue& md = *mdp;
    check_kind(md, JsonValue::Kind::Object, where, "\"model_dict\"");

    SubModel m;
    m.name = name;

    // model_type
    const JsonValue& type = need(md, "model_type", where);
    check_kind(type, JsonValue::Kind::String, where, "model_dict: \"model_type\"");
    if (type.text == "LIBSVMNUSVR")
      m.type = ModelType::Svm;
    else if (type.text == "BOOTSTRAP_LIBSVMNUSVR")
      m.type = ModelType::Bootstrap;
    else if (type.text == "RESIDUEBOOTSTRAP_LIBSVMNUSVR")
      m.type = ModelType::ResidueBootstrap;
    else
      fail(where, "model_dict: unknown model_type \"" + type.text + "\"");

    // norm_type
    const JsonValue& norm = need(md, "norm_type", where);
    check_kind(norm, JsonValue::Kind::String, where, "model_dict: \"norm_type\"");
    if (norm.text == "linear_rescale")
      m.norm = Norm::LinearRescale;
    else if (norm.text == "none")
      m.norm = Norm::None;
    else
      fail(where, "model_dict: unknown norm_type \"" + norm.text + "\"");

    // feature_names
    const JsonValue& names = need(md, "feature_names", where);
    check_kind(names, JsonValue::Kind::Array, where, "model_dict: \"feature_names\"");
    for (const JsonValue& v : names.items) {
      if (!v.is_string()) fail(where, std::string("model_dict: \"feature_names\" holds ") + kind_name(v.kind));
      m.feature_names.push_back(v.text);
    }
    const std::size_t n = m.feature_names.size();
    if (n > kMaxFeatures) fail(where, "model_dict: more than 64 features");
    for (const std::string& f : m.feature_names) {
      const char* ex = extractor_for_feature(f);
      if (!ex) fail(where, "model_dict: feature \"" + f + "\" is not provided by any feature extractor");
      m.feature_extractors.emplace_back(ex);
    }

    // slopes / intercepts: [model, feature 1, ..., feature n]
    const JsonValue* slopes = md.find("slopes");
    const JsonValue* intercepts = md.find("intercepts");
    if (m.norm == Norm::LinearRescale) {
      if (!slopes) fail(where, "model_dict: missing \"slopes\" (needed by norm_type linear_rescale)");
      if (!intercepts) fail(where, "model_dict: missing \"intercepts\" (needed by norm_type linear_rescale)");
    }
    for (auto [v, key, dst_model, dst_feat] :
         {std::tuple{slopes, "slopes", &m.slope, &m.feature_slope},
          std::tuple{intercepts, "intercepts", &m.intercept, &m.feature_intercept}}) {
      if (!v) continue;
      std::vector<double> a = numbers(*v, where, key);
      if (m.norm == Norm::LinearRescale && a.size() != n + 1) {
        fail(where, std::string("model_dict: \"") + key + "\" has " + std::to_string(a.size()) + " entries, expected " +
                        std::to_string(n + 1) + " (the model's, then one per feature)");
      }
      if (a.empty()) continue;
      *dst_model = a[0];
      dst_feat->assign(a.begin() + 1, a.end());
    }
    m.feature_slope.resize(n, 0.0);
    m.feature_intercept.resize(n, 0.0);

    // feature_opts_dicts
    m.feature_opts.resize(n);
    if (const JsonValue* fo = md.find("feature_opts_dicts")) {
      check_kind(*fo, JsonValue::Kind::Array, where, "model_dict: \"feature_opts_dicts\"");
      if (fo->items.size() > n) {
        fail(where, "model_dict: \"feature_opts_dicts\" has " + std::to_string(fo->items.size()) +
                        " entries but there are " + std::to_string(n) + " features");
      }
      for (std::size_t i = 0; i < fo->items.size(); ++i) {
        const JsonValue& dict = fo->items[i];
        check_kind(dict, JsonValue::Kind::Object, where,
                   "model_dict: \"feature_opts_dicts\" entry " + std::to_string(i));
        for (const auto& [key, val] : dict.members) {
          std::string text;
          if (val.is_number())
            text = normalize_numeric(val.text);
          else if (val.is_bool())
            text = val.boolean ? "true" : "false";
          else if (val.is_string())
            text = val.text;
          else {
            fail(where, "model_dict: \"feature_opts_dicts\" entry " + std::to_string(i) + ": option \"" + key +
                            "\" is " + kind_name(val.kind));
          }
          auto [it, inserted] = m.feature_opts[i].emplace(key, text);
          if (!inserted && it->second != text) {
            fail(where, "model_dict: \"feature_opts_dicts\" entry " + std::to_string(i) + ": option \"" + key +
                            "\" given twice with different values");
          }
        }
      }
    }

    // score_clip
    if (const JsonValue* sc = md.find("score_clip")) {
      check_kind(*sc, JsonValue::Kind::Array, where, "model_dict: \"score_clip\"");
      if (!opts_.disable_clip) {
        if (sc->items.size() < 2 || !sc->items[0].is_number() || !sc->items[1].is_number())
          fail(where, "model_dict: \"score_clip\" must be [min, max]");
        m.clip = true;
        m.clip_min = sc->items[0].number;
        m.clip_max = sc->items[1].number;
      }
    }

    // score_transform
    if (const JsonValue* st = md.find("score_transform")) {
      check_kind(*st, JsonValue::Kind::Object, where, "model_dict: \"score_transform\"");
      parse_transform(*st, m.transform, where);
      if (opts_.enable_transform) m.transform.enabled = true;
    }

    // chroma_correction_parameter (the v1.0.16 models)
    if (const JsonValue* cc = md.find("chroma_correction_parameter")) {
      check_kind(*cc, JsonValue::Kind::Number, where, "model_dict: \"chroma_correction_parameter\"");
      m.chroma = true;
      m.chroma_param = cc->number;
      if (m.chroma_param == 0.0) {
        // libvmaf then returns from prediction without writing a score.
        fail(where, "model_dict: \"chroma_correction_parameter\" is 0 (libvmaf writes no score for such a model)");
      }
      m.chroma_guiding = unique_feature_with(m, "adm3", where);
      m.chroma_guided = unique_feature_with(m, "speed_chroma", where);
    }

    // model (libsvm text)
    const JsonValue& svm = need(md, "model", where);
    check_kind(svm, JsonValue::Kind::String, where, "model_dict: \"model\"");
    m.svm = parse_svm(svm.text, where.empty() ? std::string(source_)
                                              : std::string(source_) + ": " + where.substr(0, where.size() - 2));
    const int mx = m.svm.max_index();
    if (mx > static_cast<int>(n)) {
      fail(where, "model_dict: the libsvm model uses feature index " + std::to_string(mx) + " but there are " +
                      std::to_string(n) + " features");
    }
    return m;
  }

  std::size_t unique_feature_with(const SubModel& m, const char* needle, const std::string& where) const {
    std::size_t found = m.feature_names.size(), count = 0;
    for (std::size_t i = 0; i < m.feature_names.size(); ++i) {
      if (m.feature_names[i].find(needle) != std::string::npos) {
        found = i;
        ++count;
      }
    }
    if (count != 1) {
      fail(where, std::string("model_dict: chroma_correction_parameter needs exactly one feature named *") + needle +
                      "*, found " + std::to_string(count));
    }
    return found;
  }

  void parse_transform(const JsonValue& st, ScoreTransform& t, const std::string& where) const {
    const std::string ctx = "model_dict: score_transform: ";
    for (const auto& [key, v] : st.members) {
      if (key == "enabled") {
        if (!v.is_bool()) fail(where, ctx + "\"enabled\" is " + kind_name(v.kind) + ", expected a boolean");
        t.enabled = v.boolean;
      } else if (key == "p0" || key == "p1" || key == "p2") {
        bool& on = key == "p0" ? t.p0_on : key == "p1" ? t.p1_on : t.p2_on;
        double& val = key == "p0" ? t.p0 : key == "p1" ? t.p1 : t.p2;
        if (v.is_null()) {
          on = false;
        } else if (v.is_number()) {
          on = true;
          val = v.number;
        } else {
          fail(where, ctx + "\"" + key + "\" is " + kind_name(v.kind) + ", expected a number or null");
        }
      } else if (key == "knots") {
        if (v.is_null()) {
          t.knots_on = false;
          t.knots.clear();
        } else if (v.is_array()) {
          if (v.items.size() > kMaxKnots) fail(where, ctx + "more than 10 knots");
          t.knots.clear();
          for (const JsonValue& k : v.items) {
            if (!k.is_array() || k.items.size() > 2) fail(where, ctx + "a knot must be [x, y]");
            Point p;
            for (std::size_t c = 0; c < k.items.size(); ++c) {
              if (!k.items[c].is_number()) fail(where, ctx + "a knot must be [x, y]");
              (c == 0 ? p.x : p.y) = k.items[c].number;
            }
            t.knots.push_back(p);
          }
          t.knots_on = true;
        } else {
          fail(where, ctx + "\"knots\" is " + kind_name(v.kind) + ", expected an array or null");
        }
      } else if (key == "out_lte_in" || key == "out_gte_in") {
        bool& flag = key == "out_lte_in" ? t.out_lte_in : t.out_gte_in;
        if (v.is_string()) {
          if (v.text == "true") flag = true;
        } else if (v.is_bool()) {
          if (v.boolean) flag = true;
        } else {
          fail(where, ctx + "\"" + key + "\" is " + kind_name(v.kind) + ", expected \"true\" or \"false\"");
        }
      }
    }
  }

  void apply_overloads(ModelData& d) const {
    for (const ModelFeatureOverload& o : opts_.feature_overloads) {
      const std::string value = normalize_numeric(o.value);
      auto apply = [&](SubModel& m) {
        for (std::size_t i = 0; i < m.feature_names.size(); ++i)
          if (m.feature_extractors[i] == o.extractor) m.feature_opts[i][o.option] = value;
      };
      apply(d.main);
      for (SubModel& m : d.boot) apply(m);
    }
  }

  static void collect_features(ModelData& d) {
    auto add = [&](SubModel& m) {
      m.value_index.clear();
      for (std::size_t i = 0; i < m.feature_names.size(); ++i) {
        ModelFeature f{m.feature_names[i], m.feature_opts[i], m.feature_extractors[i]};
        std::size_t k = 0;
        while (k < d.features.size() && !(d.features[k] == f)) ++k;
        if (k == d.features.size()) d.features.push_back(std::move(f));
        m.value_index.push_back(k);
      }
    };
    for (SubModel& m : d.boot) add(m);
    add(d.main);
  }

  std::string_view source_;
  const ModelOptions& opts_;
};

// ---- prediction: the steps of libvmaf's predict.c, in its operation order ----

// Feature values -> normalised svm input -> svm -> denormalised score.
double predict_raw(const SubModel& m, std::span<const double> values, std::vector<double>& x) {
  const std::size_t n = m.feature_names.size();
  x.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    double v = values[m.value_index[i]];
    if (m.norm == Norm::LinearRescale) v = m.feature_slope[i] * v + m.feature_intercept[i];
    x[i] = v;
  }
  if (m.chroma) {
    // Chroma from luma: when the (denormalised) speed_chroma value is exactly 0,
    // replace it by param - param * adm3.
    const std::size_t g = m.chroma_guiding, h = m.chroma_guided;
    double guiding = x[g], guided = x[h];
    if (m.norm == Norm::LinearRescale) {
      guiding = (guiding - m.feature_intercept[g]) / m.feature_slope[g];
      guided = (guided - m.feature_intercept[h]) / m.feature_slope[h];
    }
    if (guided == 0.0) {
      double corrected = (-m.chroma_param * guiding) + m.chroma_param;
      if (m.norm == Norm::LinearRescale) corrected = m.feature_slope[h] * corrected + m.feature_intercept[h];
      x[h] = corrected;
    }
  }
  double p = m.svm.predict(x);
  if (m.norm == Norm::LinearRescale) p = (p - m.intercept) / m.slope;
  return p;
}

double piecewise_linear(double x, const std::vector<Point>& k, double unchanged) {
  if (k.size() <= 1) return unchanged;
  const std::size_t segments = k.size() - 1;
  double y = 0.0;
  double slope = 0.0, offset = 0.0;
  for (std::size_t i = 0; i < segments; ++i) {
    const Point a = k[i], b = k[i + 1];
    if (!(a.x < b.x && a.y <= b.y)) return y;  // libvmaf stops here, keeping y so far
    const bool in0 = a.x <= x;
    const bool in1 = x <= b.x;
    if (a.y == b.y) {
      if (in0 && in1) y = a.y;
      if (i == 0 && x < a.x) y = a.y;
      if (i == segments - 1 && x > b.x) y = a.y;
    } else {
      if (a.x == 0) {
        offset = a.y;
        slope = (b.y - offset) / b.x;
      } else {
        slope = (b.y - a.y) / (b.x - a.x);
        offset = a.y - (a.x * slope);
      }
      if (in0 && in1) y = slope * x + offset;
      if (i == 0 && x < a.x) y = slope * x + offset;
      if (i == segments - 1 && x > b.x) y = slope * x + offset;
    }
  }
  return y;
}

double apply_transform(const ScoreTransform& t, double y_in) {
  if (!t.enabled) return y_in;
  double stage = y_in, out;
  if (t.p0_on || t.p1_on || t.p2_on) {
    out = 0.;
    if (t.p0_on) out += t.p0;
    if (t.p1_on) out += t.p1 * stage;
    if (t.p2_on) out += t.p2 * stage * stage;
  } else {
    out = stage;
  }
  stage = out;
  if (t.knots_on) out = piecewise_linear(stage, t.knots, out);
  if (t.out_lte_in) out = (out > y_in) ? y_in : out;
  if (t.out_gte_in) out = (out < y_in) ? y_in : out;
  return out;
}

double apply_clip(const SubModel& m, double y) {
  if (!m.clip) return y;
  y = (y < m.clip_min) ? m.clip_min : y;
  y = (y > m.clip_max) ? m.clip_max : y;
  return y;
}

double finish(const SubModel& m, double raw) { return apply_clip(m, apply_transform(m.transform, raw)); }

double percentile(const std::vector<double>& sorted, double perc) {
  const unsigned n = static_cast<unsigned>(sorted.size());
  const double p = perc * (n - 1) / 100.;
  const int lo = static_cast<int>(std::floor(p));
  const int hi = static_cast<int>(std::ceil(p));
  return (lo == hi) ? sorted[lo] : sorted[lo] * (hi - p) + sorted[hi] * (p - lo);
}

}  // namespace
}  // namespace model_detail

using namespace model_detail;

Model::Model(std::shared_ptr<const ModelData> d) : d_(std::move(d)) {}

Model Model::from_json(std::string_view json_text, std::string_view source_for_errors, const ModelOptions& opts) {
  return Model(Loader(source_for_errors, opts).load(json_text));
}

std::vector<std::string> Model::builtin_versions() {
  std::vector<std::string> v;
  for (std::size_t i = 0; i < kBuiltinModels_count; ++i) {
    std::string_view n = kBuiltinModels[i].name;
    if (n.size() > 5 && n.substr(n.size() - 5) == ".json") v.emplace_back(n.substr(0, n.size() - 5));
  }
  std::sort(v.begin(), v.end());
  return v;
}

Model Model::builtin(std::string_view version, const ModelOptions& opts) {
  for (std::size_t i = 0; i < kBuiltinModels_count; ++i) {
    std::string_view n = kBuiltinModels[i].name;
    if (n.size() == version.size() + 5 && n.substr(0, version.size()) == version &&
        n.substr(version.size()) == ".json") {
      return from_json(kBuiltinModels[i].view(), version, opts);
    }
  }
  std::string list;
  for (const std::string& v : builtin_versions()) list += (list.empty() ? "" : ", ") + v;
  throw model_error("no built-in model \"" + std::string(version) + "\"; valid versions: " + list);
}

Model Model::from_file(const std::string& path, const ModelOptions& opts) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw model_error(path + ": cannot open model file: it is a directory");
  // stdio, not an istream: a stream iterator ends quietly at a read error
  // (which then read as a truncated model), and nothing bounded the read.
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw model_error(path + ": cannot open model file: " + std::strerror(errno));
  constexpr std::size_t kMaxModelBytes = std::size_t(64) << 20;  // the largest built-in model is 0.4 MB
  std::string text;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && text.size() <= kMaxModelBytes) text.append(buf, n);
  const int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err) throw model_error(path + ": cannot read model file: " + std::strerror(err));
  if (text.size() > kMaxModelBytes) throw model_error(path + ": cannot read model file: larger than 64 MiB");
  try {
    return from_json(text, path, opts);
  } catch (const Error& e) {
    const bool pkl = path.size() >= 4 && path.compare(path.size() - 4, 4, ".pkl") == 0;
    if (pkl) throw model_error(std::string(e.what()) + " (pkl model files are not supported, use json)");
    throw;
  }
}

const std::string& Model::name() const { return d_->name; }
const std::vector<ModelFeature>& Model::features() const { return d_->features; }
bool Model::is_bootstrap() const { return d_->bootstrap; }

std::vector<std::pair<std::string, double>> Model::predict(std::span<const double> values) const {
  const ModelData& d = *d_;
  if (values.size() != d.features.size()) {
    throw model_error("model " + d.name + ": predict() got " + std::to_string(values.size()) +
                      " feature values, expected " + std::to_string(d.features.size()));
  }
  std::vector<double> x;
  std::vector<std::pair<std::string, double>> out;
  out.emplace_back(d.name, finish(d.main, predict_raw(d.main, values, x)));
  if (!d.bootstrap) return out;

  // Bootstrap: each sub-model's score as written (transformed and clipped),
  // and the raw scores the statistics are computed on.
  const std::size_t cnt = d.boot.size();
  std::vector<double> raw(cnt);
  for (std::size_t i = 0; i < cnt; ++i) {
    raw[i] = predict_raw(d.boot[i], values, x);
    out.emplace_back(d.boot[i].name, finish(d.boot[i], raw[i]));
  }
  double sum = 0.;
  for (std::size_t i = 0; i < cnt; ++i) sum += raw[i];
  const double mean = sum / cnt;
  double bagging = mean;
  const double delta = 0.01;
  double plus_delta = mean + delta;
  double minus_delta = mean - delta;
  double ssd = 0.;
  for (std::size_t i = 0; i < cnt; ++i) {
    const double dv = raw[i] - mean;
    ssd += dv * dv;
  }
  double stddev = std::sqrt(ssd / cnt);
  std::vector<double> sorted = raw;
  std::sort(sorted.begin(), sorted.end());
  double lo = percentile(sorted, 2.5);
  double hi = percentile(sorted, 97.5);

  // Transform and clip use the first sub-model ("1").
  const SubModel& first = d.boot[0];
  bagging = finish(first, bagging);
  lo = finish(first, lo);
  hi = finish(first, hi);
  plus_delta = finish(first, plus_delta);
  minus_delta = finish(first, minus_delta);
  const double slope = (plus_delta - minus_delta) / (2.0 * delta);
  stddev *= slope;

  out.emplace_back(d.name + "_bagging", bagging);
  out.emplace_back(d.name + "_stddev", stddev);
  out.emplace_back(d.name + "_ci_p95_lo", lo);
  out.emplace_back(d.name + "_ci_p95_hi", hi);
  return out;
}

}  // namespace vmafx
