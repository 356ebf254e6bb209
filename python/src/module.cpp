// SPDX-License-Identifier: BSD-3-Clause
// vmaf_exact._core: the Python module's native half, over the public C++ API
// (include/vmaf_exact) only. The Python half (vmaf_exact/__init__.py) shapes
// arguments and results; everything here that scores runs without the GIL.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vmaf_exact/vmaf_exact.hpp"

#ifdef VMAFX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using vmafx::Error;

// Python's exception classes, one per Error::Kind (index = kind).
PyObject* g_errors[6] = {};
PyObject* g_error_base = nullptr;

vmafx::ChromaFormat parse_chroma(const std::string& s, const char* what) {
  if (s == "420") return vmafx::ChromaFormat::k420;
  if (s == "422") return vmafx::ChromaFormat::k422;
  if (s == "444") return vmafx::ChromaFormat::k444;
  if (s == "400") return vmafx::ChromaFormat::k400;
  throw Error(std::string(what) + " " + s + ": expected 420, 422, 444 or 400");
}

vmafx::SessionConfig make_config(std::vector<std::string> models, std::vector<std::string> features, bool no_prediction,
                                 long threads, long subsample, std::string backend, long gpu, std::string libvmaf_cpu) {
  if (threads < 0) throw Error("threads " + std::to_string(threads) + ": expected 0 (automatic) or more");
  if (subsample < 1) throw Error("subsample " + std::to_string(subsample) + ": expected 1 or more");
  if (gpu < 0) throw Error("gpu " + std::to_string(gpu) + ": expected a device index, 0 or more");
  vmafx::SessionConfig c;
  c.models = std::move(models);
  c.features = std::move(features);
  c.no_prediction = no_prediction;
  c.threads = unsigned(threads);
  c.subsample = unsigned(subsample);
  c.backend = std::move(backend);
  c.gpu = int(gpu);
  c.libvmaf_cpu = std::move(libvmaf_cpu);
  return c;
}

// Everything a finished session gives back, gathered without the GIL.
struct Output {
  struct Series {
    std::string name;
    std::vector<double> value;
    std::vector<char> written;
  };
  std::vector<Series> series;
  std::vector<std::pair<std::string, double>> aggregate;
  std::vector<vmafx::ModelSummary> summaries;
  unsigned frames = 0, subsample = 1, threads = 0;
  vmafx::PictureFormat fmt;
  double fps = 0, seconds = 0;
  std::vector<std::string> notices;
  std::string backend;
  vmafx::RangeContext range;
};

void gather(const vmafx::Session& s, const vmafx::PictureFormat& fmt, double secs, Output& o) {
  const vmafx::FeatureCollector& fc = s.scores();
  const unsigned n = s.frames();
  for (const auto& src : fc.all()) {
    Output::Series d{src.name, std::vector<double>(n, 0.0), std::vector<char>(n, 0)};
    for (unsigned i = 0; i < n && i < src.value.size(); ++i)
      if (src.has(i)) {
        d.value[i] = src.value[i];
        d.written[i] = 1;
      }
    o.series.push_back(std::move(d));
  }
  o.aggregate = fc.aggregate();
  o.summaries = s.summaries();
  o.frames = n;
  o.subsample = s.config().subsample;
  o.threads = s.threads();
  o.fmt = fmt;
  o.seconds = secs;
  o.fps = secs > 0 ? n / secs : 0.0;
  o.notices = s.notices();
  o.backend = s.backend_description();
  o.range = s.range_context();
}

template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy(std::vector<T>&& v) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(heap->data(), {heap->size()}, owner);
}

nb::dict to_python(Output&& o) {
  nb::list series;
  for (Output::Series& s : o.series) {
    std::vector<std::uint8_t> written(s.written.begin(), s.written.end());
    auto values = to_numpy(std::move(s.value));
    auto mask = to_numpy(std::move(written));
    series.append(nb::make_tuple(s.name, values, mask));
  }
  nb::list agg;
  for (auto& [k, v] : o.aggregate) agg.append(nb::make_tuple(k, v));
  nb::list models;
  for (const auto& m : o.summaries)
    models.append(nb::make_tuple(m.name, m.bootstrap, m.mean, m.ci_lo, m.ci_hi, m.stddev));
  nb::dict d;
  d["series"] = series;
  d["aggregate"] = agg;
  d["models"] = models;
  d["frames"] = o.frames;
  d["subsample"] = o.subsample;
  d["threads"] = o.threads;
  d["width"] = o.fmt.width;
  d["height"] = o.fmt.height;
  d["bpc"] = o.fmt.bpc;
  d["chroma"] = std::string(vmafx::chroma_name(o.fmt.chroma));
  d["fps"] = o.fps;
  d["seconds"] = o.seconds;
  d["notices"] = o.notices;
  d["backend"] = o.backend;
  d["range"] = nb::make_tuple(o.range.before, o.range.after, o.range.subsample, o.range.unsplittable);
  return d;
}

std::optional<vmafx::RawFormat> make_raw(std::optional<std::tuple<long, long, std::string, long>> raw) {
  if (!raw) return std::nullopt;
  auto [w, h, chroma, bpc] = *raw;
  if (w <= 0 || h <= 0)
    throw Error("raw format: width and height must be positive (got " + std::to_string(w) + "x" + std::to_string(h) +
                ")");
  if (bpc < 8 || bpc > 16) throw Error("raw format: bitdepth " + std::to_string(bpc) + ": expected 8 to 16");
  const vmafx::ChromaFormat c = parse_chroma(chroma, "raw format: pixel_format");
  if (c == vmafx::ChromaFormat::k400) throw Error("raw format: pixel_format 400: expected 420, 422 or 444");
  return vmafx::RawFormat{int(w), int(h), c, int(bpc)};
}

// The CLI's advice for clips of different lengths, in the module's words.
[[noreturn]] void rethrow_with_advice(const Error& e) {
  std::string what = e.what();
  if (what.size() > 9 && what.compare(what.size() - 9, 9, " has more") == 0)
    what += " (use frame_cnt to score a prefix)";
  throw Error(what, e.kind());
}

// What `vmaf -r ref -d dis ...` computes, returned instead of written.
nb::dict score_files(const std::string& ref_path, const std::string& dis_path, vmafx::SessionConfig cfg,
                     std::optional<std::tuple<long, long, std::string, long>> raw_arg, long skip_ref, long skip_dis,
                     long frame_cnt, const std::string& scale) {
  if (skip_ref < 0 || skip_dis < 0 || frame_cnt < 0)
    throw Error("frame_skip_ref, frame_skip_dist and frame_cnt must be 0 or more");
  const auto raw = make_raw(raw_arg);
  Output out;
  {
    nb::gil_scoped_release nogil;
    try {
      auto ref = vmafx::open_video(ref_path, raw);
      std::string scaled;
      auto dis = vmafx::open_rendition(dis_path, *ref, raw, {}, scale, &scaled);
      const vmafx::PictureFormat fmt = ref->format();
      vmafx::Session session(fmt, cfg);
      vmafx::FrameSource source(
          *ref, *dis, session,
          {.skip_ref = unsigned(skip_ref), .skip_dis = unsigned(skip_dis), .max_frames = unsigned(frame_cnt)});
      const auto t0 = std::chrono::steady_clock::now();
      unsigned n = 0;
      std::shared_ptr<vmafx::Picture> a, b;
      while (source.next(a, b)) {
        session.push(std::move(a), std::move(b));
        ++n;
      }
      if (n == 0) throw Error(ref_path + ": no frames to score");
      session.finish();
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      gather(session, fmt, secs, out);
    } catch (const Error& e) {
      rethrow_with_advice(e);
    }
  }
  return to_python(std::move(out));
}

// What `vmaf -r ref -d dis1 -d dis2 ...` computes: per rendition a result
// dict, or the (kind, message) of the error that stopped it.
nb::list score_ladder_files(const std::string& ref_path, const std::vector<std::string>& dis_paths,
                            vmafx::SessionConfig cfg, std::optional<std::tuple<long, long, std::string, long>> raw_arg,
                            long skip_ref, long skip_dis, long frame_cnt, const std::string& scale, bool sync_auto,
                            long sync_window, bool shortest) {
  if (skip_ref < 0 || skip_dis < 0 || frame_cnt < 0)
    throw Error("frame_skip_ref, frame_skip_dist and frame_cnt must be 0 or more");
  if (dis_paths.empty()) throw Error("score_ladder needs at least one distorted clip");
  const auto raw = make_raw(raw_arg);
  const std::size_t n = dis_paths.size();
  std::vector<Output> outs(n);
  std::vector<std::optional<std::pair<std::string, std::string>>> errors(n);
  std::vector<int> offsets(n, 0);
  {
    nb::gil_scoped_release nogil;
    auto ref = vmafx::open_video(ref_path, raw);
    const vmafx::PictureFormat fmt = ref->format();
    std::vector<std::unique_ptr<vmafx::VideoReader>> dis(n);
    std::vector<std::unique_ptr<vmafx::Session>> sessions(n);
    std::vector<vmafx::LadderSource::Rendition> rungs;
    std::vector<std::size_t> rung_of;
    for (std::size_t k = 0; k < n; ++k) {
      try {
        if (sync_auto) {
          auto a = vmafx::open_video(ref_path, raw);
          auto b = vmafx::open_video(dis_paths[k], raw);
          offsets[k] = vmafx::find_sync_offset(*a, *b, int(sync_window)).offset;
        }
        dis[k] = vmafx::open_rendition(dis_paths[k], *ref, raw, {}, scale);
      } catch (const Error& e) {
        errors[k] = {vmafx::kind_name(e.kind()), e.what()};
        continue;
      }
      sessions[k] = std::make_unique<vmafx::Session>(fmt, cfg);
      rungs.push_back({dis[k].get(), sessions[k].get(), offsets[k]});
      rung_of.push_back(k);
    }
    if (!rungs.empty()) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto outcome = vmafx::LadderSource(*ref, rungs,
                                               {.skip_ref = unsigned(skip_ref),
                                                .skip_dis = unsigned(skip_dis),
                                                .max_frames = unsigned(frame_cnt),
                                                .shortest = shortest})
                               .run();
      for (std::size_t r = 0; r < rungs.size(); ++r) {
        const std::size_t k = rung_of[r];
        try {
          if (!outcome[r].error.empty()) {
            std::string what = outcome[r].error;
            if (what.size() > 9 && what.compare(what.size() - 9, 9, " has more") == 0)
              what += " (use frame_cnt to score a prefix)";
            throw Error(what, Error::Kind::kInput);
          }
          if (outcome[r].frames == 0) throw Error(dis_paths[k] + ": no frames to score", Error::Kind::kInput);
          sessions[k]->finish();
          const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          gather(*sessions[k], fmt, secs, outs[k]);
        } catch (const Error& e) {
          errors[k] = {vmafx::kind_name(e.kind()), e.what()};
        }
      }
    }
    for (std::size_t k = n; k-- > 0;) sessions[k].reset();  // the first one's pictures are shared: it goes last
  }
  nb::list out;
  for (std::size_t k = 0; k < n; ++k) {
    if (errors[k]) {
      out.append(nb::make_tuple(errors[k]->first, errors[k]->second));
    } else {
      nb::dict d = to_python(std::move(outs[k]));
      d["offset"] = offsets[k];
      out.append(d);
    }
  }
  return out;
}

// Frames in a clip (read through to its end).
unsigned count_frames(const std::string& path, std::optional<std::tuple<long, long, std::string, long>> raw_arg) {
  const auto raw = make_raw(raw_arg);
  nb::gil_scoped_release nogil;
  auto r = vmafx::open_video(path, raw);
  vmafx::Picture scratch(r->format());
  unsigned n = 0;
  while (r->skip(scratch)) ++n;
  return n;
}

// A clip's format from its header (or `raw`): (width, height, bpc, chroma).
std::tuple<int, int, int, std::string> probe(const std::string& path,
                                             std::optional<std::tuple<long, long, std::string, long>> raw_arg) {
  const auto raw = make_raw(raw_arg);
  nb::gil_scoped_release nogil;
  auto r = vmafx::open_video(path, raw);
  const vmafx::PictureFormat& f = r->format();
  return {f.width, f.height, f.bpc, vmafx::chroma_name(f.chroma)};
}

// A collector from the Python side's series (name, values, written), in order.
using Values = nb::ndarray<const double, nb::ndim<1>, nb::device::cpu>;
using Mask = nb::ndarray<const std::uint8_t, nb::ndim<1>, nb::device::cpu>;
using SeriesIn = std::vector<std::tuple<std::string, Values, Mask>>;

vmafx::FeatureCollector make_collector(const SeriesIn& series,
                                       const std::vector<std::pair<std::string, double>>& aggregate) {
  vmafx::FeatureCollector fc;
  for (const auto& [name, v, w] : series) {
    if (v.shape(0) != w.shape(0)) throw Error("series " + name + ": values and mask differ in length");
    auto vv = v.view();
    auto ww = w.view();
    for (std::size_t i = 0; i < v.shape(0); ++i)
      if (ww(i)) fc.append(name, unsigned(i), vv(i));
  }
  for (const auto& [k, x] : aggregate) fc.append_aggregate(k, x);
  return fc;
}

vmafx::OutputFormat parse_format(const std::string& f) {
  if (f == "xml") return vmafx::OutputFormat::kXml;
  if (f == "json") return vmafx::OutputFormat::kJson;
  if (f == "csv") return vmafx::OutputFormat::kCsv;
  if (f == "sub") return vmafx::OutputFormat::kSub;
  throw Error("report format " + f + ": expected xml, json, csv or sub");
}

std::string report_text(const std::string& format, const SeriesIn& series,
                        const std::vector<std::pair<std::string, double>>& aggregate, long frames, long subsample,
                        long width, long height, double fps, long digits, const std::string& percentiles) {
  if (digits < 0 || digits > 17) throw Error("precision " + std::to_string(digits) + ": expected 1..17 or max");
  const vmafx::OutputFormat fmt = parse_format(format);
  const vmafx::FeatureCollector fc = make_collector(series, aggregate);
  vmafx::ReportInfo info;
  info.frames = unsigned(frames);
  info.subsample = unsigned(subsample);
  info.width = int(width);
  info.height = int(height);
  info.fps = fps;
  info.precision.digits = int(digits);
  if (!percentiles.empty()) info.percentiles = vmafx::parse_percentiles(percentiles);
  return vmafx::report_text(fmt, fc, info);
}

// The HTML report of one rendition (vmaf_exact/html.hpp); with `ref` and
// `dis`, the worst frames' thumbnails read from those files (after skipping
// skip_ref / skip_dis frames).
std::string html_text(const SeriesIn& series, const std::vector<std::pair<std::string, double>>& aggregate, long frames,
                      long subsample, long width, long height, double fps, long digits,
                      const std::vector<std::string>& models, const std::string& title, const std::string& backend,
                      long worst, const std::string& percentiles, const std::string& ref, const std::string& dis,
                      long skip_ref, long skip_dis) {
  if (digits < 0 || digits > 17) throw Error("precision " + std::to_string(digits) + ": expected 1..17 or max");
  if (worst < 0) throw Error("worst " + std::to_string(worst) + ": expected 0 or more");
  if (skip_ref < 0 || skip_dis < 0) throw Error("skip_ref/skip_dis: expected 0 or more");
  const vmafx::FeatureCollector fc = make_collector(series, aggregate);
  vmafx::HtmlRendition r;
  r.label = dis.empty() ? "distorted" : dis;
  r.scores = &fc;
  r.info.frames = unsigned(frames);
  r.info.subsample = unsigned(subsample);
  r.info.width = int(width);
  r.info.height = int(height);
  r.info.fps = fps;
  r.info.precision.digits = int(digits);
  if (!percentiles.empty()) r.info.percentiles = vmafx::parse_percentiles(percentiles);
  r.description = std::to_string(width) + "x" + std::to_string(height);
  vmafx::HtmlRunInfo run{.title = title, .reference = ref, .models = models, .backend = backend};
  vmafx::HtmlOptions opts{.worst = unsigned(worst)};
  if (!ref.empty() && !dis.empty())
    opts.reopen = [&](std::size_t) {
      auto a = vmafx::open_video(ref), b = vmafx::open_video(dis);
      vmafx::Picture sa(a->format()), sb(b->format());
      for (long i = 0; i < skip_ref; ++i) a->skip(sa);
      for (long i = 0; i < skip_dis; ++i) b->skip(sb);
      return std::make_pair(std::move(a), std::move(b));
    };
  nb::gil_scoped_release nogil;
  return vmafx::html_report({r}, run, opts);
}

std::optional<double> pool(const std::string& name, Values v, Mask w, const std::string& method, long frames,
                           long subsample) {
  vmafx::PoolMethod m;
  if (method == "min")
    m = vmafx::PoolMethod::kMin;
  else if (method == "max")
    m = vmafx::PoolMethod::kMax;
  else if (method == "mean")
    m = vmafx::PoolMethod::kMean;
  else if (method == "harmonic_mean")
    m = vmafx::PoolMethod::kHarmonicMean;
  else
    throw Error("pool method " + method + ": expected min, max, mean or harmonic_mean");
  const vmafx::FeatureCollector fc = make_collector({{name, v, w}}, {});
  const vmafx::FeatureCollector::Series* s = fc.find(name);
  if (!s) return std::nullopt;
  return vmafx::pool(*s, m, unsigned(frames), unsigned(subsample));
}

// A plane from Python: 2-D, uint8 (8-bit) or uint16; host memory with any
// strides, or (CUDA builds) CUDA memory through DLPack with unit column
// stride and positive row stride (CuPy, PyTorch), copied to the host picture.
using PlaneIn = nb::ndarray<nb::ro, nb::ndim<2>>;

// A streaming session fed numpy planes.
class PySession {
 public:
  PySession(long width, long height, long bpc, const std::string& chroma, vmafx::SessionConfig cfg) {
    if (width <= 0 || height <= 0)
      throw Error("Session: width and height must be positive (got " + std::to_string(width) + "x" +
                  std::to_string(height) + ")");
    if (bpc < 8 || bpc > 16) throw Error("Session: bitdepth " + std::to_string(bpc) + ": expected 8 to 16");
    fmt_ = {int(width), int(height), int(bpc), parse_chroma(chroma, "Session: pixel_format")};
    session_ = std::make_unique<vmafx::Session>(fmt_, cfg);
  }

  void push(const std::vector<PlaneIn>& ref, const std::vector<PlaneIn>& dis) {
    if (finished_) throw Error("Session: push after finish");
    check("reference", ref);
    check("distorted", dis);
    nb::gil_scoped_release nogil;
    if (frames_ == 0) t0_ = std::chrono::steady_clock::now();
    auto a = session_->acquire();
    fill(*a, ref);
    auto b = session_->acquire();
    fill(*b, dis);
    session_->push(std::move(a), std::move(b));
    ++frames_;
  }

  nb::dict finish() {
    if (finished_) throw Error("Session: finish called twice");
    if (frames_ == 0) throw Error("Session: no frames to score");
    Output out;
    {
      nb::gil_scoped_release nogil;
      session_->finish();
      finished_ = true;
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
      gather(*session_, fmt_, secs, out);
    }
    return to_python(std::move(out));
  }

  unsigned frames() const { return frames_; }
  unsigned threads() const { return session_->threads(); }
  std::string backend() const { return session_->backend_description(); }
  std::vector<std::string> notices() const { return session_->notices(); }
  nb::tuple range() const {
    const vmafx::RangeContext r = session_->range_context();
    return nb::make_tuple(r.before, r.after, r.subsample, r.unsplittable);
  }

 private:
  void check(const char* which, const std::vector<PlaneIn>& planes) const {
    const int n = fmt_.plane_count();
    const std::string frame = "Session: frame " + std::to_string(frames_) + " " + which;
    if (int(planes.size()) != n)
      throw Error(frame + ": expected " + std::to_string(n) + " plane" + (n > 1 ? "s" : "") + " (got " +
                  std::to_string(planes.size()) + ")");
    const bool wide = fmt_.bpc > 8;
    for (int p = 0; p < n; ++p) {
      const PlaneIn& a = planes[std::size_t(p)];
      const std::string pl = frame + " plane " + std::to_string(p);
      if (wide ? a.dtype() != nb::dtype<std::uint16_t>() : a.dtype() != nb::dtype<std::uint8_t>())
        throw Error(pl + ": expected dtype " + (wide ? "uint16" : "uint8") + " for " + std::to_string(fmt_.bpc) +
                    "-bit samples");
      if (long(a.shape(0)) != fmt_.plane_height(p) || long(a.shape(1)) != fmt_.plane_width(p))
        throw Error(pl + ": expected shape (" + std::to_string(fmt_.plane_height(p)) + ", " +
                    std::to_string(fmt_.plane_width(p)) + "), got (" + std::to_string(a.shape(0)) + ", " +
                    std::to_string(a.shape(1)) + ")");
      if (a.device_type() == nb::device::cuda::value) {
#ifdef VMAFX_HAVE_CUDA
        if (a.stride(1) != 1 || (a.shape(0) > 1 && a.stride(0) < a.stride(1) * std::int64_t(a.shape(1))))
          throw Error(pl + ": a CUDA plane needs contiguous rows in order (column stride 1, row stride >= width)");
#else
        throw Error(pl + ": CUDA arrays need a build with the CUDA backend (this one has none)");
#endif
      } else if (a.device_type() != nb::device::cpu::value) {
        throw Error(pl + ": expected a host (numpy) or CUDA array (DLPack device type " +
                    std::to_string(a.device_type()) + ")");
      }
    }
  }

  // Copies each plane row by row into the picture (strided views are read in
  // place: no copy on the Python side).
  void fill(vmafx::Picture& pic, const std::vector<PlaneIn>& planes) const {
    const std::size_t bytes = std::size_t(fmt_.bytes_per_sample());
    for (int p = 0; p < fmt_.plane_count(); ++p) {
      const PlaneIn& a = planes[std::size_t(p)];
      const int w = fmt_.plane_width(p), h = fmt_.plane_height(p);
      const auto* base = static_cast<const std::uint8_t*>(a.data());
      const std::ptrdiff_t rs = std::ptrdiff_t(a.stride(0)) * std::ptrdiff_t(bytes);
      const std::ptrdiff_t cs = std::ptrdiff_t(a.stride(1)) * std::ptrdiff_t(bytes);
#ifdef VMAFX_HAVE_CUDA
      if (a.device_type() == nb::device::cuda::value) {
        const cudaError_t e = cudaMemcpy2D(pic.plane_data(p), std::size_t(pic.stride(p)), base, std::size_t(rs),
                                           std::size_t(w) * bytes, std::size_t(h), cudaMemcpyDefault);
        if (e != cudaSuccess)
          throw Error(std::string("Session: copying a CUDA plane to the host failed: ") + cudaGetErrorString(e),
                      Error::Kind::kDevice);
        continue;
      }
#endif
      for (int y = 0; y < h; ++y) {
        const std::uint8_t* src = base + y * rs;
        std::uint8_t* dst = pic.plane_data(p) + y * pic.stride(p);
        if (cs == std::ptrdiff_t(bytes)) {
          std::memcpy(dst, src, std::size_t(w) * bytes);
        } else if (bytes == 1) {
          for (int x = 0; x < w; ++x) dst[x] = src[x * cs];
        } else {
          auto* d16 = reinterpret_cast<std::uint16_t*>(dst);
          for (int x = 0; x < w; ++x) std::memcpy(&d16[x], src + x * cs, 2);
        }
      }
    }
  }

  vmafx::PictureFormat fmt_;
  std::unique_ptr<vmafx::Session> session_;
  unsigned frames_ = 0;
  bool finished_ = false;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "vmaf-exact's native module (use the vmaf_exact package)";

  // Error (RuntimeError) and one subclass per kind, each with .kind.
  {
    nb::dict base_attrs;
    base_attrs["kind"] = "error";
    base_attrs["__module__"] = "vmaf_exact";
    base_attrs["__doc__"] = "A vmaf-exact failure: the CLI's one-line message; .kind says what it is about.";
    g_error_base = PyErr_NewException("vmaf_exact.Error", PyExc_RuntimeError, base_attrs.ptr());
    m.attr("Error") = nb::handle(g_error_base);
    const struct {
      vmafx::Error::Kind kind;
      const char* cls;
      PyObject* extra;
    } kinds[] = {
        {vmafx::Error::Kind::kUsage, "UsageError", PyExc_ValueError},
        {vmafx::Error::Kind::kInput, "InputError", PyExc_OSError},
        {vmafx::Error::Kind::kUnsupported, "UnsupportedError", nullptr},
        {vmafx::Error::Kind::kModel, "ModelError", nullptr},
        {vmafx::Error::Kind::kDevice, "DeviceError", nullptr},
        {vmafx::Error::Kind::kOutput, "OutputError", PyExc_OSError},
    };
    for (const auto& k : kinds) {
      nb::dict attrs;
      attrs["kind"] = vmafx::kind_name(k.kind);
      attrs["__module__"] = "vmaf_exact";
      PyObject* bases = k.extra ? PyTuple_Pack(2, g_error_base, k.extra) : PyTuple_Pack(1, g_error_base);
      const std::string qual = std::string("vmaf_exact.") + k.cls;
      PyObject* t = PyErr_NewException(qual.c_str(), bases, attrs.ptr());
      Py_DECREF(bases);
      g_errors[int(k.kind)] = t;
      m.attr(k.cls) = nb::handle(t);
    }
  }
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const vmafx::Error& e) {
      PyObject* t = g_errors[int(e.kind())];
      PyErr_SetString(t ? t : g_error_base, e.what());
    }
  });

  nb::class_<vmafx::SessionConfig>(m, "_Config");
  m.def("make_config", &make_config, "models"_a, "features"_a, "no_prediction"_a, "threads"_a, "subsample"_a,
        "backend"_a, "gpu"_a, "libvmaf_cpu"_a);
  m.def("score_files", &score_files, "ref"_a, "dis"_a, "config"_a, "raw"_a.none(), "skip_ref"_a, "skip_dis"_a,
        "frame_cnt"_a, "scale"_a);
  m.def("score_ladder_files", &score_ladder_files, "ref"_a, "dis"_a, "config"_a, "raw"_a.none(), "skip_ref"_a,
        "skip_dis"_a, "frame_cnt"_a, "scale"_a, "sync_auto"_a, "sync_window"_a, "shortest"_a);
  m.def("count_frames", &count_frames, "path"_a, "raw"_a.none());
  m.def("probe", &probe, "path"_a, "raw"_a.none());
  m.def("report_text", &report_text, "format"_a, "series"_a, "aggregate"_a, "frames"_a, "subsample"_a, "width"_a,
        "height"_a, "fps"_a, "digits"_a, "percentiles"_a = "");
  m.def("html_text", &html_text, "series"_a, "aggregate"_a, "frames"_a, "subsample"_a, "width"_a, "height"_a, "fps"_a,
        "digits"_a, "models"_a, "title"_a, "backend"_a, "worst"_a, "percentiles"_a, "ref"_a, "dis"_a, "skip_ref"_a,
        "skip_dis"_a);
  m.def("pool", &pool, "name"_a, "values"_a, "written"_a, "method"_a, "frames"_a, "subsample"_a);
  m.def("available_backends", &vmafx::available_backends);
  m.def("list_devices", &vmafx::list_devices);
  m.def("describe_features", &vmafx::describe_features);
  m.attr("version") = VMAF_EXACT_VERSION;
  m.attr("libvmaf_version") = std::string(vmafx::kLibvmafVersion);

  nb::class_<PySession>(m, "_Session")
      .def(nb::init<long, long, long, const std::string&, vmafx::SessionConfig>(), "width"_a, "height"_a, "bpc"_a,
           "chroma"_a, "config"_a)
      .def("push", &PySession::push, "ref"_a, "dis"_a)
      .def("finish", &PySession::finish)
      .def_prop_ro("frames", &PySession::frames)
      .def_prop_ro("threads", &PySession::threads)
      .def_prop_ro("backend", &PySession::backend)
      .def_prop_ro("notices", &PySession::notices)
      .def_prop_ro("range", &PySession::range);
}
