// SPDX-License-Identifier: BSD-3-Clause
// libvmaf C API: pictures (picture.h), option dictionaries (feature.h),
// picture pools and the log.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "capi/capi.hpp"
#include "core/options.hpp"

namespace vmafx::capi {

namespace {

std::atomic<int> g_log_level{VMAF_LOG_LEVEL_INFO};

const char* level_name(VmafLogLevel l) {
  switch (l) {
    case VMAF_LOG_LEVEL_ERROR: return "ERROR";
    case VMAF_LOG_LEVEL_WARNING: return "WARNING";
    case VMAF_LOG_LEVEL_INFO: return "INFO";
    case VMAF_LOG_LEVEL_DEBUG: return "DEBUG";
    default: return "";
  }
}

constexpr unsigned kAlign = 32;  // libvmaf's row alignment, in samples

void* heap_alloc(std::size_t bytes) { return std::aligned_alloc(64, (bytes + 63) / 64 * 64); }
void heap_free(void* p) { std::free(p); }

void release_heap(VmafPicture* pic, void*) { std::free(pic->data[0]); }

// Pool pictures go back to their pool (or are freed once it is closed).
struct PoolCookie {
  std::shared_ptr<PicturePool> pool;
};

void release_pooled(VmafPicture* pic, void* cookie) {
  auto* c = static_cast<PoolCookie*>(cookie);
  std::shared_ptr<PicturePool> pool = std::move(c->pool);
  delete c;
  {
    std::lock_guard lk(pool->mu);
    pool->out--;
    pool->free_list.push_back(pic->data[0]);
  }
  pool->cv.notify_all();
}

}  // namespace

void set_log_level(VmafLogLevel level) { g_log_level = level; }

void log(VmafLogLevel level, const char* fmt, ...) {
  if (level == VMAF_LOG_LEVEL_NONE || int(level) > g_log_level.load()) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "libvmaf %s %s\n", level_name(level), buf);
}

bool picture_geometry(VmafPicture& pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h,
                      std::size_t& bytes) {
  if (raw(pix_fmt) < VMAF_PIX_FMT_YUV420P || raw(pix_fmt) > VMAF_PIX_FMT_YUV400P) return false;
  if (bpc < 8 || bpc > 16) return false;
  if (w == 0 || h == 0 || w > (1u << 16) || h > (1u << 16)) return false;
  std::memset(&pic, 0, sizeof pic);
  pic.pix_fmt = pix_fmt;
  pic.bpc = bpc;
  const unsigned sh = pix_fmt != VMAF_PIX_FMT_YUV444P, sv = pix_fmt == VMAF_PIX_FMT_YUV420P;
  pic.w[0] = w;
  pic.h[0] = h;
  if (pix_fmt != VMAF_PIX_FMT_YUV400P) {
    pic.w[1] = pic.w[2] = w >> sh;
    pic.h[1] = pic.h[2] = h >> sv;
  }
  const unsigned hbd = bpc > 8;
  pic.stride[0] = std::ptrdiff_t((w + kAlign - 1) & ~(kAlign - 1)) << hbd;
  pic.stride[1] = pic.stride[2] = std::ptrdiff_t((pic.w[1] + kAlign - 1) & ~(kAlign - 1)) << hbd;
  bytes = std::size_t(pic.stride[0]) * pic.h[0] + 2 * std::size_t(pic.stride[1]) * pic.h[1];
  return true;
}

int picture_attach(VmafPicture& pic, void* data, std::size_t /*bytes*/, const PicturePriv& priv) {
  auto* p = new (std::nothrow) PicturePriv(priv);
  auto* r = new (std::nothrow) VmafRef;
  if (!p || !r) {
    delete p;
    delete r;
    return -ENOMEM;
  }
  auto* base = static_cast<std::uint8_t*>(data);
  const std::size_t y = std::size_t(pic.stride[0]) * pic.h[0], c = std::size_t(pic.stride[1]) * pic.h[1];
  pic.data[0] = base;
  pic.data[1] = pic.pix_fmt == VMAF_PIX_FMT_YUV400P ? nullptr : base + y;
  pic.data[2] = pic.pix_fmt == VMAF_PIX_FMT_YUV400P ? nullptr : base + y + c;
  pic.ref = r;
  pic.priv = p;
  return 0;
}

int pool_fetch(const std::shared_ptr<PicturePool>& pool, VmafPicture* pic) {
  void* data = nullptr;
  {
    std::unique_lock lk(pool->mu);
    if (pool->free_list.empty() && pool->made < pool->count) {
      data = pool->alloc(pool->bytes);
      if (!data) return -ENOMEM;
      pool->made++;
    } else {
      pool->cv.wait(lk, [&] { return !pool->free_list.empty(); });
      data = pool->free_list.back();
      pool->free_list.pop_back();
    }
    pool->out++;
  }
  auto* cookie = new (std::nothrow) PoolCookie{pool};
  VmafPicture p = pool->shape;
  int err = cookie ? picture_attach(p, data, pool->bytes, {pool->buf, release_pooled, cookie}) : -ENOMEM;
  if (err) {
    delete cookie;
    std::lock_guard lk(pool->mu);
    pool->out--;
    pool->free_list.push_back(data);
    return err;
  }
  if (pool->buf == BufType::kHost) std::memset(data, 0, pool->bytes);
  *pic = p;
  return 0;
}

std::shared_ptr<PicturePool> make_host_pool(const VmafPicture& shape, std::size_t bytes, unsigned count) {
  auto pool = std::shared_ptr<PicturePool>(new PicturePool, [](PicturePool* p) {
    for (void* d : p->free_list) p->free_fn(d);
    delete p;
  });
  pool->shape = shape;
  pool->bytes = bytes;
  pool->count = count;
  pool->alloc = heap_alloc;
  pool->free_fn = heap_free;
  return pool;
}

}  // namespace vmafx::capi

using namespace vmafx::capi;

extern "C" {

int vmaf_picture_alloc(VmafPicture* pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h) {
  if (!pic || raw(pix_fmt) < VMAF_PIX_FMT_YUV420P || raw(pix_fmt) > VMAF_PIX_FMT_YUV400P) return -EINVAL;
  VmafPicture p;
  std::size_t bytes = 0;
  if (!picture_geometry(p, pix_fmt, bpc, w, h, bytes)) return -EINVAL;
  void* data = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!data) return -ENOMEM;
  std::memset(data, 0, bytes);
  if (int err = picture_attach(p, data, bytes, {BufType::kHost, release_heap, nullptr})) {
    std::free(data);
    return err;
  }
  *pic = p;
  return 0;
}

int vmaf_picture_unref(VmafPicture* pic) {
  if (!pic || !pic->ref || !pic->priv) return -EINVAL;
  if (pic->ref->count.fetch_sub(1) == 1) {
    auto* priv = static_cast<PicturePriv*>(pic->priv);
    if (priv->release) priv->release(pic, priv->cookie);
    delete priv;
    delete pic->ref;
  }
  std::memset(pic, 0, sizeof *pic);
  return 0;
}

int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key, const char* val) {
  if (!dict || !key || !val || !*key) return -EINVAL;
  try {
    if (!*dict) *dict = new VmafFeatureDictionary;
    (*dict)->entries[key] = vmafx::normalize_numeric(val);
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  } catch (...) {
    return -EINVAL;
  }
}

int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict) {
  if (!dict) return -EINVAL;
  delete *dict;
  *dict = nullptr;
  return 0;
}

}  // extern "C"
