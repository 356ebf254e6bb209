// SPDX-License-Identifier: BSD-3-Clause
// LadderSource: one reference, read (decoded) once, against several
// renditions; each rendition is read on its own thread into its own
// session's pictures, the reference's pictures are shared by every session.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "core/env.hpp"
#include "core/error.hpp"
#include "io/read_ahead.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/session.hpp"

namespace vmafx {

namespace {

std::string error_text(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  }
}

}  // namespace

struct LadderSource::Impl {
  VideoReader* ref;
  std::vector<Rendition> rends;
  Options opts;
};

LadderSource::LadderSource(VideoReader& ref, std::vector<Rendition> renditions, Options opts)
    : impl_(std::make_unique<Impl>(Impl{&ref, std::move(renditions), opts})) {
  if (impl_->rends.empty()) throw Error("a ladder needs at least one rendition");
  if (impl_->opts.depth == 0) impl_->opts.depth = 1;
}

LadderSource::~LadderSource() = default;

std::vector<LadderSource::Outcome> LadderSource::run(const std::function<void(unsigned)>& progress) {
  Impl& m = *impl_;
  const std::size_t n = m.rends.size();
  // Reference frames each rendition starts at, relative to the first one read.
  unsigned lead = ~0u, spread = 0;
  for (const Rendition& r : m.rends) lead = std::min(lead, unsigned(r.offset < 0 ? -r.offset : 0));
  std::vector<unsigned> start(n);
  for (std::size_t k = 0; k < n; ++k) {
    start[k] = unsigned(m.rends[k].offset < 0 ? -m.rends[k].offset : 0) - lead;
    spread = std::max(spread, start[k]);
  }
  const unsigned depth = m.opts.depth;
  // The reference's pictures come from the first rendition's session; they
  // are held by every session, read ahead, and kept for the rendition that
  // starts latest (spread).
  Session& pool = *m.rends[0].session;
  const unsigned readers = FrameSource::auto_readers(pool);
  const ReadAhead::Options ref_opts{.skip = m.opts.skip_ref + lead,
                                    .max_frames = m.opts.max_frames ? m.opts.max_frames + spread : 0,
                                    .depth = depth + spread,
                                    .readers = readers};
  std::vector<ReadAhead::Options> dis_opts(n);
  for (std::size_t k = 0; k < n; ++k)
    dis_opts[k] = {.skip = m.opts.skip_dis + unsigned(std::max(0, m.rends[k].offset)),
                   .max_frames = m.opts.max_frames,
                   .depth = depth,
                   .readers = readers};
  pool.reserve_read_ahead(ReadAhead::pictures_for(*m.ref, ref_opts) +
                          ReadAhead::pictures_for(*m.rends[0].reader, dis_opts[0]) + 2);
  for (std::size_t k = 1; k < n; ++k)
    m.rends[k].session->reserve_read_ahead(ReadAhead::pictures_for(*m.rends[k].reader, dis_opts[k]) + 1);
  ReadAhead refq(*m.ref, pool, ref_opts);
  std::vector<std::unique_ptr<ReadAhead>> disq;
  for (std::size_t k = 0; k < n; ++k)
    disq.push_back(std::make_unique<ReadAhead>(*m.rends[k].reader, *m.rends[k].session, dis_opts[k]));
  // Frames a GPU decoder made stay on that GPU when every extractor of every
  // session runs there (the reference's pictures go to every session).
  if (!env::hwdec_host()) {
    bool all = true;
    for (const Rendition& r : m.rends) all = all && r.session->device_importer() != nullptr;
    if (all) {
      m.ref->use_device_importer(pool.device_importer());
      for (const Rendition& r : m.rends) r.reader->use_device_importer(r.session->device_importer());
    }
  }
  refq.start();
  for (auto& q : disq) q->start();

  std::vector<Outcome> out(n);
  std::vector<bool> active(n, true);
  std::deque<std::shared_ptr<Picture>> window;  // reference frames [wbase, wbase + size)
  unsigned wbase = 0;
  bool ref_ended = false;
  std::exception_ptr ref_error;
  // Reference frame `i` (relative), or null once the reference has ended.
  auto ref_frame = [&](unsigned i) -> std::shared_ptr<Picture> {
    while (!ref_ended && i >= wbase + window.size()) {
      ReadAhead::Item it = refq.pop();
      if (it.error) {
        ref_error = it.error;
        ref_ended = true;
      } else if (!it.pic) {
        ref_ended = true;
      } else {
        window.push_back(std::move(it.pic));
      }
    }
    return i < wbase + window.size() ? window[i - wbase] : nullptr;
  };
  auto fail = [&](std::size_t k, std::string why) {
    out[k].error = std::move(why);
    active[k] = false;
    disq[k]->stop();
  };
  std::size_t live = n;
  for (unsigned i = 0; live > 0; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      if (!active[k]) continue;
      if (m.opts.max_frames && out[k].frames == m.opts.max_frames) {
        active[k] = false;
        --live;
        continue;
      }
      std::shared_ptr<Picture> a = ref_frame(start[k] + i);
      if (!a && ref_error) {
        fail(k, error_text(ref_error));
        --live;
        continue;
      }
      ReadAhead::Item b = disq[k]->pop();
      if (b.error) {
        fail(k, error_text(b.error));
        --live;
        continue;
      }
      if (!a || !b.pic) {
        --live;
        if ((!a && !b.pic) || m.opts.shortest) {
          active[k] = false;
          continue;
        }
        const std::string& rp = m.ref->path();
        const std::string& dp = disq[k]->reader().path();
        fail(k, (a ? dp : rp) + ": ended after " + std::to_string(out[k].frames) + " frames, but " + (a ? rp : dp) +
                    " has more");
        continue;
      }
      try {
        m.rends[k].session->push(std::move(a), std::move(b.pic));
        ++out[k].frames;
      } catch (const std::exception& e) {
        fail(k, e.what());
        --live;
      }
    }
    // Reference frames no active rendition needs any more go back.
    unsigned need = ~0u;
    for (std::size_t k = 0; k < n; ++k)
      if (active[k]) need = std::min(need, start[k] + i + 1);
    while (!window.empty() && wbase < need) {
      window.pop_front();
      ++wbase;
    }
    if (progress && live > 0) progress(i + 1);
  }
  window.clear();
  refq.stop();
  for (auto& q : disq) q->stop();
  return out;
}

}  // namespace vmafx
