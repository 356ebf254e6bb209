// vmaf: libvmaf-compatible command line front end of vmaf-exact.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "backend/backends.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/options.hpp"
#include "io/video_reader.hpp"
#include "model/model.hpp"
#include "output/report.hpp"

namespace vmafx {
namespace {

constexpr const char* kVersion = "0.1.0";

struct Settings {
  std::string ref_path, dis_path;
  unsigned width = 0, height = 0, bitdepth = 0;
  std::string pix_fmt;
  std::vector<std::string> models;
  std::vector<std::string> features;
  std::string output_path;
  OutputFormat output_fmt = OutputFormat::kXml;
  unsigned threads = 0;
  unsigned subsample = 1;
  unsigned frame_cnt = 0;
  unsigned frame_skip_ref = 0, frame_skip_dist = 0;
  std::string precision;
  std::string backend = "cpu";
  int gpu = 0;
  bool no_prediction = false;
  bool quiet = false;
};

struct ParsedModel {
  std::optional<std::string> version, path;
  ModelOptions opts;
};

// "version=vmaf_v0.6.1:name=foo:disable_clip:adm.adm_enhn_gain_limit=1.0"
ParsedModel parse_model_arg(const std::string& arg) {
  ParsedModel m;
  std::size_t pos = 0;
  while (pos <= arg.size()) {
    std::size_t end = arg.find(':', pos);
    if (end == std::string::npos) end = arg.size();
    std::string item = arg.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) {
      if (end == arg.size()) break;
      throw Error("--model " + arg + ": empty item");
    }
    std::size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    std::string val = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq == std::string::npos) {
      if (key == "disable_clip" || key == "enable_transform")
        val = "true";
      else
        throw Error("--model " + arg + ": bad option string '" + key + "' (expected key=value)");
    }
    if (key == "version") {
      m.version = val;
    } else if (key == "path") {
      m.path = val;
    } else if (key == "name") {
      if (val.empty()) throw Error("--model " + arg + ": empty name");
      m.opts.name = val;
    } else if (key == "disable_clip" || key == "enable_transform") {
      if (val != "true" && val != "false")
        throw Error("--model " + arg + ": " + key + " must be true or false");
      (key == "disable_clip" ? m.opts.disable_clip : m.opts.enable_transform) = val == "true";
    } else if (std::size_t dot = key.find('.'); dot != std::string::npos && dot > 0 && dot + 1 < key.size()) {
      m.opts.feature_overloads.push_back({key.substr(0, dot), key.substr(dot + 1), val});
    } else {
      throw Error("--model " + arg + ": unknown key '" + key +
                  "' (expected version, path, name, disable_clip, enable_transform or extractor.option)");
    }
    if (end == arg.size()) break;
  }
  if (m.version && m.path) throw Error("--model " + arg + ": give either version= or path=, not both");
  if (!m.version && !m.path) throw Error("--model " + arg + ": needs version= or path=");
  return m;
}

FeatureRequest parse_feature_arg(const std::string& arg) {
  FeatureRequest r;
  std::size_t eq = arg.find('=');
  r.extractor = arg.substr(0, eq);
  if (r.extractor.empty()) throw Error("--feature " + arg + ": empty feature name");
  if (eq != std::string::npos) r.opts = parse_option_string(std::string_view(arg).substr(eq + 1), r.extractor);
  return r;
}

ChromaFormat parse_pix_fmt(const std::string& s) {
  if (s == "420") return ChromaFormat::k420;
  if (s == "422") return ChromaFormat::k422;
  if (s == "444") return ChromaFormat::k444;
  throw Error("-p/--pixel_format " + s + ": expected 420, 422 or 444");
}

std::string describe(const PictureFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + chroma_name(f.chroma) + " " +
         std::to_string(f.bpc) + "-bit";
}

// Writes to a temporary file beside the target and renames it into place, so a
// failed run never leaves a partial report.
void write_output(const Settings& s, const FeatureCollector& fc, const ReportInfo& info) {
  if (s.output_path == "-") {
    write_report(stdout, s.output_fmt, fc, info);
    return;
  }
  std::string tmp = s.output_path + ".tmp.XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) throw Error(s.output_path + ": cannot create output file: " + std::strerror(errno));
  std::FILE* f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    std::remove(tmp.c_str());
    throw Error(s.output_path + ": cannot write output file");
  }
  try {
    write_report(f, s.output_fmt, fc, info);
  } catch (const Error&) {
    std::fclose(f);
    std::remove(tmp.c_str());
    throw Error(s.output_path + ": write failed");
  }
  if (std::fclose(f) != 0) {
    std::remove(tmp.c_str());
    throw Error(s.output_path + ": write failed");
  }
  // mkstemp makes the file 0600; give it the permissions a plain fopen would.
  mode_t mask = umask(0);
  umask(mask);
  chmod(tmp.c_str(), 0666 & ~mask);
  if (std::rename(tmp.c_str(), s.output_path.c_str()) != 0) {
    int e = errno;
    std::remove(tmp.c_str());
    throw Error(s.output_path + ": cannot write output file: " + std::strerror(e));
  }
}

int run(const Settings& s) {
  // Device backend: cpu, a named one, or auto (the first that starts; the CPU
  // otherwise, and the CPU for extractors without a twin, with a notice).
  std::unique_ptr<Backend> backend;
  if (s.backend == "auto") {
    for (const std::string& name : available_backends()) {
      try {
        backend = create_backend(name, s.gpu);
        break;
      } catch (const Error& e) {
        if (!s.quiet) std::fprintf(stderr, "vmaf: notice: %s; trying the next backend\n", e.what());
      }
    }
    if (!backend && !s.quiet) std::fprintf(stderr, "vmaf: notice: no GPU backend available, using the CPU\n");
  } else if (s.backend != "cpu") {
    backend = create_backend(s.backend, s.gpu);
  }
  const bool raw_args = s.width || s.height || s.bitdepth || !s.pix_fmt.empty();
  std::optional<RawFormat> raw;
  if (raw_args) {
    if (!s.width || !s.height || !s.bitdepth || s.pix_fmt.empty())
      throw Error("raw .yuv input needs all of -w/--width, -h/--height, -p/--pixel_format and -b/--bitdepth");
    if (s.bitdepth < 8 || s.bitdepth > 16)
      throw Error("-b/--bitdepth " + std::to_string(s.bitdepth) + ": expected 8 to 16");
    raw = RawFormat{int(s.width), int(s.height), parse_pix_fmt(s.pix_fmt), int(s.bitdepth)};
  }
  Precision precision;
  if (!s.precision.empty()) {
    if (s.precision == "max") {
      precision.digits = 17;
    } else {
      char* end = nullptr;
      long d = std::strtol(s.precision.c_str(), &end, 10);
      if (*end || d < 1 || d > 17) throw Error("--precision " + s.precision + ": expected 1..17 or max");
      precision.digits = int(d);
    }
  }
  if (s.subsample == 0) throw Error("--subsample 0: expected 1 or more");

  // Inputs first: a bad file is the most common mistake.
  auto ref = open_video(s.ref_path, raw);
  auto dis = open_video(s.dis_path, raw);
  if (ref->format() != dis->format())
    throw Error("videos are incompatible: " + s.ref_path + " is " + describe(ref->format()) + ", " + s.dis_path +
                " is " + describe(dis->format()));
  const PictureFormat fmt = ref->format();

  // Models, then features, registered in libvmaf's order.
  std::vector<Model> models;
  if (!s.no_prediction) {
    std::vector<std::string> model_args = s.models;
    if (model_args.empty()) model_args.push_back("version=vmaf_v0.6.1");
    for (const std::string& a : model_args) {
      ParsedModel pm = parse_model_arg(a);
      models.push_back(pm.version ? Model::builtin(*pm.version, pm.opts) : Model::from_file(*pm.path, pm.opts));
    }
    for (std::size_t i = 0; i < models.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (models[i].name() == models[j].name())
          throw Error("--model: two models are named '" + models[i].name() + "'; set name=... on one of them");
  }
  EngineOptions eopts;
  eopts.threads = s.threads;
  eopts.subsample = s.subsample;
  eopts.backend = backend.get();
  eopts.cpu_fallback = s.backend == "auto";
  Engine engine(fmt, eopts);
  std::vector<std::vector<std::string>> model_inputs(models.size());
  for (std::size_t m = 0; m < models.size(); ++m)
    for (const ModelFeature& f : models[m].features()) model_inputs[m].push_back(engine.use_feature(f.name, f.opts));
  for (const std::string& a : s.features) engine.use(parse_feature_arg(a));
  if (backend && !s.quiet) {
    std::string fb;
    for (const std::string& f : engine.cpu_fallbacks()) fb += " " + f;
    std::fprintf(stderr, "vmaf: %s backend on %s%s%s\n", std::string(backend->name()).c_str(),
                 backend->device_name().c_str(), fb.empty() ? "" : "; on the CPU:", fb.c_str());
  }

  // Frames.
  auto skip = [&](VideoReader& r, unsigned n) {
    auto pic = engine.acquire();
    for (unsigned i = 0; i < n; ++i)
      if (!r.read(*pic)) throw Error(r.path() + ": has only " + std::to_string(i) + " frames, cannot skip " + std::to_string(n));
  };
  skip(*ref, s.frame_skip_ref);
  skip(*dis, s.frame_skip_dist);

  const bool progress = !s.quiet && isatty(fileno(stderr));
  const auto t0 = std::chrono::steady_clock::now();
  unsigned n = 0;
  for (; !s.frame_cnt || n < s.frame_cnt; ++n) {
    auto a = engine.acquire();
    auto b = engine.acquire();
    const bool ra = ref->read(*a);
    const bool rb = dis->read(*b);
    if (!ra && !rb) break;
    if (ra != rb) {
      const VideoReader& shorter = ra ? *dis : *ref;
      const VideoReader& longer = ra ? *ref : *dis;
      throw Error(shorter.path() + ": ended after " + std::to_string(n) + " frames, but " + longer.path() +
                  " has more (use --frame_cnt to score a prefix)");
    }
    engine.push(std::move(a), std::move(b));
    if (progress && (n % 10 == 9)) {
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "\r%u frames %.2f FPS\033[K", n + 1, secs > 0 ? (n + 1) / secs : 0.0);
    }
  }
  if (n == 0) throw Error(s.ref_path + ": no frames to score");
  engine.finish();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double fps = secs > 0 ? n / secs : 0.0;
  if (progress) std::fprintf(stderr, "\r%u frames %.2f FPS\033[K\n", n, fps);

  // Predictions, as libvmaf's CLI does them: each model's own score for every
  // frame, then the bootstrap statistics of each collection.
  FeatureCollector& fc = engine.collector();
  std::vector<std::vector<std::pair<std::string, double>>> extra(models.size());
  std::vector<double> values;
  for (std::size_t m = 0; m < models.size(); ++m) {
    for (unsigned i = 0; i < n; ++i) {
      if (s.subsample > 1 && i % s.subsample) continue;
      values.clear();
      for (const std::string& name : model_inputs[m]) {
        const FeatureCollector::Series* ser = fc.find(name);
        if (!ser || !ser->has(i)) throw Error("model " + models[m].name() + ": feature " + name + " missing at frame " + std::to_string(i));
        values.push_back(ser->value[i]);
      }
      auto scores = models[m].predict(values);
      fc.append(scores[0].first, i, scores[0].second);
      for (std::size_t k = 1; k < scores.size(); ++k) extra[m].push_back(scores[k]);
    }
  }
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (!models[m].is_bootstrap()) continue;
    const std::size_t per_frame = extra[m].size() / ((n + s.subsample - 1) / s.subsample);
    std::size_t k = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (s.subsample > 1 && i % s.subsample) continue;
      for (std::size_t j = 0; j < per_frame; ++j, ++k) fc.append(extra[m][k].first, i, extra[m][k].second);
    }
  }

  ReportInfo info;
  info.frames = n;
  info.subsample = s.subsample;
  info.width = fmt.width;
  info.height = fmt.height;
  info.fps = fps;
  info.precision = precision;
  if (!s.output_path.empty()) write_output(s, fc, info);

  if (!s.quiet || s.output_path.empty()) {
    for (const Model& m : models) {
      const FeatureCollector::Series* ser = fc.find(m.name());
      auto mean = ser ? pool(*ser, PoolMethod::kMean, n, s.subsample) : std::nullopt;
      if (!mean) continue;
      if (m.is_bootstrap()) {
        auto get = [&](const char* suffix) {
          const FeatureCollector::Series* x = fc.find(m.name() + suffix);
          auto v = x ? pool(*x, PoolMethod::kMean, n, s.subsample) : std::nullopt;
          return v ? *v : 0.0;
        };
        std::fprintf(stderr, "%s: %f, ci.p95: [%f, %f], stddev: %f\n", m.name().c_str(), get("_bagging"),
                     get("_ci_p95_lo"), get("_ci_p95_hi"), get("_stddev"));
      } else {
        std::fprintf(stderr, "%s: %f\n", m.name().c_str(), *mean);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace vmafx

int main(int argc, char** argv) {
  using namespace vmafx;
  Settings s;
  CLI::App app{"vmaf-exact: VMAF and companion metrics, bit-exact with libvmaf 3.2.0"};
  app.set_help_flag("--help", "Print this help and exit");
  app.get_formatter()->column_width(34);
  bool xml = false, json = false, csv = false, sub = false;
  app.add_option("-r,--reference", s.ref_path, "Reference clip (.y4m, or raw .yuv with -w -h -p -b)");
  app.add_option("-d,--distorted", s.dis_path, "Distorted clip (.y4m, or raw .yuv with -w -h -p -b)");
  app.add_option("-w,--width", s.width, "Width of raw .yuv input");
  app.add_option("-h,--height", s.height, "Height of raw .yuv input");
  app.add_option("-p,--pixel_format", s.pix_fmt, "Chroma format of raw .yuv input: 420, 422 or 444");
  app.add_option("-b,--bitdepth", s.bitdepth, "Bit depth of raw .yuv input: 8 to 16");
  app.add_option("-m,--model", s.models,
                 "Model: version=NAME or path=FILE, with :name=, :disable_clip, :enable_transform, "
                 ":extractor.option=value (repeatable; default version=vmaf_v0.6.1)");
  app.add_option("--feature", s.features, "Extra feature extractor: NAME[=opt=val:opt=val] (repeatable)");
  app.add_option("-o,--output", s.output_path, "Output file ('-' for standard output)");
  app.add_flag("--xml", xml, "Write XML (default)");
  app.add_flag("--json", json, "Write JSON");
  app.add_flag("--csv", csv, "Write CSV");
  app.add_flag("--sub", sub, "Write subtitles (MicroDVD)");
  app.add_option("--threads", s.threads, "Worker threads (output is identical for every count)");
  app.add_option("--subsample", s.subsample, "Score every N-th frame");
  app.add_option("--frame_cnt", s.frame_cnt, "Score at most N frames");
  app.add_option("--frame_skip_ref", s.frame_skip_ref, "Skip the first N reference frames");
  app.add_option("--frame_skip_dist", s.frame_skip_dist, "Skip the first N distorted frames");
  app.add_option("--precision", s.precision,
                 "Digits of scores: N significant digits (%.Ng), or max (%.17g, exact); default as libvmaf");
  app.add_option("--backend", s.backend, "cpu (default), cuda, opencl or auto");
  app.add_option("--gpu", s.gpu, "Device index for --backend cuda/opencl (see --list-devices)");
  bool list = false;
  app.add_flag("--list-devices", list, "List the GPU devices of every built backend and exit");
  app.add_flag("-n,--no_prediction", s.no_prediction, "Extract features only, no model");
  app.add_flag("-q,--quiet", s.quiet, "No progress line and no score summary when writing a file");
  unsigned cpumask = 0, gpumask = 0;
  app.add_option("-c,--cpumask", cpumask, "Accepted for compatibility; the reference path is always plain C++");
  app.add_option("--gpumask", gpumask, "Accepted for compatibility");
  bool version = false;
  app.add_flag("-v,--version", version, "Print the version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "vmaf: %s (see --help)\n", e.what());
    return 2;
  }
  if (list) {
    try {
      auto devs = list_devices();
      if (devs.empty()) std::printf("no GPU devices (backends built: %zu)\n", available_backends().size());
      for (const auto& d : devs) std::printf("%s\n", d.c_str());
    } catch (const Error& e) {
      std::fprintf(stderr, "vmaf: error: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  if (version) {
    std::printf("vmaf-exact %s (libvmaf 3.2.0 compatible)\n", kVersion);
    return 0;
  }
  if (s.ref_path.empty() || s.dis_path.empty()) {
    std::fprintf(stderr, "vmaf: %s is required (see --help)\n",
                 s.ref_path.empty() ? "-r/--reference" : "-d/--distorted");
    return 2;
  }
  if (json) s.output_fmt = OutputFormat::kJson;
  if (csv) s.output_fmt = OutputFormat::kCsv;
  if (sub) s.output_fmt = OutputFormat::kSub;
  if (xml) s.output_fmt = OutputFormat::kXml;
  try {
    return run(s);
  } catch (const Error& e) {
    if (isatty(fileno(stderr))) std::fputc('\n', stderr);  // end a progress line
    std::fprintf(stderr, "vmaf: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "vmaf: error: out of memory\n");
    return 1;
  }
}
