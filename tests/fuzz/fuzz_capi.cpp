// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: random call sequences on libvmaf's C API (src/capi,
// include/libvmaf/*.h), as a program linking libvmaf.so would make them.
//
// The input is a list of operations, one byte each (the opcode, modulo the
// number of operations) followed by its argument bytes (a missing byte reads
// as 0): open and close a context (any configuration, including invalid log
// levels and thread counts), load built-in models and model collections
// (valid, unknown and wrong-kind versions, names, flags), overload their
// features, register models and extractors (valid and unknown names, option
// dictionaries with valid and invalid keys and values), allocate pictures
// (valid and invalid formats, depths and sizes), fill them, spoil them
// (NULL planes, a missing reference, another format or depth), unref them
// (twice too), hand them over (matching and mismatching pairs, NULLs, an
// index out of order, after the flush), flush, read per-picture and pooled
// scores of models, collections and features (any index, any method),
// import scores, preallocate and fetch pictures, write reports (every format
// and an invalid one; to a file and into a missing directory).
//
// Oracle, besides no sanitizer report, crash, leak or hang:
//   - every call returns 0 or a negative errno (-EINVAL, -ENOMEM), and the
//     misuses the harness can tell for sure (NULL arguments, a second flush,
//     pictures after the flush, an index out of order, registrations after
//     the first picture, a report before the flush) return -EINVAL;
//   - a picture the call refused is still the caller's (its reference is
//     left), one it took is released (zeroed);
//   - a refused call changes nothing: at the end of a sequence whose flush
//     succeeded, the same pictures and the same models and extractors scored
//     through vmaf-exact's C++ Session give the same values, == on doubles,
//     for every per-frame score the C API has (each registered model's score
//     at every scored frame must be there);
//   - a JSON report written after the flush parses.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libvmaf/libvmaf.h"
#include "vmaf_exact/error.hpp"
#include "vmaf_exact/session.hpp"

extern "C" {  // fuzz_capi_calls.c
int fuzz_picture_alloc(VmafPicture* pic, int pix_fmt, unsigned bpc, unsigned w, unsigned h);
int fuzz_score_pooled(VmafContext* vmaf, VmafModel* model, int method, double* score, unsigned lo, unsigned hi);
int fuzz_feature_score_pooled(VmafContext* vmaf, const char* name, int method, double* score, unsigned lo, unsigned hi);
int fuzz_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* mc, int method,
                                       VmafModelCollectionScore* score, unsigned lo, unsigned hi);
int fuzz_write_output(VmafContext* vmaf, const char* path, int fmt);
}

namespace {

[[noreturn]] void fail(const char* what, int line) {
  std::fprintf(stderr, "fuzz_capi: %s (line %d)\n", what, line);
  std::abort();
}
#define CHECK(cond)                     \
  do {                                  \
    if (!(cond)) fail(#cond, __LINE__); \
  } while (0)

// An enum value as a C caller may pass it: any int. Stored into enum fields
// with memcpy and passed by value through fuzz_capi_calls.c (C), so that the
// harness itself never loads an enum out of its range.
int any_int(unsigned byte, unsigned valid) {
  return byte < 240 ? int(byte % valid) : byte < 248 ? 99 + int(byte) : -int(byte);
}
template <class E>
void store(E& field, int v) {
  static_assert(sizeof(E) == sizeof(int));
  std::memcpy(&field, &v, sizeof v);
}
template <class E>
int load(const E& field) {
  int v;
  std::memcpy(&v, &field, sizeof v);
  return v;
}

// The return value of every call: 0 or a negative errno.
int rc(int r) {
  if (r != 0 && r != -EINVAL && r != -ENOMEM) {
    std::fprintf(stderr, "fuzz_capi: return value %d\n", r);
    std::abort();
  }
  return r;
}

struct Bytes {
  const std::uint8_t* p;
  std::size_t n, i = 0;
  bool empty() const { return i >= n; }
  unsigned u8() { return i < n ? p[i++] : 0; }
  unsigned u16() { return u8() | u8() << 8; }
};

const char* const kVersions[] = {"vmaf_v0.6.1",   "vmaf_v0.6.1neg",      "vmaf_float_v0.6.1", "vmaf_4k_v0.6.1",
                                 "vmaf_b_v0.6.3", "vmaf_float_b_v0.6.3", "no_such_model",     ""};
const char* const kNames[] = {nullptr, "vmaf", "m1", "m_2", "", "vmaf_b_v0.6.3"};
// Extractors (libvmaf's names) and a few that do not exist.
const char* const kFeatures[] = {"psnr",     "float_psnr",   "float_ssim", "ssim",  "float_ms_ssim",
                                 "ms_ssim",  "vif",          "float_vif",  "adm",   "float_adm",
                                 "motion",   "float_motion", "motion_v2",  "ciede", "cambi",
                                 "psnr_hvs", "float_moment", "no_such",    ""};
const char* const kKeys[] = {
    "enable_chroma", "enable_lcs", "motion_force_zero", "adm_enhn_gain_limit", "vif_enhn_gain_limit", "enable_db",
    "clip_db",       "debug",      "min_sse",           "motion_fps_weight",   "no_such_key",         "window_size"};
const char* const kValues[] = {"0", "1", "true", "false", "1.5", "-1", "1e9", "abc", "nan", "2", "0.5", ""};
// Series the C++ Session writes for the extractors above (lookups).
const char* const kSeries[] = {"psnr_y",
                               "float_ssim",
                               "vmaf",
                               "m1",
                               "integer_adm2",
                               "integer_motion2",
                               "integer_vif_scale0",
                               "vmaf_b_v0.6.3_bagging",
                               "imported",
                               ""};
const unsigned kSizes[] = {1, 2, 3, 7, 16, 17, 32, 33, 48, 64, 65};

// A picture slot of the harness.
struct Slot {
  VmafPicture pic{};
  bool from_pool = false;
  bool opaque = false;  // its depth or format was changed: its samples mean something else
  unsigned seed = 0;    // 0: zeros (as allocated)
  // Dimensions at allocation (what fill covers).
  unsigned w[3] = {}, h[3] = {};
};

// Sample (x, y) of plane p of a picture filled with `seed`.
unsigned sample(unsigned seed, int p, unsigned x, unsigned y, unsigned bpc) {
  if (seed == 0) return 0;
  std::uint32_t s = (seed >> 3) * 2654435761u ^ (unsigned(p) * 40503u + x * 2246822519u + y * 3266489917u);
  s ^= s >> 15;
  s *= 2246822519u;
  s ^= s >> 13;
  const unsigned maxv = (1u << bpc) - 1;
  unsigned v = ((x * 5 + y * 3 + unsigned(p) * 60) + (s >> 26)) & maxv;
  if (seed & 7) {  // the distorted variant: a little noise
    const int d = int((s >> 8) % (2 * (seed & 7) + 1)) - int(seed & 7);
    const int w = int(v) + d;
    v = unsigned(std::clamp(w, 0, int(maxv)));
  }
  return v;
}

void fill(Slot& s, unsigned seed) {
  s.seed = seed;
  for (int p = 0; p < 3; ++p) {
    if (!s.pic.data[p]) continue;
    for (unsigned y = 0; y < s.h[p]; ++y)
      for (unsigned x = 0; x < s.w[p]; ++x) {
        const unsigned v = sample(seed, p, x, y, s.pic.bpc);
        auto* row = static_cast<std::uint8_t*>(s.pic.data[p]) + std::ptrdiff_t(y) * s.pic.stride[p];
        if (s.pic.bpc > 8)
          reinterpret_cast<std::uint16_t*>(row)[x] = std::uint16_t(v);
        else
          row[x] = std::uint8_t(v);
      }
  }
}

// What the context was given, for the Session that must agree with it.
struct Pushed {
  unsigned ref_seed, dis_seed;
  unsigned ref_w[3], ref_h[3], dis_w[3], dis_h[3];
};
struct Registered {
  std::string arg;  // --model or --feature string
  bool model;
  std::string name;   // a model's score name
  bool main = false;  // a model's own score is written at the flush
};
struct LoadedModel {
  VmafModel* m = nullptr;
  VmafModelCollection* c = nullptr;
  std::string arg;  // the Session's --model string ("" when it has none)
  std::string name;
};

std::string out_path() {
  static const std::string p =
      (std::filesystem::temp_directory_path() / ("vmafx_fuzz_capi_" + std::to_string(::getpid()) + ".out")).string();
  return p;
}

struct Harness {
  Bytes in;
  VmafContext* ctx = nullptr;
  VmafConfiguration cfg{};
  bool flushed = false, failed = false, tainted = false;
  unsigned pictures = 0;
  bool have_format = false;
  int fmt_pix = VMAF_PIX_FMT_UNKNOWN;
  unsigned fmt_bpc = 0, fmt_w = 0, fmt_h = 0;
  std::vector<Pushed> pushed;
  std::vector<Registered> registered;
  LoadedModel models[3];
  Slot slots[4];
  bool pool = false;
  unsigned pool_count = 0;
  int pool_pix = VMAF_PIX_FMT_UNKNOWN;
  unsigned pool_bpc = 0, pool_w = 0, pool_h = 0;

  explicit Harness(Bytes b) : in(b) {}

  unsigned pool_out() const {
    unsigned n = 0;
    for (const Slot& s : slots) n += s.from_pool && s.pic.ref;
    return n;
  }

  void release_slot(Slot& s) {
    if (s.pic.ref) CHECK(rc(vmaf_picture_unref(&s.pic)) == 0);
    s = Slot{};
  }

  void close_context() {
    if (!ctx) return;
    check_against_session();
    CHECK(rc(vmaf_close(ctx)) == 0);
    ctx = nullptr;
    // Pool pictures outlive the context's pool: the caller still owns them.
    pool = false;
  }

  void op_init() {
    close_context();
    VmafConfiguration c{};
    const unsigned a = in.u8();
    store(c.log_level, any_int(a, 8));  // 0..4 valid, 5..7 and wild values not
    const unsigned t = in.u8();
    c.n_threads = t < 200 ? t % 4 : 257 + t;  // up to 3 workers, or past the limit
    c.n_subsample = in.u8() % 4;
    c.cpumask = in.u8();
    const bool valid_level = a < 240 && a % 8 <= 4;
    if (valid_level && (a & 8) == 0) c.log_level = VMAF_LOG_LEVEL_NONE;  // quiet mostly
    int r = rc(vmaf_init(in.u8() == 255 ? nullptr : &ctx, c));
    const bool valid = valid_level && c.n_threads <= 256;
    if (!valid) CHECK(r == -EINVAL);
    if (r != 0) {
      ctx = nullptr;
      return;
    }
    if (!ctx) return;
    cfg = c;
    flushed = failed = tainted = false;
    pictures = 0;
    have_format = false;
    pushed.clear();
    registered.clear();
  }

  void destroy_model(LoadedModel& lm) {
    if (lm.c) {
      vmaf_model_collection_destroy(lm.c);
      vmaf_model_destroy(lm.m);
    } else if (lm.m) {
      vmaf_model_destroy(lm.m);
    }
    lm = LoadedModel{};
  }

  void op_model_load(bool collection) {
    LoadedModel& lm = models[in.u8() % 3];
    const char* version = kVersions[in.u8() % std::size(kVersions)];
    const char* name = kNames[in.u8() % std::size(kNames)];
    const unsigned flags = in.u8() & 7;
    destroy_model(lm);
    VmafModelConfig mc{name, flags};
    VmafModel* m = nullptr;
    VmafModelCollection* c = nullptr;
    int r = collection ? rc(vmaf_model_collection_load(&m, &c, &mc, version)) : rc(vmaf_model_load(&m, &mc, version));
    const bool bootstrap = std::strstr(version, "_b_") != nullptr;
    const bool known = *version && std::strcmp(version, "no_such_model") != 0;
    if (!known || bootstrap != collection || (name && !*name)) CHECK(r == -EINVAL);
    if (r != 0) {
      CHECK(m == nullptr && c == nullptr);
      return;
    }
    CHECK(m != nullptr && (c != nullptr) == collection);
    lm.m = m;
    lm.c = c;
    lm.name = name ? name : "vmaf";
    lm.arg = std::string("version=") + version + ":name=" + lm.name;
    if (flags & VMAF_MODEL_FLAG_DISABLE_CLIP) lm.arg += ":disable_clip";
    if (flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM) lm.arg += ":enable_transform";
    // VMAF_MODEL_FLAG_DISABLE_TRANSFORM: libvmaf 3.2.0 reads it only in a
    // predict whose flags its C API always passes as 0 (docs/c-api.md): no
    // effect, so the Session's string has nothing for it (checked here).
  }

  // A dictionary of 0..3 entries; the option string it stands for in `opts`.
  VmafFeatureDictionary* dict(std::string* opts, bool* plain) {
    VmafFeatureDictionary* d = nullptr;
    const unsigned n = in.u8() % 4;
    *plain = true;
    std::map<std::string, std::string> entries;
    for (unsigned i = 0; i < n; ++i) {
      const char* k = kKeys[in.u8() % std::size(kKeys)];
      const char* v = kValues[in.u8() % std::size(kValues)];
      const int r = rc(vmaf_feature_dictionary_set(&d, k, v));
      if (r == 0)
        entries[k] = v;
      else
        CHECK(!*v || !*k);
    }
    for (const auto& [k, v] : entries) {
      if (!opts->empty()) *opts += ':';
      *opts += k + "=" + v;
    }
    return d;
  }

  void op_overload() {
    LoadedModel& lm = models[in.u8() % 3];
    const char* feature = kFeatures[in.u8() % std::size(kFeatures)];
    std::string opts;
    bool plain;
    VmafFeatureDictionary* d = dict(&opts, &plain);
    int r;
    if (lm.c)
      r = rc(vmaf_model_collection_feature_overload(lm.m, &lm.c, feature, d));
    else
      r = rc(vmaf_model_feature_overload(lm.m, feature, d));  // takes d in every case
    if (!lm.m || !d) CHECK(r == -EINVAL);
    if (r == 0 && !*feature) lm.arg.clear();  // no --model string names an empty extractor
    if (r == 0 && !lm.arg.empty()) {
      std::stringstream ss(opts);
      std::string item;
      while (std::getline(ss, item, ':')) lm.arg += ":" + std::string(feature) + "." + item;
    }
  }

  // Registrations end with the first picture the context takes, or the flush
  // (a context whose engine could not be built takes none).
  bool registrations_closed() const { return pictures > 0 || flushed; }

  void op_use_model() {
    LoadedModel& lm = models[in.u8() % 3];
    const bool as_collection = in.u8() & 1;
    if (!ctx) {
      if (lm.m) CHECK(rc(vmaf_use_features_from_model(nullptr, lm.m)) == -EINVAL);
      return;
    }
    int r;
    if (as_collection)
      r = rc(vmaf_use_features_from_model_collection(ctx, lm.c));
    else
      r = rc(vmaf_use_features_from_model(ctx, lm.m));
    if ((as_collection ? !lm.c : !lm.m) || registrations_closed()) CHECK(r == -EINVAL);
    if (r != 0) return;
    if (lm.arg.empty()) tainted = true;
    // A collection writes only its bootstrap statistics at the flush; the
    // Session writes its score too (values compared where both have them).
    registered.push_back({lm.arg, true, lm.name, !as_collection});
  }

  void op_use_feature() {
    const char* name = kFeatures[in.u8() % std::size(kFeatures)];
    std::string opts;
    bool plain;
    VmafFeatureDictionary* d = dict(&opts, &plain);
    if (!ctx) {
      CHECK(rc(vmaf_use_feature(nullptr, name, nullptr)) == -EINVAL);
      vmaf_feature_dictionary_free(&d);
      return;
    }
    // The context takes the dictionary when the call succeeds; on failure it
    // is still the caller's (libvmaf.h).
    const int r = rc(vmaf_use_feature(ctx, name, d));
    if (r != 0) vmaf_feature_dictionary_free(&d);
    if (registrations_closed() || !*name || !std::strcmp(name, "no_such")) CHECK(r == -EINVAL);
    if (r == 0) registered.push_back({opts.empty() ? std::string(name) : std::string(name) + "=" + opts, false, ""});
  }

  void op_alloc() {
    Slot& s = slots[in.u8() % 4];
    release_slot(s);
    const unsigned a = in.u8();
    int pix;
    unsigned bpc, w, h;
    if (a < 160 && have_format) {  // the context's format, mostly
      pix = fmt_pix, bpc = fmt_bpc, w = fmt_w, h = fmt_h;
    } else {
      pix = any_int(in.u8(), 6);  // 0, 5 and wild values invalid
      const unsigned b = in.u8();
      bpc = b < 200 ? (b % 3 == 0 ? 8 : b % 3 == 1 ? 10 : 12 + b % 5) : b % 20;
      const unsigned c = in.u8(), e = in.u8();
      w = c < 250 ? kSizes[c % std::size(kSizes)] : (c == 250 ? 0 : 70000);
      h = e < 250 ? kSizes[e % std::size(kSizes)] : (e == 250 ? 0 : 70000);
    }
    const int r = rc(fuzz_picture_alloc(&s.pic, pix, bpc, w, h));
    const bool valid = pix >= VMAF_PIX_FMT_YUV420P && pix <= VMAF_PIX_FMT_YUV400P && bpc >= 8 && bpc <= 16 && w >= 1 &&
                       h >= 1 && w <= 65536 && h <= 65536;
    CHECK((r == 0) == valid);
    if (r) {
      s = Slot{};
      return;
    }
    for (int p = 0; p < 3; ++p) s.w[p] = s.pic.w[p], s.h[p] = s.pic.h[p];
  }

  void op_fill() {
    Slot& s = slots[in.u8() % 4];
    const unsigned seed = in.u8();
    if (s.pic.ref && !s.opaque) fill(s, seed);
  }

  // Spoils a picture; the call that gets it must refuse it (or, for a
  // smaller size, take a picture of that size).
  void op_spoil() {
    Slot& s = slots[in.u8() % 4];
    if (!s.pic.ref) return;
    switch (in.u8() % 5) {
      case 0:
        if (s.pic.w[0] > 1) s.pic.w[0]--;
        break;
      case 1:
        if (s.pic.h[0] > 1) s.pic.h[0]--;
        break;
      case 2:
        store(s.pic.pix_fmt, any_int(in.u8(), 6));
        s.opaque = true;
        break;
      case 3:
        s.pic.bpc = in.u8() % 20;
        s.opaque = true;
        break;
      case 4:
        s.pic.stride[in.u8() % 3] /= 2;
        s.opaque = true;
        break;
    }
  }

  void op_unref() {
    Slot& s = slots[in.u8() % 4];
    const bool had = s.pic.ref != nullptr;
    const int r = rc(vmaf_picture_unref(&s.pic));
    CHECK((r == 0) == had);
    if (had) s = Slot{};
  }

  void op_read() {
    const unsigned a = in.u8(), b = in.u8(), c = in.u8();
    Slot* ref = a < 240 ? &slots[a % 4] : nullptr;
    Slot* dis = b < 240 ? &slots[b % 4] : nullptr;
    const unsigned index = c < 200 ? pictures : c < 230 ? pictures + 1 : c < 250 ? pictures - 1 : c * 1000u;
    // A NULL plane or a missing reference/priv, for this call only.
    const unsigned nul = in.u8();
    VmafPicture* rp = ref ? &ref->pic : nullptr;
    VmafPicture* dp = dis ? &dis->pic : nullptr;
    VmafPicture before_r{}, before_d{};  // as the caller holds them (before this call's spoiling)
    if (rp) before_r = *rp;
    if (dp) before_d = *dp;
    void* saved = nullptr;
    VmafPicture* spoiled = nullptr;
    int spoiled_field = -1;
    if (nul >= 240 && rp && rp->ref) {
      spoiled = rp;
      spoiled_field = nul % 4;
      void** f = spoiled_field < 3 ? &rp->data[spoiled_field] : &rp->priv;
      saved = *f;
      *f = nullptr;
      if (!saved) spoiled = nullptr;
    }
    if (!ctx) {
      CHECK(rc(vmaf_read_pictures(nullptr, rp, dp, index)) == -EINVAL);
      if (spoiled) (spoiled_field < 3 ? spoiled->data[spoiled_field] : spoiled->priv) = saved;
      return;
    }
    if (rp && dp && pictures >= 8) {  // keep a sequence short
      if (spoiled) (spoiled_field < 3 ? spoiled->data[spoiled_field] : spoiled->priv) = saved;
      return;
    }
    const bool same = rp && rp == dp;
    const bool had_r = rp && rp->ref, had_d = dp && dp->ref;
    const int r = rc(vmaf_read_pictures(ctx, rp, dp, index));
    if (std::getenv("VMAFX_FUZZ_VERBOSE"))
      std::fprintf(stderr, "fuzz_capi: read(%p, %p, %u) = %d\n", static_cast<void*>(rp), static_cast<void*>(dp), index,
                   r);
    if (spoiled && spoiled->ref) (spoiled_field < 3 ? spoiled->data[spoiled_field] : spoiled->priv) = saved;
    if (!rp && !dp) {  // the flush
      if (flushed || failed) CHECK(r == -EINVAL);
      if (r == 0) {
        flushed = true;
      } else if (!flushed) {
        failed = true;
      }
      return;
    }
    if (flushed || failed || !rp != !dp || index != pictures || !had_r || !had_d || spoiled) CHECK(r == -EINVAL);
    if (r == 0) {
      // Both taken and released: zeroed.
      CHECK(!rp->ref && !dp->ref && !rp->data[0] && !dp->data[0]);
      if (ref->opaque || dis->opaque) tainted = true;
      if (!have_format) {
        have_format = true;
        fmt_pix = load(before_r.pix_fmt), fmt_bpc = before_r.bpc, fmt_w = before_r.w[0], fmt_h = before_r.h[0];
      } else {
        CHECK(load(before_r.pix_fmt) == fmt_pix && before_r.bpc == fmt_bpc && before_r.w[0] == fmt_w &&
              before_r.h[0] == fmt_h);
      }
      Pushed p{ref->seed, dis->seed, {}, {}, {}, {}};
      for (int k = 0; k < 3; ++k) {
        p.ref_w[k] = before_r.w[k], p.ref_h[k] = before_r.h[k];
        p.dis_w[k] = before_d.w[k], p.dis_h[k] = before_d.h[k];
      }
      pushed.push_back(p);
      pictures++;
      *ref = Slot{};
      if (!same) *dis = Slot{};
      return;
    }
    // Refused: nothing changes, unless the engine failed on them (a format
    // an extractor refuses), which releases them and ends the context.
    if (rp && !rp->ref && had_r) {
      CHECK(!dp || !dp->ref);
      failed = true;
      *ref = Slot{};
      if (dis) *dis = Slot{};
      return;
    }
    if (rp && had_r) CHECK(rp->ref == before_r.ref && rp->data[0] == before_r.data[0]);
    if (dp && had_d && !same) CHECK(dp->ref == before_d.ref && dp->data[0] == before_d.data[0]);
  }

  unsigned pick_index() {
    const unsigned a = in.u8();
    return a < 128 ? a % 10 : a < 250 ? a % 3 : 0xffffffffu - a % 2;
  }

  void op_score() {
    LoadedModel& lm = models[in.u8() % 3];
    const unsigned kind = in.u8() % 6;
    const unsigned lo = pick_index(), hi = pick_index();
    const int method = any_int(in.u8(), 7);
    const bool method_ok = method > VMAF_POOL_METHOD_UNKNOWN && method < VMAF_POOL_METHOD_NB;
    double score = 0;
    VmafModelCollectionScore cs{};
    int r;
    switch (kind) {
      case 0: r = rc(vmaf_score_at_index(ctx, lm.m, &score, lo)); break;
      case 1: r = rc(fuzz_score_pooled(ctx, lm.m, method, &score, lo, hi)); break;
      case 2: r = rc(vmaf_score_at_index_model_collection(ctx, lm.c, &cs, lo)); break;
      case 3: r = rc(fuzz_score_pooled_model_collection(ctx, lm.c, method, &cs, lo, hi)); break;
      case 4: {
        const char* n = kSeries[in.u8() % std::size(kSeries)];
        r = rc(vmaf_feature_score_at_index(ctx, n, &score, lo));
        break;
      }
      default: {
        const char* n = kSeries[in.u8() % std::size(kSeries)];
        r = rc(fuzz_feature_score_pooled(ctx, n, method, &score, lo, hi));
        break;
      }
    }
    if (!ctx) CHECK(r == -EINVAL);
    if ((kind == 1 || kind == 3 || kind == 5) && (lo > hi || !method_ok)) CHECK(r == -EINVAL);
    // A model's score at a picture not scored (it wrote one the Session has
    // not): compare only the values both have (check_against_session).
  }

  void op_import() {
    const char* n = kSeries[in.u8() % std::size(kSeries)];
    const unsigned index = pick_index();
    const double values[] = {0.0, 1.5, -1.0, NAN, INFINITY, 1e300};
    const double v = values[in.u8() % std::size(values)];
    const int r = rc(vmaf_import_feature_score(ctx, n, v, index));
    if (!ctx || !*n || (index >= (1u << 24) && index >= pictures)) CHECK(r == -EINVAL);
    if (r == 0 && std::strcmp(n, "imported") != 0) tainted = true;  // a name the engine may write
  }

  void op_write() {
    const unsigned a = in.u8();
    // 0..231: a format (0 and 5 invalid); 232..239: a wild value; 240..255: a
    // format into a missing directory.
    const int f = any_int(a < 232 ? a : a < 240 ? a + 8 : a % 6, 6);
    const bool bad_dir = a >= 240;
    const std::string path = bad_dir ? "/nonexistent-vmafx-dir/out" : out_path();
    std::filesystem::remove(out_path());
    const int r = rc(fuzz_write_output(ctx, path.c_str(), f));
    const bool valid = (a < 232 || a >= 240) && a % 6 >= VMAF_OUTPUT_FORMAT_XML && a % 6 <= VMAF_OUTPUT_FORMAT_SUB;
    if (!ctx || !valid || !flushed || bad_dir) CHECK(r == -EINVAL);
    if (r != 0) {
      CHECK(!std::filesystem::exists(out_path()));  // nothing half-written
      return;
    }
    CHECK(std::filesystem::exists(out_path()));
    if (f == VMAF_OUTPUT_FORMAT_JSON) {
      std::ifstream is(out_path());
      const nlohmann::json j = nlohmann::json::parse(is, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded()) fail("the JSON report does not parse", __LINE__);
    }
    std::filesystem::remove(out_path());
  }

  void op_pool() {
    if (!ctx) return;
    if (in.u8() & 1) {
      VmafPictureConfiguration pc{};
      const unsigned a = in.u8();
      if (a < 160 && have_format) {
        pc.pic_params.w = fmt_w, pc.pic_params.h = fmt_h, pc.pic_params.bpc = fmt_bpc;
        store(pc.pic_params.pix_fmt, fmt_pix);
      } else {
        store(pc.pic_params.pix_fmt, any_int(in.u8(), 6));
        pc.pic_params.bpc = 8 + in.u8() % 10;
        pc.pic_params.w = kSizes[in.u8() % std::size(kSizes)];
        pc.pic_params.h = kSizes[in.u8() % std::size(kSizes)];
      }
      pc.pic_cnt = in.u8() % 4;
      const int r = rc(vmaf_preallocate_pictures(ctx, pc));
      if (pool || pc.pic_cnt == 0) CHECK(r == -EINVAL);
      if (r == 0) {
        pool = true;
        pool_count = pc.pic_cnt;
        pool_pix = load(pc.pic_params.pix_fmt), pool_bpc = pc.pic_params.bpc;
        pool_w = pc.pic_params.w, pool_h = pc.pic_params.h;
      }
      return;
    }
    Slot& s = slots[in.u8() % 4];
    if (!pool) {
      VmafPicture p{};
      CHECK(rc(vmaf_fetch_preallocated_picture(ctx, &p)) == -EINVAL);
      return;
    }
    if (pool_out() >= pool_count) return;  // it would wait for one to come back
    release_slot(s);
    const int r = rc(vmaf_fetch_preallocated_picture(ctx, &s.pic));
    if (r) {
      s = Slot{};
      return;
    }
    CHECK(load(s.pic.pix_fmt) == pool_pix && s.pic.bpc == pool_bpc && s.pic.w[0] == pool_w && s.pic.h[0] == pool_h);
    s.from_pool = true;
    for (int p = 0; p < 3; ++p) s.w[p] = s.pic.w[p], s.h[p] = s.pic.h[p];
  }

  void op_null_args() {
    // NULL arguments are refused, whatever the state.
    double x;
    CHECK(rc(vmaf_score_at_index(ctx, nullptr, &x, 0)) == -EINVAL);
    CHECK(rc(vmaf_feature_score_at_index(ctx, nullptr, &x, 0)) == -EINVAL);
    CHECK(rc(vmaf_feature_score_at_index(ctx, "psnr_y", nullptr, 0)) == -EINVAL);
    CHECK(rc(vmaf_write_output(ctx, nullptr, VMAF_OUTPUT_FORMAT_JSON)) == -EINVAL);
    CHECK(rc(vmaf_use_feature(ctx, nullptr, nullptr)) == -EINVAL);
    CHECK(rc(vmaf_use_features_from_model(ctx, nullptr)) == -EINVAL);
    CHECK(rc(vmaf_import_feature_score(ctx, nullptr, 0, 0)) == -EINVAL);
    CHECK(rc(vmaf_picture_alloc(nullptr, VMAF_PIX_FMT_YUV420P, 8, 16, 16)) == -EINVAL);
    CHECK(rc(vmaf_picture_unref(nullptr)) == -EINVAL);
    CHECK(rc(vmaf_model_load(nullptr, nullptr, "vmaf_v0.6.1")) == -EINVAL);
    CHECK(rc(vmaf_close(nullptr)) == -EINVAL);
  }

  // The oracle of equal scores: the C++ Session on the same pictures.
  void check_against_session() {
    if (!flushed || failed || tainted || pushed.empty()) return;
    vmafx::SessionConfig sc;
    sc.threads = 1;
    sc.subsample = cfg.n_subsample ? cfg.n_subsample : 1;
    bool any_model = false;
    for (const Registered& r : registered) {
      if (r.model) {
        sc.models.push_back(r.arg);
        any_model = true;
      } else {
        sc.features.push_back(r.arg);
      }
    }
    sc.no_prediction = !any_model;
    const vmafx::ChromaFormat chroma = fmt_pix == VMAF_PIX_FMT_YUV422P   ? vmafx::ChromaFormat::k422
                                       : fmt_pix == VMAF_PIX_FMT_YUV444P ? vmafx::ChromaFormat::k444
                                       : fmt_pix == VMAF_PIX_FMT_YUV400P ? vmafx::ChromaFormat::k400
                                                                         : vmafx::ChromaFormat::k420;
    const vmafx::PictureFormat pf{int(fmt_w), int(fmt_h), int(fmt_bpc), chroma};
    std::unique_ptr<vmafx::Session> s;
    try {
      s = std::make_unique<vmafx::Session>(pf, sc);
      for (const Pushed& p : pushed) {
        auto r = s->acquire(), d = s->acquire();
        put(*r, p.ref_seed, p.ref_w, p.ref_h);
        put(*d, p.dis_seed, p.dis_w, p.dis_h);
        s->push(std::move(r), std::move(d));
      }
      s->finish();
    } catch (const vmafx::Error& e) {
      // The C API scored what the Session refuses: one case is a name used
      // twice (the Session's rule), which the C API lets the last one win.
      std::string names;
      for (const Registered& r : registered)
        if (r.model) {
          if (names.find("|" + r.name + "|") != std::string::npos) return;
          names += "|" + r.name + "|";
        }
      std::fprintf(stderr, "fuzz_capi: the C API scored what the Session refuses: %s\n", e.what());
      std::abort();
    }
    unsigned compared = 0;
    for (const auto& series : s->scores().all()) {
      for (unsigned i = 0; i < series.written.size(); ++i) {
        if (!series.has(i)) continue;
        double x;
        if (vmaf_feature_score_at_index(ctx, series.name.c_str(), &x, i) != 0) continue;
        const double y = series.value[i];
        if (!(x == y || (std::isnan(x) && std::isnan(y)))) {
          std::fprintf(stderr, "fuzz_capi: %s at %u: C API %.17g, Session %.17g\n", series.name.c_str(), i, x, y);
          std::abort();
        }
        ++compared;
      }
    }
    // Each model's own score is there at every scored picture.
    const unsigned sub = sc.subsample;
    for (const Registered& r : registered) {
      if (!r.model || !r.main) continue;
      const auto* series = s->scores().find(r.name);
      CHECK(series != nullptr);
      for (unsigned i = 0; i < pushed.size(); i += sub) {
        double x;
        if (vmaf_feature_score_at_index(ctx, r.name.c_str(), &x, i) != 0) fail("a model score is missing", __LINE__);
      }
    }
    CHECK(compared > 0 || registered.empty() || s->scores().all().empty());
    if (std::getenv("VMAFX_FUZZ_VERBOSE"))  // what a replay checked
      std::fprintf(stderr, "fuzz_capi: %u values equal the Session's (%zu pictures, %zu registrations)\n", compared,
                   pushed.size(), registered.size());
  }

  // A Session picture as the C API's copy makes it: each plane from the
  // caller's plane of (w, h), the last column and row repeated.
  static void put(vmafx::Picture& pic, unsigned seed, const unsigned* w, const unsigned* h) {
    const vmafx::PictureFormat& f = pic.format();
    for (int p = 0; p < f.plane_count(); ++p) {
      const unsigned sw = std::min<unsigned>(w[p], unsigned(f.plane_width(p)));
      const unsigned sh = std::min<unsigned>(h[p], unsigned(f.plane_height(p)));
      for (int y = 0; y < f.plane_height(p); ++y)
        for (int x = 0; x < f.plane_width(p); ++x) {
          const unsigned v = sample(seed, p, std::min<unsigned>(x, sw - 1), std::min<unsigned>(y, sh - 1), f.bpc);
          if (f.bpc > 8)
            pic.row<std::uint16_t>(p, y)[x] = std::uint16_t(v);
          else
            pic.row<std::uint8_t>(p, y)[x] = std::uint8_t(v);
        }
    }
  }

  void run() {
    const bool verbose = std::getenv("VMAFX_FUZZ_VERBOSE") != nullptr;
    while (!in.empty()) {
      const unsigned op = in.u8() % 17;
      if (verbose) std::fprintf(stderr, "fuzz_capi: op %u at byte %zu\n", op, in.i - 1);
      switch (op) {
        case 0: op_init(); break;
        case 1: close_context(); break;
        case 2: op_model_load(false); break;
        case 3: op_model_load(true); break;
        case 4: op_overload(); break;
        case 5: op_use_model(); break;
        case 6: op_use_feature(); break;
        case 7: op_alloc(); break;
        case 8: op_fill(); break;
        case 9: op_spoil(); break;
        case 10: op_unref(); break;
        case 11:
        case 12: op_read(); break;
        case 13: op_score(); break;
        case 14: op_import(); break;
        case 15: op_write(); break;
        case 16:
          if (in.u8() & 1)
            op_pool();
          else
            op_null_args();
          break;
      }
    }
    close_context();
    for (Slot& s : slots) release_slot(s);
    for (LoadedModel& m : models) destroy_model(m);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Harness h(Bytes{data, size});
  h.run();
  return 0;
}
