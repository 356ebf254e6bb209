// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The OpenCL runtime layer shared by every OpenCL twin: device enumeration,
// one context per device for the whole process, programs built once per run
// from the embedded kernel sources, and per-thread command queues with device
// buffers that live as long as the twins that use them.
//
// Threading model. The engine calls non-temporal twins from several worker
// threads (one frame each) and temporal twins from the sequencing thread. Every
// thread that runs a twin gets its own Slot: an in-order queue, its own
// cl_kernel objects (clSetKernelArg is not thread-safe) and device buffers that
// are reused frame after frame. Twins created for one engine share a
// FrameGroup, so a frame's planes are uploaded once per thread and read by all
// of that thread's twins.
#include <CL/cl.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "vmaf_exact/picture.hpp"

namespace vmafx::ocl {

// Throws Error "opencl: <what>: <CL error name> (<code>)".
[[noreturn]] void fail(cl_int err, std::string_view what);
inline void check(cl_int err, std::string_view what) {
  if (err != CL_SUCCESS) fail(err, what);
}
const char* error_name(cl_int err);

struct DeviceEntry {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platform_name;
  std::string device_name;
};

// Every device of every platform, flattened in platform order (the --gpu
// index). Throws Error when the ICD loader finds no platform.
std::vector<DeviceEntry> enumerate_devices();

// The full kernel source of an embedded .cl file with its #include "..."
// lines resolved against the embedded headers (src/exact/*.h and
// src/feature/*_tables.h). Throws Error on a missing or ambiguous include.
std::string assemble_source(std::string_view cl_file);
// Names of the embedded files that assemble_source(cl_file) pulls in, the
// .cl file first (for the no-fp64 test).
std::vector<std::string> source_closure(std::string_view cl_file);
// Names of every embedded .cl file.
std::vector<std::string> kernel_files();

// Compile options of every program: OpenCL C 1.2, no fast math, no fp64.
inline constexpr const char* kBuildOptions = "-cl-std=CL1.2";

// How a program of a Device came to be (VMAFX_STATS=1 prints a summary).
struct ProgramRecord {
  bool from_cache = false;    // loaded from the program-binary cache
  bool stored = false;        // built from source and written to the cache
  std::string cache_problem;  // an entry not used or not written, and why ("" when none)
  double seconds = 0;         // assembling, loading or compiling, building
  std::chrono::steady_clock::time_point start, end;
};

// One device, its context and its built programs. Process-wide: created on
// first use and never destroyed (releasing OpenCL objects from static
// destructors races the ICD loader's own teardown).
class Device {
 public:
  // The device with flattened index `index`. Throws Error when there is no
  // platform, no such device, or the context cannot be created.
  static Device& get(int index);

  cl_context context() const { return context_; }
  cl_device_id id() const { return id_; }
  const std::string& name() const { return name_; }
  const std::string& platform_name() const { return platform_; }
  std::size_t max_work_group() const { return max_wg_; }

  // The program built from the embedded `cl_file`; built on first request
  // (or build_async), then kept. Throws Error with the build log on a
  // compile error. With a program-binary cache (cache_dir()), a program
  // whose entry validates and that the driver accepts is loaded from it;
  // otherwise it is built from source and stored. Cache problems never fail
  // the build: they only show in the record.
  cl_program program(std::string_view cl_file);
  // Starts building `cl_file` on its own thread (nothing when it is built or
  // building); program() waits for it.
  void build_async(std::string_view cl_file);
  // Waits until a build started by build_async has ended (either way), and
  // the writing of its cache entry.
  void wait_built(std::string_view cl_file);
  // The build log of a built program (compiler warnings), for tests; for a
  // program from the cache, the log of the source build that stored it.
  std::string build_log(std::string_view cl_file);
  // How `cl_file`'s program was made (waits for its build).
  ProgramRecord program_record(std::string_view cl_file);
  // The program-binary cache's directory ("" when off).
  std::string cache_dir();
  // VMAFX_STATS lines on the programs made since the last report (so that
  // each is reported once per process; call it after wait_built() of each):
  // how many came from the cache, how many were built, the time spent, and
  // each cache problem. "" when none.
  std::string take_program_report();
  // For tests: waits for every build, forgets (releases) every program, and
  // makes later ones with `cache_dir` as the cache ("" for none), as a fresh
  // process would. Nothing may hold a program or a kernel of this device.
  void reset_programs(std::string cache_dir);
  // Page-locked host memory for the engine's picture pool (mapped
  // CL_MEM_ALLOC_HOST_PTR buffers: what OpenCL drivers transfer by DMA).
  const HostAllocator* pinned_allocator() const { return &pinned_; }

  // A read-only buffer holding `bytes` bytes of `data` (a host table),
  // created on first request under `name` and shared by every thread.
  cl_mem table(std::string_view name, const void* data, std::size_t bytes);

 private:
  Device() = default;
  cl_context context_ = nullptr;
  cl_device_id id_ = nullptr;
  std::string name_, platform_;
  std::string platform_version_, device_version_, driver_version_;  // for the cache key
  std::size_t max_wg_ = 256;
  std::mutex mu_;
  std::string cache_dir_;
  cl_program build(const std::string& cl_file);
  cl_program build_from_source(const std::string& cl_file, const std::string& text, std::string& log);
  cl_program load_binary(const std::string& binary, std::string& why);
  std::map<std::string, std::shared_future<cl_program>, std::less<>> programs_;
  std::map<std::string, std::string, std::less<>> logs_;
  std::map<std::string, std::shared_future<void>, std::less<>> stores_;  // cache entries being written
  std::map<std::string, ProgramRecord, std::less<>> records_;
  std::vector<std::string> unreported_;
  std::map<std::string, cl_mem, std::less<>> tables_;
  // pinned host memory
  static void* pinned_alloc(std::size_t bytes, void* ctx);
  static void pinned_free(void* p, void* ctx);
  HostAllocator pinned_{};
  cl_command_queue map_queue_ = nullptr;
  struct Pinned {
    cl_mem mem;
    std::size_t bytes;
  };
  std::map<void*, Pinned> pinned_live_;
  std::multimap<std::size_t, std::pair<void*, cl_mem>> pinned_spare_;  // freed, kept for reuse
};

// A device buffer that grows on demand and is otherwise reused.
class Buffer {
 public:
  Buffer() = default;
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  // At least `bytes` bytes (the contents are lost when it grows).
  cl_mem get(cl_context ctx, std::size_t bytes);
  cl_mem mem() const { return mem_; }

 private:
  cl_mem mem_ = nullptr;
  std::size_t size_ = 0;
};

class FrameGroup;

// Per-thread state of a FrameGroup.
class Slot {
 public:
  Slot(Device& dev, FrameGroup* group);
  ~Slot();
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

  Device& device() { return dev_; }
  cl_command_queue queue() const { return queue_; }
  // This thread's instance of a kernel of `cl_file` (created once).
  cl_kernel kernel(std::string_view cl_file, const char* name);
  // Scratch buffer `which` of twin `owner` (an id from FrameGroup::new_twin_id).
  cl_mem scratch(int owner, int which, std::size_t bytes);
  // Host-side state of twin `owner` on this thread (a frame submitted and
  // not yet finished, its read-back destination), created on first use.
  struct State {
    virtual ~State() = default;
  };
  template <class T>
  T& state(int owner) {
    std::unique_ptr<State>& p = states_[owner];
    if (!p) p = std::make_unique<T>();
    return static_cast<T&>(*p);
  }

  // Plane `p` of the frame (ref, dis, index), packed (row pitch = width *
  // bytes per sample). Uploaded once per frame and plane, whichever twin
  // asks first, without waiting: a twin that calls this must finish its
  // extract() with a blocking read on queue() (all of them do).
  struct Planes {
    cl_mem ref, dis;
  };
  Planes planes(const Picture& ref, const Picture& dis, unsigned index, int p);
  // The reference's luma, uploaded by this (the reading) thread into the
  // picture's device mirror, which the worker threads then use for this
  // frame instead of uploading it again.
  cl_mem publish_ref(const Picture& ref, const Picture& dis, unsigned index);

 private:
  Device& dev_;
  FrameGroup* group_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::map<std::string, cl_kernel, std::less<>> kernels_;
  std::map<std::pair<int, int>, std::unique_ptr<Buffer>> scratch_;
  std::map<int, std::unique_ptr<State>> states_;
  Buffer plane_buf_[3][2];
  const Picture* key_ref_ = nullptr;
  const Picture* key_dis_ = nullptr;
  unsigned key_index_ = ~0u;
  bool uploaded_[3][2] = {{false, false}, {false, false}, {false, false}};
  cl_mem ref_luma_ = nullptr;  // this frame's reference luma when another thread uploaded it
  void key(const Picture& ref, const Picture& dis, unsigned index);
  cl_mem upload(const Picture& pic, int p, int k);
};

// The twins of one engine. Engines register all their extractors before the
// first frame, so the backend opens a new group for the first twin created
// after a frame of the previous group ran (seal()).
class FrameGroup {
 public:
  explicit FrameGroup(Device& dev) : dev_(dev) {}
  Device& device() { return dev_; }
  // The calling thread's slot (created on first use).
  Slot& slot();
  int new_twin_id() { return next_id_++; }
  void seal() { sealed_.store(true, std::memory_order_relaxed); }
  bool sealed() const { return sealed_.load(std::memory_order_relaxed); }

  // Reference mirrors, one per pool picture: the luma a temporal twin
  // uploaded on the sequencing thread for frame `index`. The sequencer may
  // run beside the workers, so a mirror is found only once its (blocking)
  // upload is complete: mirror() takes it out of use, publish() marks it
  // complete for `index`; a worker that finds none uploads the plane itself.
  // A mirror is rewritten only when its picture comes back for a later
  // frame, i.e. after every twin of the earlier frame has read its results back.
  cl_mem mirror(const Picture& ref, std::size_t bytes);    // to fill; found by no one meanwhile
  void publish(const Picture& ref, unsigned index);        // filled: frame `index` may use it
  cl_mem find_mirror(const Picture& ref, unsigned index);  // nullptr if none complete for `index`

 private:
  struct Mirror {
    std::unique_ptr<Buffer> buf;
    unsigned index = ~0u;
  };
  Device& dev_;
  std::mutex mu_;
  std::map<std::thread::id, std::unique_ptr<Slot>> slots_;
  std::map<const Picture*, Mirror> mirrors_;
  std::atomic<int> next_id_{0};
  std::atomic<bool> sealed_{false};
};

// Sets kernel arguments in order: set_args(k, a, b, c) for plain values and
// cl_mem handles.
template <class... A>
void set_args(cl_kernel k, const A&... a) {
  cl_uint i = 0;
  (check(clSetKernelArg(k, i++, sizeof(A), &a), "clSetKernelArg"), ...);
}

// The largest power of two <= `cap` that kernel `k` accepts as its
// work-group size (register-heavy kernels may accept fewer than 256 items).
std::size_t pow2_group(cl_kernel k, std::size_t cap);

// Enqueues a 1-D or 2-D range, rounding the global size up to the local size
// (a 2-D local size is halved until the kernel accepts it).
void run(cl_command_queue q, cl_kernel k, std::size_t gx, std::size_t lx);
void run2d(cl_command_queue q, cl_kernel k, std::size_t gx, std::size_t gy, std::size_t lx, std::size_t ly);
// ---- Profiling (VMAFX_OPENCL_PROFILE=1) --------------------------------------
// Queues are then created with profiling on, and every enqueue of the runtime
// and the twins records an event under a label (the kernel's name, "upload",
// "read back", "copy"). profile_report() waits for the recorded events,
// prints their device time per label and the union of the busy intervals, and
// forgets them. Off by default: no events are created.
bool profiling();
class ProfEvent {
 public:
  explicit ProfEvent(const char* label) : label_(label) {}
  explicit ProfEvent(cl_kernel k) : kernel_(k) {}
  ProfEvent(const ProfEvent&) = delete;
  ProfEvent& operator=(const ProfEvent&) = delete;
  ~ProfEvent();
  // The event argument of the enqueue call: nullptr unless profiling.
  cl_event* out() { return profiling() ? &event_ : nullptr; }
  // Records `e` (retained) when profiling: for commands whose event the
  // caller needs itself.
  void keep(cl_event e) {
    if (cl_event* o = out()) {
      clRetainEvent(e);
      *o = e;
    }
  }

 private:
  const char* label_ = nullptr;
  cl_kernel kernel_ = nullptr;
  cl_event event_ = nullptr;
};
std::string profile_report();

// Waits for `e` to end and returns its final status (CL_COMPLETE, or the
// negative error of the command), in clWaitForEvents. VMAFX_OPENCL_WAIT=
// callback sleeps on a completion callback instead (meant against a driver
// that spins a core per waiting thread, the first suspect for the OpenCL
// collapse of issue 24); on the H100 it cost a fifth of the throughput and
// saved no CPU time (docs/perf.md), so it is not the default.
cl_int wait_event(cl_event e);
// Enqueues with `enqueue(&event)` and waits (wait_event) for the command,
// throwing Error(`what`) if it failed: the blocking transfers of the runtime
// and the twins. The command is profiled under `label`.
template <class F>
void enqueue_wait(F&& enqueue, const char* label, std::string_view what) {
  ProfEvent pe(label);
  cl_event e = nullptr;
  check(enqueue(&e), what);
  pe.keep(e);
  const cl_int status = wait_event(e);
  clReleaseEvent(e);
  check(status < 0 ? status : CL_SUCCESS, what);
}

// Blocking read of `bytes` from `mem` into `dst`.
void read(cl_command_queue q, cl_mem mem, void* dst, std::size_t bytes);
void write(cl_command_queue q, cl_mem mem, const void* src, std::size_t bytes);

// A read of `bytes` from `mem` into `dst` that does not wait: `dst` must stay
// valid until finish() returns. An in-order queue completes everything
// enqueued before it first.
class PendingRead {
 public:
  PendingRead() = default;
  ~PendingRead();
  PendingRead(const PendingRead&) = delete;
  PendingRead& operator=(const PendingRead&) = delete;
  void start(cl_command_queue q, cl_mem mem, void* dst, std::size_t bytes);
  bool active() const { return event_ != nullptr; }
  void finish();  // waits; throws Error if the read (or a command before it) failed

 private:
  cl_event event_ = nullptr;
};

}  // namespace vmafx::ocl
