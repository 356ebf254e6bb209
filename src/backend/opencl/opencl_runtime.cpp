// SPDX-License-Identifier: BSD-3-Clause
#include "backend/opencl/opencl_runtime.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <set>

#include "backend/opencl/program_cache.hpp"
#include "core/embedded.hpp"
#include "core/env.hpp"
#include "core/error.hpp"

namespace vmafx {
extern const EmbeddedFile kOpenclSources[];
extern const std::size_t kOpenclSources_count;
}  // namespace vmafx

namespace vmafx::ocl {

const char* error_name(cl_int err) {
  switch (err) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "OpenCL error";
  }
}

void fail(cl_int err, std::string_view what) {
  throw device_error("opencl: " + std::string(what) + ": " + error_name(err) + " (" + std::to_string(err) + ")");
}

namespace {

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  std::size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "?";
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "?";
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

// ---- Embedded sources and #include resolution -----------------------------

struct Source {
  std::string name;  // file name as embedded
  std::string dir;   // "exact", "feature" (headers, from their include guard) or "" (.cl)
  std::string_view text;
};

const std::vector<Source>& sources() {
  static const std::vector<Source> all = [] {
    std::vector<Source> v;
    for (std::size_t i = 0; i < kOpenclSources_count; ++i) {
      Source s{kOpenclSources[i].name, "", kOpenclSources[i].view()};
      // src/exact headers guard with VMAFX_EXACT_*, src/feature tables with
      // VMAFX_FEATURE_*: that tells the two ssim_tables.h (and vif_tables.h) apart.
      if (s.text.find("#ifndef VMAFX_EXACT_") != std::string_view::npos)
        s.dir = "exact";
      else if (s.text.find("#ifndef VMAFX_FEATURE_") != std::string_view::npos)
        s.dir = "feature";
      v.push_back(std::move(s));
    }
    return v;
  }();
  return all;
}

const Source& resolve(std::string_view path, std::string_view includer, std::string_view includer_dir) {
  std::string_view dir, base = path;
  if (const auto slash = path.rfind('/'); slash != std::string_view::npos) {
    dir = path.substr(0, slash);
    base = path.substr(slash + 1);
  }
  std::vector<const Source*> c;
  for (const Source& s : sources())
    if (s.name == base && (dir.empty() || s.dir == dir)) c.push_back(&s);
  if (c.size() > 1) {
    // Several headers of this name (exact/ and feature/): the one beside the includer.
    std::vector<const Source*> near;
    for (const Source* s : c)
      if (s->dir == includer_dir) near.push_back(s);
    c = near;
    if (c.size() != 1)
      throw device_error("opencl: " + std::string(includer) + " includes \"" + std::string(path) +
                         "\", which is ambiguous; name its directory (exact/ or feature/)");
  }
  if (c.empty())
    throw device_error("opencl: " + std::string(includer) + " includes \"" + std::string(path) +
                       "\", which is not among the embedded kernel sources");
  return *c.front();
}

const Source& find_source(std::string_view name) {
  for (const Source& s : sources())
    if (s.name == name && s.dir.empty()) return s;
  throw device_error("opencl: kernel source " + std::string(name) + " is not embedded in this build");
}

// Appends `src` to `out` with its "..." includes inlined (once each: every
// header has an include guard).
void inline_includes(const Source& src, std::string& out, std::set<const Source*>& seen,
                     std::vector<std::string>* names) {
  if (!seen.insert(&src).second) return;
  if (names) names->push_back(src.name);
  std::string_view text = src.text;
  int line_no = 0;
  out += "#line 1 \"" + src.name + "\"\n";
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    std::string_view t = line;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    if (t.starts_with("#")) {
      t.remove_prefix(1);
      while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
      if (t.starts_with("include")) {
        t.remove_prefix(7);
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
        if (t.starts_with("\"")) {
          const auto end = t.find('"', 1);
          if (end == std::string_view::npos)
            throw device_error("opencl: " + src.name + ":" + std::to_string(line_no) + ": malformed #include");
          const Source& inc = resolve(t.substr(1, end - 1), src.name, src.dir);
          inline_includes(inc, out, seen, names);
          out += "#line " + std::to_string(line_no + 1) + " \"" + src.name + "\"\n";
          continue;
        }
      }
    }
    out.append(line);
    out += '\n';
  }
}

}  // namespace

std::string assemble_source(std::string_view cl_file) {
  std::string out;
  std::set<const Source*> seen;
  inline_includes(find_source(cl_file), out, seen, nullptr);
  return out;
}

std::vector<std::string> source_closure(std::string_view cl_file) {
  std::string out;
  std::set<const Source*> seen;
  std::vector<std::string> names;
  inline_includes(find_source(cl_file), out, seen, &names);
  return names;
}

std::vector<std::string> kernel_files() {
  std::vector<std::string> v;
  for (const Source& s : sources())
    if (s.name.ends_with(".cl")) v.push_back(s.name);
  return v;
}

// ---- Devices ---------------------------------------------------------------

std::vector<DeviceEntry> enumerate_devices() {
  cl_uint np = 0;
  const cl_int err = clGetPlatformIDs(0, nullptr, &np);
  if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && np == 0))
    throw device_error("opencl: no OpenCL platform found (no ICD installed, or OCL_ICD_VENDORS names none)");
  check(err, "clGetPlatformIDs");
  std::vector<cl_platform_id> plats(np);
  check(clGetPlatformIDs(np, plats.data(), nullptr), "clGetPlatformIDs");
  std::vector<DeviceEntry> out;
  for (cl_platform_id p : plats) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> devs(nd);
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr) != CL_SUCCESS) continue;
    const std::string pname = platform_string(p, CL_PLATFORM_NAME);
    for (cl_device_id d : devs) out.push_back({p, d, pname, device_string(d, CL_DEVICE_NAME)});
  }
  return out;
}

Device& Device::get(int index) {
  static std::mutex mu;
  static std::map<int, Device*> devices;  // never freed: see the class comment
  std::lock_guard lk(mu);
  if (auto it = devices.find(index); it != devices.end()) return *it->second;
  const std::vector<DeviceEntry> all = enumerate_devices();
  if (all.empty()) throw device_error("opencl: the OpenCL platforms have no device");
  if (index < 0 || std::size_t(index) >= all.size())
    throw device_error("opencl: device " + std::to_string(index) + ": no such device (" + std::to_string(all.size()) +
                       " OpenCL device" + (all.size() == 1 ? "" : "s") + ")");
  const DeviceEntry& e = all[std::size_t(index)];
  auto* d = new Device();
  d->id_ = e.device;
  d->name_ = e.device_name;
  d->platform_ = e.platform_name;
  d->platform_version_ = platform_string(e.platform, CL_PLATFORM_VERSION);
  d->device_version_ = device_string(e.device, CL_DEVICE_VERSION);
  d->driver_version_ = device_string(e.device, CL_DRIVER_VERSION);
  d->cache_dir_ = env::opencl_cache_dir();
  cl_bool avail = CL_FALSE, compiler = CL_FALSE;
  clGetDeviceInfo(e.device, CL_DEVICE_AVAILABLE, sizeof avail, &avail, nullptr);
  clGetDeviceInfo(e.device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, nullptr);
  if (!avail) throw device_error("opencl: device " + e.device_name + " is not available");
  if (!compiler) throw device_error("opencl: device " + e.device_name + " has no OpenCL C compiler");
  clGetDeviceInfo(e.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_wg_, &d->max_wg_, nullptr);
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, cl_context_properties(e.platform), 0};
  cl_int err = CL_SUCCESS;
  d->context_ = clCreateContext(props, 1, &e.device, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) {
    delete d;
    fail(err, "clCreateContext on " + e.device_name);
  }
  d->map_queue_ = clCreateCommandQueue(d->context_, e.device, 0, &err);
  check(err, "clCreateCommandQueue");
  d->pinned_ = {&Device::pinned_alloc, &Device::pinned_free, d};
  devices[index] = d;
  return *d;
}

void* Device::pinned_alloc(std::size_t bytes, void* ctx) {
  auto* d = static_cast<Device*>(ctx);
  std::lock_guard lk(d->mu_);
  if (auto it = d->pinned_spare_.find(bytes); it != d->pinned_spare_.end()) {
    void* p = it->second.first;
    d->pinned_live_.emplace(p, Pinned{it->second.second, bytes});
    d->pinned_spare_.erase(it);
    return p;
  }
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(d->context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
  if (err != CL_SUCCESS) return nullptr;
  void* p =
      clEnqueueMapBuffer(d->map_queue_, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &err);
  if (err != CL_SUCCESS || !p || reinterpret_cast<std::uintptr_t>(p) % 64 != 0) {
    if (p && err == CL_SUCCESS) clEnqueueUnmapMemObject(d->map_queue_, m, p, 0, nullptr, nullptr);
    clFinish(d->map_queue_);
    clReleaseMemObject(m);
    return nullptr;
  }
  d->pinned_live_.emplace(p, Pinned{m, bytes});
  return p;
}

// Freed pinned pictures stay mapped for the next engine (mapping is slow);
// they are never returned to the driver (see the class comment).
void Device::pinned_free(void* p, void* ctx) {
  auto* d = static_cast<Device*>(ctx);
  std::lock_guard lk(d->mu_);
  auto it = d->pinned_live_.find(p);
  if (it == d->pinned_live_.end()) return;
  d->pinned_spare_.emplace(it->second.bytes, std::make_pair(p, it->second.mem));
  d->pinned_live_.erase(it);
}

void Device::build_async(std::string_view cl_file) {
  std::lock_guard lk(mu_);
  if (programs_.find(cl_file) != programs_.end()) return;
  // The driver compiles programs on several threads at once: each twin's
  // program starts building when the twin is made, all before the first
  // frame needs any of them.
  const std::string file(cl_file);
  programs_.emplace(file, std::async(std::launch::async, [this, file] { return build(file); }).share());
}

namespace {

// The driver's binary of `prog` for `dev` ("" with `why` when there is none).
std::string program_binary(cl_program prog, cl_device_id dev, std::string& why) {
  cl_uint n = 0;
  if (clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof n, &n, nullptr) != CL_SUCCESS || n == 0) {
    why = "the driver lists no device for the program";
    return {};
  }
  std::vector<cl_device_id> devs(n);
  std::vector<std::size_t> sizes(n, 0);
  if (clGetProgramInfo(prog, CL_PROGRAM_DEVICES, n * sizeof(cl_device_id), devs.data(), nullptr) != CL_SUCCESS ||
      clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, n * sizeof(std::size_t), sizes.data(), nullptr) != CL_SUCCESS) {
    why = "the driver gives no binary size";
    return {};
  }
  const auto it = std::find(devs.begin(), devs.end(), dev);
  const std::size_t i = std::size_t(it - devs.begin());
  if (it == devs.end() || sizes[i] == 0) {
    why = "the driver gives no binary";
    return {};
  }
  std::string bin(sizes[i], '\0');
  std::vector<unsigned char*> ptrs(n, nullptr);  // null entries: binaries not wanted
  ptrs[i] = reinterpret_cast<unsigned char*>(bin.data());
  if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, n * sizeof(unsigned char*), ptrs.data(), nullptr) != CL_SUCCESS) {
    why = "the driver gives no binary";
    return {};
  }
  return bin;
}

// Cache entries still being written when the process exits (a program a
// test or a tool asked for directly, with no backend to wait for it): an
// atexit handler waits for them, before the drivers' own teardown.
struct PendingStores {
  std::mutex mu;
  std::vector<std::shared_future<void>> all;
};
PendingStores& pending_stores() {
  static auto* p = new PendingStores;  // never destroyed, as the devices
  return *p;
}
void wait_pending_stores() {
  std::vector<std::shared_future<void>> v;
  {
    std::lock_guard lk(pending_stores().mu);
    v.swap(pending_stores().all);
  }
  for (auto& f : v) f.wait();
}
void track_store(const std::shared_future<void>& f) {
  static const bool registered = std::atexit(wait_pending_stores) == 0;
  (void)registered;
  std::lock_guard lk(pending_stores().mu);
  pending_stores().all.push_back(f);
}

// Writes `prog`'s binary for `dev` as the cache entry `path`.
bool store_program(cl_program prog, cl_device_id dev, const std::string& path, const cache::Digest& key,
                   const std::string& log, std::string& why) {
  const std::string binary = program_binary(prog, dev, why);
  return !binary.empty() && cache::store(path, key, binary, log, why);
}

std::string trimmed_log(cl_program prog, cl_device_id dev) {
  std::size_t n = 0;
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  if (n) clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == ' ')) log.pop_back();
  return log;
}

}  // namespace

cl_program Device::build_from_source(const std::string& cl_file, const std::string& text, std::string& log) {
  const char* p = text.c_str();
  const std::size_t n = text.size();
  cl_int err = CL_SUCCESS;
  cl_program prog = clCreateProgramWithSource(context_, 1, &p, &n, &err);
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(prog, 1, &id_, kBuildOptions, nullptr, nullptr);
  log = trimmed_log(prog, id_);
  if (err != CL_SUCCESS) {
    clReleaseProgram(prog);
    std::string first = log.substr(0, std::min<std::size_t>(log.size(), 4000));
    for (char& c : first)
      if (c == '\n') c = ' ';
    throw device_error("opencl: building " + cl_file + " for " + name_ + " failed (" + error_name(err) + "): " + first);
  }
  return prog;
}

cl_program Device::load_binary(const std::string& binary, std::string& why) {
  const auto* p = reinterpret_cast<const unsigned char*>(binary.data());
  const std::size_t n = binary.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program prog = clCreateProgramWithBinary(context_, 1, &id_, &n, &p, &status, &err);
  if (err != CL_SUCCESS || status != CL_SUCCESS || !prog) {
    if (prog) clReleaseProgram(prog);
    why = std::string("the driver refused the binary (") + error_name(err != CL_SUCCESS ? err : status) + ")";
    return nullptr;
  }
  err = clBuildProgram(prog, 1, &id_, kBuildOptions, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    clReleaseProgram(prog);
    why = std::string("building the cached binary failed (") + error_name(err) + ")";
    return nullptr;
  }
  return prog;
}

cl_program Device::build(const std::string& cl_file) {
  ProgramRecord rec;
  rec.start = std::chrono::steady_clock::now();
  const std::string text = assemble_source(cl_file);
  std::string dir;
  {
    std::lock_guard lk(mu_);
    dir = cache_dir_;
  }
  cl_program prog = nullptr;
  std::string log;
  if (dir.empty()) {
    prog = build_from_source(cl_file, text, log);
  } else {
    const cache::Digest key = cache::program_key(
        {platform_, platform_version_, name_, device_version_, driver_version_, kBuildOptions, text});
    const std::string path = cache::entry_path(dir, cl_file, key);
    std::string why;
    if (std::optional<cache::Entry> e = cache::load(path, key, why)) {
      prog = load_binary(e->binary, why);
      if (prog) {
        log = std::move(e->log);
        rec.from_cache = true;
      }
    }
    if (!prog) {
      // A miss (no file: `why` is empty) or an entry that failed: build from
      // source, then (re)write the entry on another thread. Reading the
      // binary back can take long (PoCL compiles every kernel for it), and
      // the first frame need not wait for that.
      if (!why.empty()) rec.cache_problem = "entry not used: " + why;
      prog = build_from_source(cl_file, text, log);
      clRetainProgram(prog);
      std::lock_guard lk(mu_);
      stores_[cl_file] = std::async(std::launch::async, [this, prog, path, key, log, cl_file] {
                           std::string why;
                           const bool ok = store_program(prog, id_, path, key, log, why);
                           clReleaseProgram(prog);
                           std::lock_guard lk2(mu_);
                           ProgramRecord& r = records_[cl_file];
                           r.stored = ok;
                           if (!ok)
                             r.cache_problem += (r.cache_problem.empty() ? "not stored: " : "; not stored: ") + why;
                         }).share();
      track_store(stores_[cl_file]);
    }
  }
  rec.end = std::chrono::steady_clock::now();
  rec.seconds = std::chrono::duration<double>(rec.end - rec.start).count();
  std::lock_guard lk(mu_);
  logs_[cl_file] = log;
  // The store thread may have finished already and written its part.
  ProgramRecord& r = records_[cl_file];
  rec.stored = r.stored;
  if (!r.cache_problem.empty()) rec.cache_problem += (rec.cache_problem.empty() ? "" : "; ") + r.cache_problem;
  r = rec;
  unreported_.push_back(cl_file);
  return prog;
}

void Device::wait_built(std::string_view cl_file) {
  std::shared_future<cl_program> f;
  {
    std::lock_guard lk(mu_);
    auto it = programs_.find(cl_file);
    if (it == programs_.end()) return;
    f = it->second;
  }
  f.wait();
  std::shared_future<void> st;
  {
    std::lock_guard lk(mu_);
    auto it = stores_.find(cl_file);
    if (it == stores_.end()) return;
    st = it->second;
  }
  st.wait();
}

cl_program Device::program(std::string_view cl_file) {
  build_async(cl_file);
  std::shared_future<cl_program> f;
  {
    std::lock_guard lk(mu_);
    f = programs_.find(cl_file)->second;
  }
  return f.get();  // a build error is thrown to every caller
}

std::string Device::build_log(std::string_view cl_file) {
  program(cl_file);
  std::lock_guard lk(mu_);
  return logs_.find(cl_file)->second;
}

ProgramRecord Device::program_record(std::string_view cl_file) {
  program(cl_file);
  wait_built(cl_file);  // and its store
  std::lock_guard lk(mu_);
  return records_.find(cl_file)->second;
}

std::string Device::cache_dir() {
  std::lock_guard lk(mu_);
  return cache_dir_;
}

std::string Device::take_program_report() {
  std::vector<std::string> files;
  std::vector<ProgramRecord> recs;
  std::string dir;
  {
    std::lock_guard lk(mu_);
    files.swap(unreported_);
    for (const std::string& f : files) recs.push_back(records_.find(f)->second);
    dir = cache_dir_;
  }
  if (recs.empty()) return {};
  unsigned cached = 0, built = 0, stored = 0;
  double cached_s = 0, built_s = 0;
  auto first = recs.front().start, last = recs.front().end;
  for (const ProgramRecord& r : recs) {
    (r.from_cache ? cached : built) += 1;
    (r.from_cache ? cached_s : built_s) += r.seconds;
    stored += r.stored;
    first = std::min(first, r.start);
    last = std::max(last, r.end);
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "opencl programs: %u from the cache (%.3f s), %u built from source (%.3f s), %u stored; "
                "all ready %.3f s after the first began; cache: %s\n",
                cached, cached_s, built, built_s, stored, std::chrono::duration<double>(last - first).count(),
                dir.empty() ? "off" : dir.c_str());
  std::string out = buf;
  for (std::size_t i = 0; i < recs.size(); ++i)
    if (!recs[i].cache_problem.empty())
      out += "opencl program cache: " + files[i] + ": " + recs[i].cache_problem + "\n";
  return out;
}

void Device::reset_programs(std::string cache_dir) {
  std::vector<std::shared_future<cl_program>> pending;
  {
    std::lock_guard lk(mu_);
    for (auto& [f, p] : programs_) pending.push_back(p);
  }
  for (auto& p : pending) p.wait();  // a build still running writes its record under mu_
  std::vector<std::shared_future<void>> storing;
  {
    std::lock_guard lk(mu_);
    for (auto& [f, st] : stores_) storing.push_back(st);
  }
  for (auto& st : storing) st.wait();
  std::map<std::string, std::shared_future<cl_program>, std::less<>> old;
  {
    std::lock_guard lk(mu_);
    old.swap(programs_);
    stores_.clear();
    logs_.clear();
    records_.clear();
    unreported_.clear();
    cache_dir_ = std::move(cache_dir);
  }
  for (auto& [f, p] : old) {
    try {
      clReleaseProgram(p.get());
    } catch (const Error&) {  // a failed build holds no program
    }
  }
}

cl_mem Device::table(std::string_view name, const void* data, std::size_t bytes) {
  std::lock_guard lk(mu_);
  if (auto it = tables_.find(name); it != tables_.end()) return it->second;
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void*>(data), &err);
  check(err, "clCreateBuffer (table " + std::string(name) + ")");
  tables_.emplace(std::string(name), m);
  return m;
}

// ---- Buffers, slots, groups -------------------------------------------------

Buffer::~Buffer() {
  if (mem_) clReleaseMemObject(mem_);
}

cl_mem Buffer::get(cl_context ctx, std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (mem_ && size_ >= bytes) return mem_;
  if (mem_) clReleaseMemObject(mem_);
  mem_ = nullptr;
  size_ = 0;
  cl_int err = CL_SUCCESS;
  mem_ = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, "clCreateBuffer (" + std::to_string(bytes) + " bytes)");
  size_ = bytes;
  return mem_;
}

Slot::Slot(Device& dev, FrameGroup* group) : dev_(dev), group_(group) {
  cl_int err = CL_SUCCESS;
  queue_ = clCreateCommandQueue(dev.context(), dev.id(), profiling() ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
  check(err, "clCreateCommandQueue");
}

namespace {
// CL_KERNEL_WORK_GROUP_SIZE of every live kernel, queried once at creation
// (launches read it without another driver call). Never destroyed, as the
// devices: slots may outlive static destructors' order.
struct GroupSizes {
  std::mutex mu;
  std::map<cl_kernel, std::size_t> size;
};
GroupSizes& group_sizes() {
  static auto* g = new GroupSizes;
  return *g;
}
}  // namespace

Slot::~Slot() {
  if (queue_) clFinish(queue_);
  states_.clear();
  {
    GroupSizes& g = group_sizes();
    std::lock_guard lk(g.mu);
    for (auto& [name, k] : kernels_) g.size.erase(k);
  }
  for (auto& [name, k] : kernels_) clReleaseKernel(k);
  if (queue_) clReleaseCommandQueue(queue_);
}

cl_kernel Slot::kernel(std::string_view cl_file, const char* name) {
  std::string key(cl_file);
  key += ':';
  key += name;
  if (auto it = kernels_.find(key); it != kernels_.end()) return it->second;
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(dev_.program(cl_file), name, &err);
  check(err, std::string("clCreateKernel ") + name);
  std::size_t max = 0;
  err = clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max, nullptr);
  if (err != CL_SUCCESS) clReleaseKernel(k);
  check(err, "clGetKernelWorkGroupInfo");
  {
    GroupSizes& g = group_sizes();
    std::lock_guard lk(g.mu);
    g.size[k] = max;
  }
  kernels_.emplace(std::move(key), k);
  return k;
}

cl_mem Slot::scratch(int owner, int which, std::size_t bytes) {
  auto& b = scratch_[{owner, which}];
  if (!b) b = std::make_unique<Buffer>();
  return b->get(dev_.context(), bytes);
}

void Slot::key(const Picture& ref, const Picture& dis, unsigned index) {
  if (key_ref_ != &ref || key_dis_ != &dis || key_index_ != index) {
    key_ref_ = &ref;
    key_dis_ = &dis;
    key_index_ = index;
    for (auto& u : uploaded_) u[0] = u[1] = false;
    ref_luma_ = group_ ? group_->find_mirror(ref, index) : nullptr;
    if (ref_luma_) uploaded_[0][0] = true;
  }
}

cl_mem Slot::upload(const Picture& pic, int p, int k) {
  if (p == 0 && k == 0 && ref_luma_) return ref_luma_;
  const PictureFormat& f = pic.format();
  const std::size_t row = std::size_t(f.plane_width(p)) * f.bytes_per_sample();
  const std::size_t rows = std::size_t(f.plane_height(p));
  cl_mem m = plane_buf_[p][k].get(dev_.context(), row * rows);
  if (!uploaded_[p][k]) {
    // Not waited for here: every twin ends its extract() with a blocking
    // read on this in-order queue, which completes the upload before the
    // engine can recycle the picture.
    const PlaneView v = pic.plane(p);
    if (std::size_t(v.stride) == row) {  // rows back to back: one linear copy
      ProfEvent ev("upload");
      check(clEnqueueWriteBuffer(queue_, m, CL_FALSE, 0, row * rows, v.data, 0, nullptr, ev.out()), "upload");
    } else {
      ProfEvent ev("upload (rect)");
      const std::size_t buf_origin[3] = {0, 0, 0}, host_origin[3] = {0, 0, 0};
      const std::size_t region[3] = {row, rows, 1};
      check(clEnqueueWriteBufferRect(queue_, m, CL_FALSE, buf_origin, host_origin, region, row, 0,
                                     std::size_t(v.stride), 0, v.data, 0, nullptr, ev.out()),
            "upload");
    }
    uploaded_[p][k] = true;
  }
  return m;
}

Slot::Planes Slot::planes(const Picture& ref, const Picture& dis, unsigned index, int p) {
  key(ref, dis, index);
  cl_mem r = upload(ref, p, 0);
  return {r, upload(dis, p, 1)};
}

cl_mem Slot::publish_ref(const Picture& ref, const Picture& dis, unsigned index) {
  key(ref, dis, index);
  if (ref_luma_) return ref_luma_;  // already published for this frame
  const PictureFormat& f = ref.format();
  const std::size_t row = std::size_t(f.plane_width(0)) * f.bytes_per_sample();
  const std::size_t rows = std::size_t(f.plane_height(0));
  cl_mem m = group_->mirror(ref, row * rows);
  const PlaneView v = ref.plane(0);
  if (std::size_t(v.stride) == row) {
    enqueue_wait(
        [&](cl_event* e) { return clEnqueueWriteBuffer(queue_, m, CL_FALSE, 0, row * rows, v.data, 0, nullptr, e); },
        "upload (reference mirror)", "upload");
  } else {
    const std::size_t buf_origin[3] = {0, 0, 0}, host_origin[3] = {0, 0, 0};
    const std::size_t region[3] = {row, rows, 1};
    enqueue_wait(
        [&](cl_event* e) {
          return clEnqueueWriteBufferRect(queue_, m, CL_FALSE, buf_origin, host_origin, region, row, 0,
                                          std::size_t(v.stride), 0, v.data, 0, nullptr, e);
        },
        "upload (reference mirror, rect)", "upload");
  }
  group_->publish(ref, index);
  ref_luma_ = m;
  uploaded_[0][0] = true;
  return m;
}

Slot& FrameGroup::slot() {
  std::lock_guard lk(mu_);
  auto& s = slots_[std::this_thread::get_id()];
  if (!s) s = std::make_unique<Slot>(dev_, this);
  return *s;
}

cl_mem FrameGroup::mirror(const Picture& ref, std::size_t bytes) {
  std::lock_guard lk(mu_);
  Mirror& m = mirrors_[&ref];
  if (!m.buf) m.buf = std::make_unique<Buffer>();
  m.index = ~0u;
  return m.buf->get(dev_.context(), bytes);
}

void FrameGroup::publish(const Picture& ref, unsigned index) {
  std::lock_guard lk(mu_);
  mirrors_[&ref].index = index;
}

cl_mem FrameGroup::find_mirror(const Picture& ref, unsigned index) {
  std::lock_guard lk(mu_);
  auto it = mirrors_.find(&ref);
  if (it == mirrors_.end() || it->second.index != index) return nullptr;
  return it->second.buf->mem();
}

void run(cl_command_queue q, cl_kernel k, std::size_t gx, std::size_t lx) {
  if (gx == 0) return;
  const std::size_t g = (gx + lx - 1) / lx * lx;
  ProfEvent ev(k);
  check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &lx, 0, nullptr, ev.out()), "clEnqueueNDRangeKernel");
}

std::size_t pow2_group(cl_kernel k, std::size_t cap) {
  std::size_t max = 0;
  {
    GroupSizes& g = group_sizes();
    std::lock_guard lk(g.mu);
    if (auto it = g.size.find(k); it != g.size.end()) max = it->second;
  }
  if (max == 0)
    check(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max, nullptr),
          "clGetKernelWorkGroupInfo");
  // VMAFX_OPENCL_GROUP_CAP=N (tests): behave as if kernels took at most N items.
  const std::size_t env_cap = env::opencl_group_cap();
  if (env_cap > 0 && env_cap < max) max = env_cap;
  std::size_t g = 1;
  while (g * 2 <= cap && g * 2 <= max) g *= 2;
  return g;
}

void run2d(cl_command_queue q, cl_kernel k, std::size_t gx, std::size_t gy, std::size_t lx, std::size_t ly) {
  if (gx == 0 || gy == 0) return;
  const std::size_t max = pow2_group(k, lx * ly);
  while (lx * ly > max) {
    if (ly > 1)
      ly /= 2;
    else
      lx /= 2;
  }
  const std::size_t g[2] = {(gx + lx - 1) / lx * lx, (gy + ly - 1) / ly * ly};
  const std::size_t l[2] = {lx, ly};
  ProfEvent ev(k);
  check(clEnqueueNDRangeKernel(q, k, 2, nullptr, g, l, 0, nullptr, ev.out()), "clEnqueueNDRangeKernel");
}

namespace {
// The state a completion callback shares with its waiter; the callback owns
// one reference, so the waiter may return as soon as `done` is set.
struct Waiter {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  cl_int status = CL_COMPLETE;
};
void CL_CALLBACK on_event_end(cl_event, cl_int status, void* user) {
  auto* held = static_cast<std::shared_ptr<Waiter>*>(user);
  {
    Waiter& w = **held;
    std::lock_guard lk(w.mu);
    w.done = true;
    w.status = status;
    w.cv.notify_all();
  }
  delete held;
}
}  // namespace

cl_int wait_event(cl_event e) {
  cl_int status = CL_QUEUED;
  cl_int err = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  if (err != CL_SUCCESS) return err;
  if (status <= CL_COMPLETE) return status;
  if (env::opencl_callback_wait()) {
    // A callback only fires for commands the device was given: flush first
    // (clWaitForEvents does that itself).
    cl_command_queue q = nullptr;
    if (clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr) == CL_SUCCESS && q) clFlush(q);
    auto w = std::make_shared<Waiter>();
    auto* held = new std::shared_ptr<Waiter>(w);
    if (clSetEventCallback(e, CL_COMPLETE, on_event_end, held) == CL_SUCCESS) {
      std::unique_lock lk(w->mu);
      w->cv.wait(lk, [&] { return w->done; });
      return w->status;
    }
    delete held;  // no callbacks: the driver's wait below
  }
  err = clWaitForEvents(1, &e);
  if (err != CL_SUCCESS && err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) return err;
  status = CL_COMPLETE;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  return status < 0 ? status : (err != CL_SUCCESS ? err : CL_COMPLETE);
}

void read(cl_command_queue q, cl_mem mem, void* dst, std::size_t bytes) {
  if (bytes == 0) return;
  enqueue_wait([&](cl_event* e) { return clEnqueueReadBuffer(q, mem, CL_FALSE, 0, bytes, dst, 0, nullptr, e); },
               "read back", "read back");
}

void write(cl_command_queue q, cl_mem mem, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  enqueue_wait([&](cl_event* e) { return clEnqueueWriteBuffer(q, mem, CL_FALSE, 0, bytes, src, 0, nullptr, e); },
               "write", "upload");
}

PendingRead::~PendingRead() {
  if (event_) {
    wait_event(event_);
    clReleaseEvent(event_);
  }
}

void PendingRead::start(cl_command_queue q, cl_mem mem, void* dst, std::size_t bytes) {
  if (event_) finish();
  ProfEvent pe("read back");
  check(clEnqueueReadBuffer(q, mem, CL_FALSE, 0, bytes, dst, 0, nullptr, &event_), "read back");
  pe.keep(event_);
}

void PendingRead::finish() {
  if (!event_) return;
  const cl_int status = wait_event(event_);
  clReleaseEvent(event_);
  event_ = nullptr;
  if (status < 0) check(status, "read back");
}

// ---- Profiling -----------------------------------------------------------------

bool profiling() { return env::opencl_profile(); }

namespace {
struct Profile {
  std::mutex mu;
  std::vector<std::pair<std::string, cl_event>> events;
};
Profile& profile() {
  static auto* p = new Profile;  // never destroyed, as the devices
  return *p;
}
}  // namespace

ProfEvent::~ProfEvent() {
  if (!event_) return;
  std::string label;
  if (kernel_) {
    char name[128] = {};
    clGetKernelInfo(kernel_, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr);
    label = name;
  } else {
    label = label_ ? label_ : "?";
  }
  Profile& p = profile();
  std::lock_guard lk(p.mu);
  p.events.emplace_back(std::move(label), event_);
}

std::string profile_report() {
  std::vector<std::pair<std::string, cl_event>> events;
  {
    Profile& p = profile();
    std::lock_guard lk(p.mu);
    events.swap(p.events);
  }
  struct Total {
    std::size_t count = 0;
    cl_ulong ns = 0;
  };
  std::map<std::string, Total> by;
  std::vector<std::pair<cl_ulong, cl_ulong>> spans;
  for (auto& [label, e] : events) {
    cl_ulong t0 = 0, t1 = 0;
    if (clWaitForEvents(1, &e) == CL_SUCCESS &&
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr) == CL_SUCCESS &&
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr) == CL_SUCCESS && t1 >= t0) {
      Total& t = by[label];
      ++t.count;
      t.ns += t1 - t0;
      spans.emplace_back(t0, t1);
    }
    clReleaseEvent(e);
  }
  std::string out;
  char line[256];
  cl_ulong sum = 0;
  for (const auto& [label, t] : by) {
    std::snprintf(line, sizeof line, "  %-28s %8zu x %9.2f us = %10.3f ms\n", label.c_str(), t.count,
                  1e-3 * double(t.ns) / double(t.count), 1e-6 * double(t.ns));
    out += line;
    sum += t.ns;
  }
  // Union of the busy intervals: below the sum when commands overlap.
  std::sort(spans.begin(), spans.end());
  cl_ulong busy = 0, first = spans.empty() ? 0 : spans.front().first, last = first;
  cl_ulong cur0 = first, cur1 = first;
  for (const auto& [a, b] : spans) {
    if (a > cur1) {
      busy += cur1 - cur0;
      cur0 = a;
      cur1 = b;
    } else if (b > cur1) {
      cur1 = b;
    }
    last = std::max(last, b);
  }
  busy += cur1 - cur0;
  std::snprintf(line, sizeof line, "  sum %.3f ms, busy (union) %.3f ms, first start to last end %.3f ms\n",
                1e-6 * double(sum), 1e-6 * double(busy), 1e-6 * double(last - first));
  out += line;
  return out;
}

}  // namespace vmafx::ocl
