// SPDX-License-Identifier: BSD-3-Clause
// libvmaf 3.2.0's C API (libvmaf.h, model.h) on vmaf-exact's engine.
//
// A context collects registrations (models, extractors) until the first
// picture gives the format; then it builds one Engine, registers them in the
// same order, and hands every picture pair to it (copied into the engine's
// pictures; the caller's pictures are released at once). The flush finishes
// the engine and runs the mounted models exactly as vmaf-exact's Session does
// for the CLI, so every score and every report equals the CLI's. No exception
// leaves this file: each entry point maps errors to negative errno values.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "backend/backends.hpp"
#include "capi/capi.hpp"
#include "core/clock.hpp"
#include "core/env.hpp"
#include "core/feature.hpp"
#include "core/libvmaf_cpu.hpp"
#include "core/options.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/report.hpp"
#include "vmaf_exact/version.hpp"

using vmafx::capi::log;

namespace {

// Runs f, mapping exceptions to errno values (and logging them).
template <class F>
int guarded(const char* what, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    log(VMAF_LOG_LEVEL_ERROR, "%s: out of memory", what);
    return -ENOMEM;
  } catch (const std::exception& e) {
    log(VMAF_LOG_LEVEL_ERROR, "%s: %s", what, e.what());
    return -EINVAL;
  } catch (...) {
    log(VMAF_LOG_LEVEL_ERROR, "%s: failed", what);
    return -EINVAL;
  }
}

void build_model(VmafModel& m) {
  m.model.emplace(m.from_path ? vmafx::Model::from_file(m.source, m.opts) : vmafx::Model::builtin(m.source, m.opts));
}

int load_model(VmafModel** out, const VmafModelConfig* cfg, const char* src, bool path, bool collection) {
  if (!out || !cfg || !src) return -EINVAL;
  auto m = std::make_unique<VmafModel>();
  m->from_path = path;
  m->source = src;
  m->opts.name = cfg->name ? cfg->name : "vmaf";
  m->opts.disable_clip = cfg->flags & VMAF_MODEL_FLAG_DISABLE_CLIP;
  m->opts.enable_transform = cfg->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
  if (m->opts.name.empty()) return -EINVAL;
  build_model(*m);
  if (m->model->is_bootstrap() != collection) {
    log(VMAF_LOG_LEVEL_ERROR, "%s \"%s\" is %s", path ? "model path" : "model version", src,
        collection ? "not a bootstrap model collection" : "a bootstrap model collection (load it as one)");
    return -EINVAL;
  }
  m->collection_main = collection;
  *out = m.release();
  return 0;
}

// The collector name of a model feature, as Engine::use_feature names it.
std::string output_name(const vmafx::ModelFeature& f) {
  const vmafx::ExtractorDescriptor* d = vmafx::find_extractor_by_feature(f.name);
  if (!d) throw vmafx::Error("no feature extractor provides '" + f.name + "'");
  vmafx::OptionSet set(d->options, f.opts, d->name);
  return std::string(vmafx::feature_alias(f.name)) + set.name_suffix();
}

bool started(const VmafContext* v) { return v->engine != nullptr || v->flushed; }

// The collector, when it may be read from the calling thread: after the
// flush, or while frames are scored on it (n_threads = 0).
const vmafx::FeatureCollector* readable(const VmafContext* v) {
  if (!v->engine) return v->flushed ? &v->empty_collector : nullptr;
  if (v->flushed || v->cfg.n_threads == 0) return &v->engine->collector();
  return nullptr;
}
vmafx::FeatureCollector* writable(VmafContext* v) {
  if (!v->flushed) return nullptr;
  return v->engine ? &v->engine->collector() : &v->empty_collector;
}

int get_score(const VmafContext* v, const std::string& name, unsigned index, double* out) {
  if (!v->flushed)
    for (const auto& im : v->imported)
      if (im.name == name && im.index == index) return *out = im.value, 0;
  const vmafx::FeatureCollector* fc = readable(v);
  if (!fc) return -EINVAL;
  const vmafx::FeatureCollector::Series* s = fc->find(name);
  if (!s || !s->has(index)) return -EINVAL;
  *out = s->value[index];
  return 0;
}

// The model's scores at `index` from the collected features; nullopt when a
// feature is missing there.
std::optional<std::vector<std::pair<std::string, double>>> predict_at(const VmafContext* v, const vmafx::Model& m,
                                                                      const std::vector<std::string>& inputs,
                                                                      unsigned index) {
  std::vector<double> values;
  for (const std::string& n : inputs) {
    double x;
    if (get_score(v, n, index, &x)) return std::nullopt;
    values.push_back(x);
  }
  return m.predict(values);
}

std::vector<std::string> inputs_of(const vmafx::Model& m) {
  std::vector<std::string> in;
  for (const vmafx::ModelFeature& f : m.features()) in.push_back(output_name(f));
  return in;
}

// Writes the model's score (main) or bootstrap statistics (extras) of frame
// `index` unless present. Needs the flush (the collector is the caller's).
int score_into(VmafContext* v, const vmafx::Model& m, const std::vector<std::string>& inputs, bool main, bool extras,
               unsigned index) {
  vmafx::FeatureCollector* fc = writable(v);
  if (!fc) {
    log(VMAF_LOG_LEVEL_ERROR, "model scores are available after the flush (vmaf_read_pictures(vmaf, NULL, NULL, 0))");
    return -EINVAL;
  }
  auto scores = predict_at(v, m, inputs, index);
  if (!scores) return -EINVAL;
  auto has = [&](const std::string& n) {
    const auto* s = fc->find(n);
    return s && s->has(index);
  };
  if (main && !has((*scores)[0].first)) fc->append((*scores)[0].first, index, (*scores)[0].second);
  if (extras)
    for (std::size_t k = 1; k < scores->size(); ++k)
      if (!has((*scores)[k].first)) fc->append((*scores)[k].first, index, (*scores)[k].second);
  return 0;
}

// libvmaf's pooling loop over [lo, hi] (every n_subsample-th picture).
int pool_range(const VmafContext* v, const std::string& name, VmafPoolingMethod method, double* out, unsigned lo,
               unsigned hi) {
  if (vmafx::capi::raw(method) <= VMAF_POOL_METHOD_UNKNOWN || vmafx::capi::raw(method) >= VMAF_POOL_METHOD_NB)
    return -EINVAL;
  if (lo > hi) return -EINVAL;
  const unsigned sub = v->cfg.n_subsample;
  unsigned n = 0;
  double mn = 0, mx = 0, sum = 0, inv = 0;
  for (unsigned i = lo;; ++i) {
    if (!(sub > 1 && i % sub)) {
      double s;
      if (int err = get_score(v, name, i, &s)) return err;
      ++n;
      sum += s;
      inv += 1.0 / (s + 1.0);
      if (i == lo || s < mn) mn = s;
      if (i == lo || s > mx) mx = s;
    }
    if (i == hi) break;
  }
  if (n == 0) return -EINVAL;
  switch (method) {
    case VMAF_POOL_METHOD_MIN: *out = mn; break;
    case VMAF_POOL_METHOD_MAX: *out = mx; break;
    case VMAF_POOL_METHOD_MEAN: *out = sum / n; break;
    case VMAF_POOL_METHOD_HARMONIC_MEAN: *out = n / inv - 1.0; break;
    default: return -EINVAL;
  }
  return 0;
}

vmafx::ChromaFormat chroma_of(VmafPixelFormat f) {
  switch (f) {
    case VMAF_PIX_FMT_YUV422P: return vmafx::ChromaFormat::k422;
    case VMAF_PIX_FMT_YUV444P: return vmafx::ChromaFormat::k444;
    case VMAF_PIX_FMT_YUV400P: return vmafx::ChromaFormat::k400;
    default: return vmafx::ChromaFormat::k420;
  }
}

void build_engine(VmafContext* v) {
  vmafx::EngineOptions eo;
  eo.threads = v->cfg.n_threads;
  eo.subsample = v->cfg.n_subsample ? v->cfg.n_subsample : 1;
  eo.libvmaf_cpu = vmafx::libvmaf_cpu_name(vmafx::parse_libvmaf_cpu(vmafx::env::libvmaf_cpu(), "VMAFX_LIBVMAF_CPU"));
  if (v->use_cuda && !v->cfg.gpumask) {
    v->backend = vmafx::create_backend("cuda", v->cuda_device);
    eo.backend = v->backend.get();
    eo.cpu_fallback = true;
  }
  auto e = std::make_unique<vmafx::Engine>(v->fmt, eo);
  for (const VmafContext::Use& u : v->uses) {
    if (u.by_feature)
      e->use_feature(u.name, u.opts);
    else
      e->use(vmafx::FeatureRequest{u.name, u.opts});
  }
  v->engine = std::move(e);
  v->start_ns = vmafx::now_ns();
}

void register_model(VmafContext* v, const VmafModel& m, bool main, bool extras) {
  if (started(v)) throw vmafx::Error("models must be registered before the first picture");
  // Validate the features now (an unknown one fails here, not later).
  VmafMounted mt{*m.model, m.model->name(), main, extras, inputs_of(*m.model)};
  for (const vmafx::ModelFeature& f : m.model->features()) v->uses.push_back({true, f.name, f.opts});
  v->mounted.push_back(std::move(mt));
}

// Copies one caller picture into an engine picture (odd sizes: the engine's
// chroma planes round up; the last column / row is repeated there).
void copy_in(const VmafPicture& src, vmafx::Picture& dst) {
  const unsigned bps = src.bpc > 8 ? 2 : 1;
  for (int p = 0; p < dst.format().plane_count(); ++p) {
    const int dw = dst.format().plane_width(p), dh = dst.format().plane_height(p);
    const unsigned sw = std::min<unsigned>(src.w[p], dw), sh = std::min<unsigned>(src.h[p], dh);
    for (int y = 0; y < dh; ++y) {
      const auto* s =
          static_cast<const std::uint8_t*>(src.data[p]) + std::ptrdiff_t(std::min<unsigned>(y, sh - 1)) * src.stride[p];
      std::uint8_t* d = dst.plane_data(p) + std::ptrdiff_t(y) * dst.stride(p);
      std::memcpy(d, s, std::size_t(sw) * bps);
      for (int x = sw; x < dw; ++x) std::memcpy(d + x * bps, s + (sw - 1) * bps, bps);
    }
  }
}

bool picture_ok(const VmafPicture* p) {
  if (!p || !p->ref || !p->priv || !p->data[0]) return false;
  const int pix = vmafx::capi::raw(p->pix_fmt);
  if (pix < VMAF_PIX_FMT_YUV420P || pix > VMAF_PIX_FMT_YUV400P || p->bpc < 8 || p->bpc > 16) return false;
  VmafPicture g;
  std::size_t bytes;
  if (!vmafx::capi::picture_geometry(g, p->pix_fmt, p->bpc, p->w[0], p->h[0], bytes)) return false;
  const int planes = p->pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
  const std::ptrdiff_t bps = p->bpc > 8 ? 2 : 1;
  for (int i = 0; i < planes; ++i)
    if (!p->data[i] || p->w[i] < g.w[i] || p->h[i] < g.h[i] || p->stride[i] < std::ptrdiff_t(g.w[i]) * bps)
      return false;
  // libvmaf's chroma geometry rounds down: a 4:2:0 or 4:2:2 picture one
  // sample wide (4:2:0: or tall) has empty chroma planes, nothing to fill the
  // engine's (rounded up) chroma with.
  for (int i = 1; i < planes; ++i)
    if (g.w[i] == 0 || g.h[i] == 0) return false;
  return true;
}

}  // namespace

namespace vmafx::capi {
// Device pictures (CUDA builds): copies `src` into `dst` (cuda.cpp).
// With `importer` (every extractor on the CUDA backend, pictures of the
// engine's exact plane sizes) the planes stay on the device.
int copy_device_picture(const VmafPicture& src, vmafx::Picture& dst, vmafx::DeviceImporter* importer);
}  // namespace vmafx::capi

extern "C" {

int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg) {
  if (!vmaf) return -EINVAL;
  const int level = vmafx::capi::raw(cfg.log_level);
  if (level < VMAF_LOG_LEVEL_NONE || level > VMAF_LOG_LEVEL_DEBUG) return -EINVAL;
  if (cfg.n_threads > 256) return -EINVAL;
  return guarded("vmaf_init", [&] {
    vmafx::capi::set_log_level(cfg.log_level);
    // cpumask: accepted, as by the CLI (SIMD never changes a score here).
    auto* v = new VmafContext;
    v->cfg = cfg;
    *vmaf = v;
    return 0;
  });
}

int vmaf_close(VmafContext* vmaf) {
  if (!vmaf) return -EINVAL;
  return guarded("vmaf_close", [&] {
    if (vmaf->engine && !vmaf->flushed) vmaf->engine->abort("closed");
    delete vmaf;
    return 0;
  });
}

int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version) {
  return guarded("vmaf_model_load", [&] { return load_model(model, cfg, version, false, false); });
}

int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg, const char* path) {
  return guarded("vmaf_model_load_from_path", [&] { return load_model(model, cfg, path, true, false); });
}

void vmaf_model_destroy(VmafModel* model) { delete model; }

int vmaf_model_feature_overload(VmafModel* model, const char* feature_name, VmafFeatureDictionary* opts_dict) {
  std::unique_ptr<VmafFeatureDictionary> d(opts_dict);
  if (!model || !feature_name || !opts_dict) return -EINVAL;
  return guarded("vmaf_model_feature_overload", [&] {
    VmafModel next = *model;
    for (const auto& [k, val] : d->entries) next.opts.feature_overloads.push_back({feature_name, k, val});
    build_model(next);
    *model = std::move(next);
    return 0;
  });
}

int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** model_collection, VmafModelConfig* cfg,
                               const char* version) {
  if (!model || !model_collection) return -EINVAL;
  return guarded("vmaf_model_collection_load", [&] {
    VmafModel* m = nullptr;
    if (int err = load_model(&m, cfg, version, false, true)) return err;
    *model_collection = new VmafModelCollection{*m};
    *model = m;
    return 0;
  });
}

int vmaf_model_collection_load_from_path(VmafModel** model, VmafModelCollection** model_collection,
                                         VmafModelConfig* cfg, const char* path) {
  if (!model || !model_collection) return -EINVAL;
  return guarded("vmaf_model_collection_load_from_path", [&] {
    VmafModel* m = nullptr;
    if (int err = load_model(&m, cfg, path, true, true)) return err;
    *model_collection = new VmafModelCollection{*m};
    *model = m;
    return 0;
  });
}

int vmaf_model_collection_feature_overload(VmafModel* model, VmafModelCollection** model_collection,
                                           const char* feature_name, VmafFeatureDictionary* opts_dict) {
  std::unique_ptr<VmafFeatureDictionary> d(opts_dict);
  if (!model || !model_collection || !*model_collection || !feature_name || !opts_dict) return -EINVAL;
  return guarded("vmaf_model_collection_feature_overload", [&] {
    VmafModel a = *model, b = (*model_collection)->m;
    for (const auto& [k, val] : d->entries) {
      a.opts.feature_overloads.push_back({feature_name, k, val});
      b.opts.feature_overloads.push_back({feature_name, k, val});
    }
    build_model(a);
    build_model(b);
    *model = std::move(a);
    (*model_collection)->m = std::move(b);
    return 0;
  });
}

void vmaf_model_collection_destroy(VmafModelCollection* model_collection) { delete model_collection; }

int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model) {
  if (!vmaf || !model || !model->model) return -EINVAL;
  return guarded("vmaf_use_features_from_model", [&] {
    register_model(vmaf, *model, true, false);
    return 0;
  });
}

int vmaf_use_features_from_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection) {
  if (!vmaf || !model_collection || !model_collection->m.model) return -EINVAL;
  return guarded("vmaf_use_features_from_model_collection", [&] {
    register_model(vmaf, model_collection->m, false, true);
    return 0;
  });
}

int vmaf_use_feature(VmafContext* vmaf, const char* feature_name, VmafFeatureDictionary* opts_dict) {
  if (!vmaf || !feature_name) return -EINVAL;
  return guarded("vmaf_use_feature", [&] {
    if (started(vmaf)) {
      log(VMAF_LOG_LEVEL_ERROR, "vmaf_use_feature: features must be registered before the first picture");
      return -EINVAL;
    }
    const vmafx::ExtractorDescriptor* d = vmafx::find_extractor(feature_name);
    if (!d) {
      log(VMAF_LOG_LEVEL_ERROR, "no such feature extractor: \"%s\"", feature_name);
      return -EINVAL;
    }
    std::map<std::string, std::string> opts;
    if (opts_dict) opts = opts_dict->entries;
    vmafx::OptionSet check(d->options, opts, d->name);  // throws on a bad option
    vmaf->uses.push_back({false, feature_name, std::move(opts)});
    delete opts_dict;
    return 0;
  });
}

int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value, unsigned index) {
  if (!vmaf || !feature_name || !*feature_name) return -EINVAL;
  // Scores are stored frame by frame: index 2^32 - 1 wrapped the collector's
  // size to 0 (found by fuzz_capi); a huge one would allocate gigabytes.
  constexpr unsigned kMaxImportIndex = (1u << 24) - 1;
  if (index > kMaxImportIndex && index >= vmaf->pictures) {
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_import_feature_score: index %u is past the pictures read (%u) and %u", index,
        vmaf->pictures, kMaxImportIndex);
    return -EINVAL;
  }
  return guarded("vmaf_import_feature_score", [&] {
    if (vmaf->flushed) {
      vmafx::FeatureCollector* fc = writable(vmaf);
      const auto* s = fc->find(feature_name);
      if (s && s->has(index)) return -EINVAL;
      fc->append(feature_name, index, value);
      return 0;
    }
    if (!vmaf->imported_keys.insert({feature_name, index}).second) return -EINVAL;
    vmaf->imported.push_back({feature_name, index, value});
    return 0;
  });
}

int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index) {
  if (!vmaf || vmaf->flushed || vmaf->failed) return -EINVAL;
  if (!ref != !dist) return -EINVAL;
  if (!ref) {
    return guarded("vmaf_read_pictures (flush)", [&] {
      try {
        if (vmaf->engine) vmaf->engine->finish();
      } catch (...) {
        vmaf->failed = true;
        throw;
      }
      vmaf->end_ns = vmafx::now_ns();
      vmaf->flushed = true;
      vmafx::FeatureCollector* fc = writable(vmaf);
      for (const auto& im : vmaf->imported) {
        const auto* s = fc->find(im.name);
        if (!(s && s->has(im.index))) fc->append(im.name, im.index, im.value);
      }
      vmaf->imported.clear();
      // As the CLI: every mounted model's own score frame by frame, model
      // after model; then the bootstrap statistics.
      const unsigned n = vmaf->pictures, sub = std::max(1u, vmaf->cfg.n_subsample);
      for (int pass = 0; pass < 2; ++pass)
        for (const VmafMounted& m : vmaf->mounted) {
          if (pass == 0 ? !m.main : !m.extras) continue;
          for (unsigned i = 0; i < n; ++i) {
            if (sub > 1 && i % sub) continue;
            if (int err = score_into(vmaf, m.model, m.inputs, pass == 0, pass == 1, i)) {
              log(VMAF_LOG_LEVEL_ERROR, "model %s: a feature is missing at picture %u", m.name.c_str(), i);
              return err;
            }
          }
        }
      return 0;
    });
  }
  if (!picture_ok(ref) || !picture_ok(dist)) {
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_read_pictures: invalid picture");
    return -EINVAL;
  }
  if (ref->w[0] != dist->w[0] || ref->h[0] != dist->h[0] || ref->pix_fmt != dist->pix_fmt || ref->bpc != dist->bpc)
    return -EINVAL;
  if (vmaf->have_format && (ref->w[0] != unsigned(vmaf->fmt.width) || ref->h[0] != unsigned(vmaf->fmt.height) ||
                            ref->pix_fmt != vmaf->pix_fmt || ref->bpc != unsigned(vmaf->fmt.bpc)))
    return -EINVAL;
  if (index != vmaf->pictures) {
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_read_pictures: index %u, expected %u (pictures are numbered 0, 1, 2, ...)", index,
        vmaf->pictures);
    return -EINVAL;
  }
  // From here on the pictures are the context's.
  int err = guarded("vmaf_read_pictures", [&] {
    if (!vmaf->engine) {
      vmaf->fmt = vmafx::PictureFormat{int(ref->w[0]), int(ref->h[0]), int(ref->bpc), chroma_of(ref->pix_fmt)};
      vmaf->pix_fmt = ref->pix_fmt;
      vmaf->have_format = true;
      try {
        build_engine(vmaf);
      } catch (...) {
        vmaf->failed = true;
        throw;
      }
    }
    std::shared_ptr<vmafx::Picture> r, d;
    try {
      r = vmaf->engine->acquire();
      d = vmaf->engine->acquire();
    } catch (...) {
      vmaf->failed = true;  // a worker failed: nothing more can be scored
      throw;
    }
    vmafx::DeviceImporter* importer =
        vmaf->backend && vmaf->engine->cpu_fallbacks().empty() ? vmaf->backend->device_importer() : nullptr;
    for (auto [src, dst] : {std::pair{ref, r.get()}, std::pair{dist, d.get()}}) {
      auto* priv = static_cast<vmafx::capi::PicturePriv*>(src->priv);
      if (priv->buf == vmafx::capi::BufType::kDevice) {
        if (int e = vmafx::capi::copy_device_picture(*src, *dst, importer)) return e;
      } else {
        copy_in(*src, *dst);
      }
    }
    vmaf_picture_unref(ref);
    vmaf_picture_unref(dist);
    vmaf->pictures++;
    try {
      vmaf->engine->push(std::move(r), std::move(d));
    } catch (...) {
      vmaf->failed = true;
      throw;
    }
    return 0;
  });
  if (ref->ref) vmaf_picture_unref(ref);
  if (dist->ref) vmaf_picture_unref(dist);
  return err;
}

int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name, double* score, unsigned index) {
  if (!vmaf || !feature_name || !score) return -EINVAL;
  return guarded("vmaf_feature_score_at_index", [&] { return get_score(vmaf, feature_name, index, score); });
}

int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score, unsigned index) {
  if (!vmaf || !model || !model->model || !score) return -EINVAL;
  return guarded("vmaf_score_at_index", [&] {
    if (get_score(vmaf, model->model->name(), index, score) == 0) return 0;
    if (int err = score_into(vmaf, *model->model, inputs_of(*model->model), true, false, index)) return err;
    return get_score(vmaf, model->model->name(), index, score);
  });
}

int vmaf_score_at_index_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                         VmafModelCollectionScore* score, unsigned index) {
  if (!vmaf || !model_collection || !model_collection->m.model || !score) return -EINVAL;
  return guarded("vmaf_score_at_index_model_collection", [&] {
    const vmafx::Model& m = *model_collection->m.model;
    if (int err = score_into(vmaf, m, inputs_of(m), false, true, index)) return err;
    const std::string& n = m.name();
    VmafModelCollectionScore s{};
    s.type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    int err = get_score(vmaf, n + "_bagging", index, &s.bootstrap.bagging_score);
    err |= get_score(vmaf, n + "_stddev", index, &s.bootstrap.stddev);
    err |= get_score(vmaf, n + "_ci_p95_lo", index, &s.bootstrap.ci.p95.lo);
    err |= get_score(vmaf, n + "_ci_p95_hi", index, &s.bootstrap.ci.p95.hi);
    if (err) return -EINVAL;
    *score = s;
    return 0;
  });
}

int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name, enum VmafPoolingMethod pool_method,
                              double* score, unsigned index_low, unsigned index_high) {
  if (!vmaf || !feature_name || !score) return -EINVAL;
  if (vmafx::capi::raw(pool_method) <= VMAF_POOL_METHOD_UNKNOWN || vmafx::capi::raw(pool_method) >= VMAF_POOL_METHOD_NB)
    return -EINVAL;
  return guarded("vmaf_feature_score_pooled",
                 [&] { return pool_range(vmaf, feature_name, pool_method, score, index_low, index_high); });
}

int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, enum VmafPoolingMethod pool_method, double* score,
                      unsigned index_low, unsigned index_high) {
  if (!vmaf || !model || !model->model || !score || index_low > index_high) return -EINVAL;
  if (vmafx::capi::raw(pool_method) <= VMAF_POOL_METHOD_UNKNOWN || vmafx::capi::raw(pool_method) >= VMAF_POOL_METHOD_NB)
    return -EINVAL;
  return guarded("vmaf_score_pooled", [&] {
    const unsigned sub = vmaf->cfg.n_subsample;
    for (unsigned i = index_low;; ++i) {
      double s;
      if (!(sub > 1 && i % sub))
        if (int err = vmaf_score_at_index(vmaf, model, &s, i)) return err;
      if (i == index_high) break;
    }
    return pool_range(vmaf, model->model->name(), pool_method, score, index_low, index_high);
  });
}

int vmaf_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                       enum VmafPoolingMethod pool_method, VmafModelCollectionScore* score,
                                       unsigned index_low, unsigned index_high) {
  if (!vmaf || !model_collection || !model_collection->m.model || !score || index_low > index_high) return -EINVAL;
  if (vmafx::capi::raw(pool_method) <= VMAF_POOL_METHOD_UNKNOWN || vmafx::capi::raw(pool_method) >= VMAF_POOL_METHOD_NB)
    return -EINVAL;
  return guarded("vmaf_score_pooled_model_collection", [&] {
    const unsigned sub = vmaf->cfg.n_subsample;
    for (unsigned i = index_low;; ++i) {
      VmafModelCollectionScore s;
      if (!(sub > 1 && i % sub))
        if (int err = vmaf_score_at_index_model_collection(vmaf, model_collection, &s, i)) return err;
      if (i == index_high) break;
    }
    const std::string& n = model_collection->m.model->name();
    VmafModelCollectionScore s{};
    s.type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    int err = pool_range(vmaf, n + "_bagging", pool_method, &s.bootstrap.bagging_score, index_low, index_high);
    err |= pool_range(vmaf, n + "_stddev", pool_method, &s.bootstrap.stddev, index_low, index_high);
    err |= pool_range(vmaf, n + "_ci_p95_lo", pool_method, &s.bootstrap.ci.p95.lo, index_low, index_high);
    err |= pool_range(vmaf, n + "_ci_p95_hi", pool_method, &s.bootstrap.ci.p95.hi, index_low, index_high);
    if (err) return -EINVAL;
    *score = s;
    return 0;
  });
}

int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg) {
  if (!vmaf || !cfg.pic_cnt || vmaf->pool) return -EINVAL;
  const int pix = vmafx::capi::raw(cfg.pic_params.pix_fmt);
  if (pix < VMAF_PIX_FMT_YUV420P || pix > VMAF_PIX_FMT_YUV400P) return -EINVAL;
  return guarded("vmaf_preallocate_pictures", [&] {
    VmafPicture shape;
    std::size_t bytes;
    if (!vmafx::capi::picture_geometry(shape, cfg.pic_params.pix_fmt, cfg.pic_params.bpc, cfg.pic_params.w,
                                       cfg.pic_params.h, bytes))
      return -EINVAL;
    vmaf->pool = vmafx::capi::make_host_pool(shape, bytes, cfg.pic_cnt);
    return 0;
  });
}

int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (!vmaf || !pic || !vmaf->pool) return -EINVAL;
  return guarded("vmaf_fetch_preallocated_picture", [&] { return vmafx::capi::pool_fetch(vmaf->pool, pic); });
}

int vmaf_write_output(VmafContext* vmaf, const char* output_path, enum VmafOutputFormat fmt) {
  if (!vmaf || !output_path) return -EINVAL;
  vmafx::OutputFormat of;
  switch (vmafx::capi::raw(fmt)) {
    case VMAF_OUTPUT_FORMAT_XML: of = vmafx::OutputFormat::kXml; break;
    case VMAF_OUTPUT_FORMAT_JSON: of = vmafx::OutputFormat::kJson; break;
    case VMAF_OUTPUT_FORMAT_CSV: of = vmafx::OutputFormat::kCsv; break;
    case VMAF_OUTPUT_FORMAT_SUB: of = vmafx::OutputFormat::kSub; break;
    default: return -EINVAL;
  }
  if (!vmaf->flushed) {
    log(VMAF_LOG_LEVEL_ERROR, "vmaf_write_output: flush first (vmaf_read_pictures(vmaf, NULL, NULL, 0))");
    return -EINVAL;
  }
  return guarded("vmaf_write_output", [&] {
    vmafx::ReportInfo info;
    info.frames = vmaf->pictures;
    info.subsample = std::max(1u, vmaf->cfg.n_subsample);
    info.width = vmaf->fmt.width;
    info.height = vmaf->fmt.height;
    const double secs = double(vmaf->end_ns - vmaf->start_ns) / 1e9;
    info.fps = secs > 0 ? vmaf->pictures / secs : 0.0;
    info.precision.digits = vmafx::env::libvmaf_precision();
    vmafx::save_report(output_path, of, *writable(vmaf), info);
    return 0;
  });
}

const char* vmaf_version(void) { return "3.2.0-vmaf-exact-" VMAF_EXACT_VERSION; }

}  // extern "C"

#ifndef VMAFX_HAVE_CUDA
// Without CUDA no picture lives on a device.
int vmafx::capi::copy_device_picture(const VmafPicture&, vmafx::Picture&, vmafx::DeviceImporter*) { return -EINVAL; }
#endif
