// SPDX-License-Identifier: BSD-3-Clause
#include "vmaf_exact/session.hpp"

#include <algorithm>
#include <optional>
#include <thread>

#include "backend/backends.hpp"
#include "core/env.hpp"
#include "core/engine.hpp"
#include "core/libvmaf_cpu.hpp"
#include "core/options.hpp"
#include "model/model.hpp"
#include "output/report.hpp"

namespace vmafx {

namespace {

struct ParsedModel {
  std::optional<std::string> version, path;
  ModelOptions opts;
};

// "version=vmaf_v0.6.1:name=foo:disable_clip:adm.adm_enhn_gain_limit=1.0"
ParsedModel parse_model_arg(const std::string& arg) {
  // A library caller's string may hold a NUL, which would cut every message
  // (and a path) short at it.
  if (arg.find('\0') != std::string::npos) throw Error("model string: holds a NUL character");
  ParsedModel m;
  std::size_t pos = 0;
  while (pos <= arg.size()) {
    std::size_t end = arg.find(':', pos);
    if (end == std::string::npos) end = arg.size();
    std::string item = arg.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) {
      if (end == arg.size()) break;
      throw Error("model '" + arg + "': empty item");
    }
    std::size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    std::string val = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq == std::string::npos) {
      if (key == "disable_clip" || key == "enable_transform")
        val = "true";
      else
        throw Error("model '" + arg + "': bad option string '" + key + "' (expected key=value)");
    }
    if (key == "version") {
      m.version = val;
    } else if (key == "path") {
      m.path = val;
    } else if (key == "name") {
      if (val.empty()) throw Error("model '" + arg + "': empty name");
      // The name is a JSON key, an XML attribute name, a CSV column and a
      // subtitle field: only characters that keep every format valid.
      const auto name_char = [](char c, bool first) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
               (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
      };
      for (std::size_t i = 0; i < val.size(); ++i)
        if (!name_char(val[i], i == 0))
          throw Error("model '" + arg + "': name '" + val +
                      "' must start with a letter or '_' and hold only letters, digits, '_', '-' and '.'");
      m.opts.name = val;
    } else if (key == "disable_clip" || key == "enable_transform") {
      if (val != "true" && val != "false") throw Error("model '" + arg + "': " + key + " must be true or false");
      (key == "disable_clip" ? m.opts.disable_clip : m.opts.enable_transform) = val == "true";
    } else if (std::size_t dot = key.find('.'); dot != std::string::npos && dot > 0 && dot + 1 < key.size()) {
      m.opts.feature_overloads.push_back({key.substr(0, dot), key.substr(dot + 1), val});
    } else {
      throw Error("model '" + arg + "': unknown key '" + key +
                  "' (expected version, path, name, disable_clip, enable_transform or extractor.option)");
    }
    if (end == arg.size()) break;
  }
  if (m.version && m.path) throw Error("model '" + arg + "': give either version= or path=, not both");
  if (!m.version && !m.path) throw Error("model '" + arg + "': needs version= or path=");
  return m;
}

FeatureRequest parse_feature_arg(const std::string& arg) {
  if (arg.find('\0') != std::string::npos) throw Error("feature string: holds a NUL character");
  FeatureRequest r;
  std::size_t eq = arg.find('=');
  r.extractor = arg.substr(0, eq);
  if (r.extractor.empty()) throw Error("feature '" + arg + "': empty feature name");
  if (eq != std::string::npos) r.opts = parse_option_string(std::string_view(arg).substr(eq + 1), r.extractor);
  return r;
}

}  // namespace

struct Session::Impl {
  SessionConfig cfg;
  std::unique_ptr<Backend> backend;
  std::vector<Model> models;
  std::unique_ptr<Engine> engine;
  std::vector<std::vector<std::string>> model_inputs;  // per model: collector names of its features
  std::vector<std::string> notices;
  bool finished = false;

  void predict();
};

Session::Session(const PictureFormat& fmt, const SessionConfig& cfg) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  env::check();
  s.cfg = cfg;
  if (s.cfg.subsample == 0) throw Error("subsample 0: expected 1 or more");
  // Each worker holds up to two pictures in flight: keep that bounded.
  if (s.cfg.threads > 256) throw Error("threads " + std::to_string(s.cfg.threads) + ": at most 256");
  const std::string libvmaf_cpu(libvmaf_cpu_name(parse_libvmaf_cpu(cfg.libvmaf_cpu, "libvmaf_cpu")));

  // Device backend: a named one, or for auto the first that starts (the CPU
  // otherwise, and the CPU for extractors without a twin).
  if (cfg.backend == "auto") {
    for (const std::string& name : available_backends()) {
      try {
        auto b = create_backend(name, cfg.gpu);
        if (!b->is_gpu()) {
          s.notices.push_back(name + ": " + b->device_name() + " is the CPU itself; not used by --backend auto");
          continue;
        }
        s.backend = std::move(b);
        break;
      } catch (const Error& e) {
        s.notices.push_back(std::string(e.what()) + "; trying the next backend");
      }
    }
    if (!s.backend) s.notices.push_back("no GPU backend available, using the CPU");
  } else if (cfg.backend != "cpu") {
    s.backend = create_backend(cfg.backend, cfg.gpu);
  }

  // Models, then features, registered in libvmaf's order.
  if (!cfg.no_prediction) {
    std::vector<std::string> args = cfg.models;
    if (args.empty()) args.push_back("version=vmaf_v0.6.1");
    for (const std::string& a : args) {
      ParsedModel pm = parse_model_arg(a);
      s.models.push_back(pm.version ? Model::builtin(*pm.version, pm.opts) : Model::from_file(*pm.path, pm.opts));
    }
    for (std::size_t i = 0; i < s.models.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (s.models[i].name() == s.models[j].name())
          throw Error("two models are named '" + s.models[i].name() + "'; give one another name (name=...)");
  }
  EngineOptions eopts;
  eopts.threads = cfg.threads;
  eopts.subsample = cfg.subsample;
  eopts.backend = s.backend.get();
  eopts.cpu_fallback = cfg.backend == "auto";
  eopts.libvmaf_cpu = libvmaf_cpu;
  s.engine = std::make_unique<Engine>(fmt, eopts);
  s.model_inputs.resize(s.models.size());
  for (std::size_t m = 0; m < s.models.size(); ++m)
    for (const ModelFeature& f : s.models[m].features())
      s.model_inputs[m].push_back(s.engine->use_feature(f.name, f.opts));
  for (const std::string& a : cfg.features) s.engine->use(parse_feature_arg(a));
  if (cfg.threads == 0) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    unsigned t = cores;
    if (s.backend && s.engine->cpu_instances() == 0) t = std::min(cores, s.backend->preferred_lanes(fmt));
    s.engine->set_threads(t);
  }
}

bool stats_requested() { return env::stats(); }

Session::~Session() = default;

std::shared_ptr<Picture> Session::acquire() { return impl_->engine->acquire(); }

void Session::push(std::shared_ptr<Picture> ref, std::shared_ptr<Picture> dis) {
  impl_->engine->push(std::move(ref), std::move(dis));
}

void Session::reserve_read_ahead(unsigned pictures) { impl_->engine->reserve_read_ahead(pictures); }
void Session::abort(const std::string& why) { impl_->engine->abort(why); }
unsigned Session::threads() const { return impl_->engine->threads(); }
std::string Session::timing_report() const { return impl_->engine->timing_report(); }

void Session::finish() {
  if (impl_->finished) return;
  impl_->engine->finish();
  impl_->predict();
  impl_->finished = true;
}

// As libvmaf's CLI: each model's own score for every (non-skipped) frame,
// model after model; then the bootstrap statistics of each collection.
void Session::Impl::predict() {
  FeatureCollector& fc = engine->collector();
  const unsigned n = engine->frames();
  const unsigned sub = cfg.subsample;
  std::vector<std::vector<std::pair<std::string, double>>> extra(models.size());
  std::vector<double> values;
  for (std::size_t m = 0; m < models.size(); ++m) {
    for (unsigned i = 0; i < n; ++i) {
      if (sub > 1 && i % sub) continue;
      values.clear();
      for (const std::string& name : model_inputs[m]) {
        const FeatureCollector::Series* ser = fc.find(name);
        if (!ser || !ser->has(i))
          throw Error("model " + models[m].name() + ": feature " + name + " missing at frame " + std::to_string(i));
        values.push_back(ser->value[i]);
      }
      auto scores = models[m].predict(values);
      fc.append(scores[0].first, i, scores[0].second);
      for (std::size_t k = 1; k < scores.size(); ++k) extra[m].push_back(scores[k]);
    }
  }
  const unsigned scored = (n + sub - 1) / sub;
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (!models[m].is_bootstrap() || scored == 0) continue;
    const std::size_t per_frame = extra[m].size() / scored;
    std::size_t k = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (sub > 1 && i % sub) continue;
      for (std::size_t j = 0; j < per_frame; ++j, ++k) fc.append(extra[m][k].first, i, extra[m][k].second);
    }
  }
}

const FeatureCollector& Session::scores() const { return impl_->engine->collector(); }
unsigned Session::frames() const { return impl_->engine->frames(); }
const SessionConfig& Session::config() const { return impl_->cfg; }
const std::vector<std::string>& Session::notices() const { return impl_->notices; }

RangeContext Session::range_context() const {
  const RangeReach r = impl_->engine->range_reach();
  return {r.before, r.after, impl_->cfg.subsample, r.unsplittable};
}

std::vector<ModelSummary> Session::summaries() const {
  std::vector<ModelSummary> out;
  const FeatureCollector& fc = scores();
  const unsigned n = frames(), sub = impl_->cfg.subsample;
  auto mean_of = [&](const std::string& name) -> std::optional<double> {
    const FeatureCollector::Series* s = fc.find(name);
    return s ? pool(*s, PoolMethod::kMean, n, sub) : std::nullopt;
  };
  for (const Model& m : impl_->models) {
    auto mean = mean_of(m.name());
    if (!mean) continue;
    ModelSummary r{m.name(), m.is_bootstrap(), *mean};
    if (m.is_bootstrap()) {
      r.mean = mean_of(m.name() + "_bagging").value_or(0.0);
      r.ci_lo = mean_of(m.name() + "_ci_p95_lo").value_or(0.0);
      r.ci_hi = mean_of(m.name() + "_ci_p95_hi").value_or(0.0);
      r.stddev = mean_of(m.name() + "_stddev").value_or(0.0);
    }
    out.push_back(r);
  }
  return out;
}

DeviceImporter* Session::device_importer() const {
  if (!impl_->backend || !impl_->engine->cpu_fallbacks().empty()) return nullptr;
  return impl_->backend->device_importer();
}

std::string Session::backend_description() const {
  if (!impl_->backend) return "";
  std::string s = std::string(impl_->backend->name()) + " backend on " + impl_->backend->device_name();
  const auto& fb = impl_->engine->cpu_fallbacks();
  if (!fb.empty()) {
    s += "; on the CPU:";
    for (const std::string& f : fb) s += " " + f;
  }
  return s;
}

}  // namespace vmafx
