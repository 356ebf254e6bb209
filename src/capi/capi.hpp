// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Internals of the libvmaf-compatible C API (src/capi): the opaque structs of
// include/libvmaf/*.h, shared by capi.cpp, picture.cpp and cuda.cpp.
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <cstdarg>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "libvmaf/libvmaf.h"
#include "model/model.hpp"

struct VmafRef {
  std::atomic<long> count{1};
};

struct VmafFeatureDictionary {
  std::map<std::string, std::string> entries;
};

// The model and its load parameters (rebuilt when options are overloaded).
struct VmafModel {
  bool from_path = false;
  std::string source;  // version or path
  vmafx::ModelOptions opts;
  std::optional<vmafx::Model> model;
  bool collection_main = false;  // the main model of a bootstrap collection
};

struct VmafModelCollection {
  VmafModel m;  // the bootstrap collection as one Model (sub-models 0..N)
};

namespace vmafx::capi {

// The int a C caller stored in an enum field or argument. C allows any int
// there; in C++ loading a value outside the enum's range is undefined (UBSan:
// vmaf_init with log level 99), so entry points check the raw int first.
template <class E>
int raw(const E& e) {
  static_assert(sizeof(E) == sizeof(int));
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// Log output (libvmaf's vmaf_log): "libvmaf <LEVEL> message" on stderr when
// `level` is at or below the level set by the last vmaf_init.
void log(VmafLogLevel level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void set_log_level(VmafLogLevel level);

// Where a picture's samples live (VmafPicture.priv).
enum class BufType { kHost, kDevice };

// A picture's private part: how its buffer is released.
struct PicturePriv {
  BufType buf = BufType::kHost;
  void (*release)(VmafPicture* pic, void* cookie) = nullptr;
  void* cookie = nullptr;
  int device = 0;  // CUDA device of a kDevice picture
};

// vmaf_picture_alloc's geometry for (pix_fmt, bpc, w, h): plane sizes, strides
// and the total bytes; false for bad arguments.
bool picture_geometry(VmafPicture& pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h,
                      std::size_t& bytes);
// Fills pic (geometry done) around `data` with a fresh reference and priv.
int picture_attach(VmafPicture& pic, void* data, std::size_t bytes, const PicturePriv& priv);

// A pool of pictures of one geometry (vmaf_preallocate_pictures and the CUDA
// variant): fetch waits while all are out; unref returns them.
struct PicturePool {
  VmafPicture shape{};
  std::size_t bytes = 0;
  unsigned count = 0;
  BufType buf = BufType::kHost;
  int method = 0;  // 0 host heap; 1 device; 2 host; 3 host page-locked (CUDA)
  std::mutex mu;
  std::condition_variable cv;
  std::vector<void*> free_list;
  unsigned out = 0, made = 0;
  std::atomic<bool> closed{false};
  void* (*alloc)(std::size_t bytes) = nullptr;  // nullptr: failure
  BufType kind() const { return buf; }
  void (*free_fn)(void* p) = nullptr;
};
std::shared_ptr<PicturePool> make_host_pool(const VmafPicture& shape, std::size_t bytes, unsigned count);
// Takes a picture from the pool (allocating up to count, then waiting).
int pool_fetch(const std::shared_ptr<PicturePool>& pool, VmafPicture* pic);

}  // namespace vmafx::capi

// One entry of a context's mounted models, in registration order.
struct VmafMounted {
  vmafx::Model model;
  std::string name;
  bool main = false;                // writes the model's own score (scores[0])
  bool extras = false;              // writes the bootstrap statistics (scores[1..])
  std::vector<std::string> inputs;  // collector names of model.features()
};

struct VmafContext {
  VmafConfiguration cfg{};
  // Registered before the first picture, applied when the engine is built.
  struct Use {
    bool by_feature = false;  // a model's feature (name) or an extractor (name)
    std::string name;
    std::map<std::string, std::string> opts;
  };
  std::vector<Use> uses;
  std::vector<VmafMounted> mounted;
  std::unique_ptr<vmafx::Backend> backend;
  bool use_cuda = false;
  int cuda_device = 0;
  std::unique_ptr<vmafx::Engine> engine;
  vmafx::PictureFormat fmt{};
  VmafPixelFormat pix_fmt = VMAF_PIX_FMT_UNKNOWN;
  bool have_format = false;
  unsigned pictures = 0;  // pairs accepted
  bool flushed = false;
  bool failed = false;  // the engine failed: nothing more can be scored
  // Scores imported before the flush (applied to the collector at the flush).
  struct Imported {
    std::string name;
    unsigned index;
    double value;
  };
  std::vector<Imported> imported;
  std::set<std::pair<std::string, unsigned>> imported_keys;
  vmafx::FeatureCollector empty_collector;  // when no picture came
  std::int64_t start_ns = 0, end_ns = 0;
  std::shared_ptr<vmafx::capi::PicturePool> pool;
  std::shared_ptr<vmafx::capi::PicturePool> cuda_pool;
  int cuda_prealloc_method = 0;
};
