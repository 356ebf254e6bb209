// SPDX-License-Identifier: BSD-3-Clause
#include "output/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "io/ffmpeg_dl.hpp"
#include "output/report.hpp"
#include "vmaf_exact/version.hpp"

#ifdef VMAFX_HAVE_LIBAV
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>
}
#endif

namespace vmafx {

namespace {

std::string esc(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

// A JSON string that is also safe inside <script> (no "</").
std::string js_str(std::string_view s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += char(c);
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += char(c);
    }
  }
  return o + "\"";
}

[[maybe_unused]] std::string base64(std::string_view in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string o;
  o.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = unsigned((unsigned char)in[i]) << 16 | unsigned((unsigned char)in[i + 1]) << 8 |
                       unsigned((unsigned char)in[i + 2]);
    o += k[v >> 18];
    o += k[(v >> 12) & 63];
    o += k[(v >> 6) & 63];
    o += k[v & 63];
  }
  if (i < in.size()) {
    unsigned v = unsigned((unsigned char)in[i]) << 16;
    if (i + 1 < in.size()) v |= unsigned((unsigned char)in[i + 1]) << 8;
    o += k[v >> 18];
    o += k[(v >> 12) & 63];
    o += i + 1 < in.size() ? k[(v >> 6) & 63] : '=';
    o += '=';
  }
  return o;
}

// The frames pool() reads that have a value.
std::vector<unsigned> scored(const FeatureCollector::Series& s, const ReportInfo& info) {
  std::vector<unsigned> f;
  for (unsigned i = 0; i < info.frames; ++i) {
    if (info.subsample > 1 && i % info.subsample) continue;
    if (s.has(i)) f.push_back(i);
  }
  return f;
}

bool bootstrap_extra(const std::string& n) {
  auto ends = [&](std::string_view e) {
    return n.size() > e.size() && n.compare(n.size() - e.size(), e.size(), e) == 0;
  };
  return ends("_bagging") || ends("_stddev") || ends("_ci_p95_lo") || ends("_ci_p95_hi");
}

// The model series of `fc`: the run's list (those present), or the vmaf* ones.
std::vector<std::string> model_series(const HtmlRunInfo& run, const FeatureCollector& fc) {
  std::vector<std::string> m;
  if (!run.models.empty()) {
    for (const std::string& n : run.models)
      if (fc.find(n)) m.push_back(n);
    return m;
  }
  for (const auto& s : fc.all())
    if (s.name.rfind("vmaf", 0) == 0 && !bootstrap_extra(s.name)) m.push_back(s.name);
  return m;
}

// Series in page order: models first, then the others in libvmaf's order.
std::vector<const FeatureCollector::Series*> ordered(const FeatureCollector& fc,
                                                     const std::vector<std::string>& models) {
  std::vector<const FeatureCollector::Series*> out;
  for (const std::string& n : models) out.push_back(fc.find(n));
  for (const auto& s : fc.all())
    if (std::find(models.begin(), models.end(), s.name) == models.end()) out.push_back(&s);
  return out;
}

// ---- thumbnails ----

struct Thumb {
  std::string ref, dis, diff;  // data: URIs
};

std::uint8_t to8(double v) { return std::uint8_t(std::lround(std::clamp(v, 0.0, 255.0))); }

#ifdef VMAFX_HAVE_LIBAV
// An RGB image as a data: URI: lossy WebP (libavcodec's libwebp encoder,
// quality 80) where the build has it, PNG (libavcodec's own) otherwise.
std::string encode_image(int w, int h, const std::vector<std::uint8_t>& rgb) {
  ffmpeg_require("HTML report");
  const AVCodec* codec = avcodec_find_encoder_by_name("libwebp");
  const bool webp = codec != nullptr;
  if (!webp) codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
  if (!codec) throw Error("FFmpeg's libavcodec has no PNG encoder");
  std::unique_ptr<AVCodecContext, void (*)(AVCodecContext*)> c(avcodec_alloc_context3(codec),
                                                               [](AVCodecContext* p) { avcodec_free_context(&p); });
  std::unique_ptr<AVFrame, void (*)(AVFrame*)> f(av_frame_alloc(), [](AVFrame* p) { av_frame_free(&p); });
  std::unique_ptr<AVPacket, void (*)(AVPacket*)> pkt(av_packet_alloc(), [](AVPacket* p) { av_packet_free(&p); });
  if (!c || !f || !pkt) throw Error("out of memory encoding a thumbnail");
  // libwebp takes YUV 4:2:0 (BT.601, limited range, as WebP decoders read it).
  const AVPixelFormat pf = webp ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_RGB24;
  c->width = w;
  c->height = h;
  c->pix_fmt = pf;
  c->time_base = {1, 25};
  if (webp)
    av_opt_set_double(c->priv_data, "quality", 80, 0);
  else
    av_opt_set(c->priv_data, "pred", "mixed", 0);
  if (avcodec_open2(c.get(), codec, nullptr) < 0)
    throw Error(std::string("cannot open FFmpeg's ") + codec->name + " encoder");
  f->format = pf;
  f->width = w;
  f->height = h;
  if (av_frame_get_buffer(f.get(), 0) < 0) throw Error("out of memory encoding a thumbnail");
  auto px = [&](int x, int y) { return rgb.data() + (std::size_t(y) * w + x) * 3; };
  for (int y = 0; y < h; ++y) {
    std::uint8_t* dst = f->data[0] + std::ptrdiff_t(y) * f->linesize[0];
    if (!webp) {
      std::copy_n(px(0, y), std::size_t(w) * 3, dst);
      continue;
    }
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* q = px(x, y);
      dst[x] = to8(16 + (65.481 * q[0] + 128.553 * q[1] + 24.966 * q[2]) / 255);
    }
  }
  if (webp)
    for (int y = 0; y < (h + 1) / 2; ++y)
      for (int x = 0; x < (w + 1) / 2; ++x) {
        double r = 0, g = 0, b = 0;
        int n = 0;
        for (int yy = 2 * y; yy < std::min(h, 2 * y + 2); ++yy)
          for (int xx = 2 * x; xx < std::min(w, 2 * x + 2); ++xx, ++n) {
            r += px(xx, yy)[0];
            g += px(xx, yy)[1];
            b += px(xx, yy)[2];
          }
        r /= 255.0 * n;
        g /= 255.0 * n;
        b /= 255.0 * n;
        f->data[1][std::ptrdiff_t(y) * f->linesize[1] + x] = to8(128 - 37.797 * r - 74.203 * g + 112.0 * b);
        f->data[2][std::ptrdiff_t(y) * f->linesize[2] + x] = to8(128 + 112.0 * r - 93.786 * g - 18.214 * b);
      }
  f->pts = 0;
  if (avcodec_send_frame(c.get(), f.get()) < 0 || avcodec_send_frame(c.get(), nullptr) < 0)
    throw Error(std::string("FFmpeg's ") + codec->name + " encoder failed");
  std::string out;
  while (avcodec_receive_packet(c.get(), pkt.get()) == 0) {
    out.append(reinterpret_cast<const char*>(pkt->data), std::size_t(pkt->size));
    av_packet_unref(pkt.get());
  }
  if (out.empty()) throw Error(std::string("FFmpeg's ") + codec->name + " encoder gave nothing");
  return std::string(webp ? "data:image/webp;base64," : "data:image/png;base64,") + base64(out);
}
#endif

// Sum of the samples of plane p over [x0, x1) x [y0, y1).
std::uint64_t block_sum(const Picture& pic, int p, int x0, int x1, int y0, int y1) {
  std::uint64_t s = 0;
  for (int y = y0; y < y1; ++y) {
    if (pic.bpc() > 8) {
      const auto* r = pic.row<std::uint16_t>(p, y);
      for (int x = x0; x < x1; ++x) s += r[x];
    } else {
      const auto* r = pic.row<std::uint8_t>(p, y);
      for (int x = x0; x < x1; ++x) s += r[x];
    }
  }
  return s;
}

// The picture shrunk by `k` (mean of each k x k block; chroma over the
// samples of the same area) as RGB: BT.709 from 720 lines up, BT.601 below.
[[maybe_unused]] std::vector<std::uint8_t> rgb_thumb(const Picture& pic, bool full_range, int k, int ow, int oh) {
  const PictureFormat& f = pic.format();
  const double scale = 1.0 / double(1 << (f.bpc - 8));
  const bool bt709 = f.height >= 720;
  const int sx = f.chroma == ChromaFormat::k444 ? 0 : 1, sy = f.chroma == ChromaFormat::k420 ? 1 : 0;
  std::vector<std::uint8_t> out(std::size_t(ow) * oh * 3);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      const double Y = double(block_sum(pic, 0, x * k, x * k + k, y * k, y * k + k)) / (k * k) * scale;
      double cb = 0, cr = 0;
      if (f.chroma != ChromaFormat::k400) {
        const int cx0 = (x * k) >> sx, cx1 = std::max(cx0 + 1, (x * k + k) >> sx);
        const int cy0 = (y * k) >> sy, cy1 = std::max(cy0 + 1, (y * k + k) >> sy);
        const double n = double(cx1 - cx0) * (cy1 - cy0);
        cb = double(block_sum(pic, 1, cx0, cx1, cy0, cy1)) / n * scale - 128;
        cr = double(block_sum(pic, 2, cx0, cx1, cy0, cy1)) / n * scale - 128;
      }
      double yy;
      if (full_range) {
        yy = Y;
      } else {
        yy = (Y - 16) * 255.0 / 219;
        cb *= 255.0 / 224;
        cr *= 255.0 / 224;
      }
      double r, g, b;
      if (bt709) {
        r = yy + 1.5748 * cr;
        g = yy - 0.18733 * cb - 0.46813 * cr;
        b = yy + 1.8556 * cb;
      } else {
        r = yy + 1.402 * cr;
        g = yy - 0.344136 * cb - 0.714136 * cr;
        b = yy + 1.772 * cb;
      }
      std::uint8_t* o = &out[(std::size_t(y) * ow + x) * 3];
      o[0] = to8(r);
      o[1] = to8(g);
      o[2] = to8(b);
    }
  return out;
}

// Mean |luma difference| of each k x k block (in 8-bit steps), times 4,
// through a black - red - yellow - white ramp.
[[maybe_unused]] std::vector<std::uint8_t> diff_thumb(const Picture& a, const Picture& b, int k, int ow, int oh) {
  const double scale = 1.0 / double(1 << (a.bpc() - 8));
  std::vector<std::uint8_t> out(std::size_t(ow) * oh * 3);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      std::uint64_t s = 0;
      for (int yy = y * k; yy < y * k + k; ++yy)
        for (int xx = x * k; xx < x * k + k; ++xx) {
          int va, vb;
          if (a.bpc() > 8) {
            va = a.row<std::uint16_t>(0, yy)[xx];
            vb = b.row<std::uint16_t>(0, yy)[xx];
          } else {
            va = a.row<std::uint8_t>(0, yy)[xx];
            vb = b.row<std::uint8_t>(0, yy)[xx];
          }
          s += std::uint64_t(std::abs(va - vb));
        }
      const double v = std::min(255.0, double(s) / (k * k) * scale * 4);
      std::uint8_t* o = &out[(std::size_t(y) * ow + x) * 3];
      o[0] = to8(3 * v);
      o[1] = to8(3 * v - 255);
      o[2] = to8(3 * v - 510);
    }
  return out;
}

// Reads the rendition's clips again up to the last of `frames` and makes
// their thumbnails; returns a note ("" when all went well).
std::string make_thumbs(const HtmlOptions& opts, std::size_t r, const std::vector<unsigned>& frames,
                        std::map<unsigned, Thumb>& out) {
  if (frames.empty()) return {};
#ifndef VMAFX_HAVE_LIBAV
  (void)opts;
  (void)r;
  (void)out;
  return "Thumbnails of the worst frames need a build with FFmpeg's libavcodec (VMAFX_HAVE_LIBAV); this one has none.";
#else
  if (!opts.reopen)
    return "No thumbnails: the clips could not be read a second time (input from a pipe, or none given).";
  try {
    auto [ref, dis] = opts.reopen(r);
    if (!ref || !dis) return "No thumbnails: the clips could not be read a second time (input from a pipe).";
    if (!(ref->format() == dis->format()))
      return "No thumbnails: the distorted frames are not in the reference's format.";
    const PictureFormat& f = ref->format();
    const int k = std::max(1, (f.width + opts.thumbnail_width - 1) / std::max(1, opts.thumbnail_width));
    const int ow = f.width / k, oh = f.height / k;
    if (ow < 1 || oh < 1) return "No thumbnails: the pictures are too small.";
    Picture a(f), b(f);
    std::vector<unsigned> want = frames;
    std::sort(want.begin(), want.end());
    std::size_t next = 0;
    for (unsigned i = 0; next < want.size(); ++i) {
      const bool need = want[next] == i;
      const bool ok_a = need ? ref->read(a) : ref->skip(a);
      const bool ok_b = ok_a && (need ? dis->read(b) : dis->skip(b));
      if (!ok_a || !ok_b) {
        out.clear();
        return "No thumbnails: " + (ok_a ? dis : ref)->path() + " ended before frame " + std::to_string(want[next]) +
               ".";
      }
      if (!need) continue;
      Thumb t;
      t.ref = encode_image(ow, oh, rgb_thumb(a, ref->full_range(), k, ow, oh));
      t.dis = encode_image(ow, oh, rgb_thumb(b, dis->full_range(), k, ow, oh));
      t.diff = encode_image(ow, oh, diff_thumb(a, b, k, ow, oh));
      out[i] = std::move(t);
      ++next;
    }
  } catch (const Error& e) {
    out.clear();
    return std::string("No thumbnails: ") + e.what();
  }
  return {};
#endif
}

// ---- the page ----

const char* kStyle = R"CSS(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px;font-weight:600}
header p{margin:4px 0 0;color:#b8c0cc;font-size:13px}
main{padding:16px 24px;max-width:1400px}
section{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:12px 16px;margin:0 0 16px}
h2{font-size:16px;margin:0 0 10px}h3{font-size:14px;margin:12px 0 6px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:3px 10px;border-bottom:1px solid #eceff3;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}thead th{background:#f0f2f5;font-weight:600}
tr.model td{font-weight:600}
#chart{width:100%;height:auto;display:block;user-select:none;cursor:crosshair}#chart *{pointer-events:none}
#legend,#legend-more{display:flex;flex-wrap:wrap;gap:4px 14px;margin:6px 0}label{white-space:nowrap}
label i{display:inline-block;width:12px;height:3px;margin:0 4px 3px 2px;vertical-align:middle}
#tip{position:fixed;pointer-events:none;background:rgba(29,36,48,.92);color:#fff;padding:6px 8px;border-radius:4px;font-size:12px;display:none;white-space:pre;z-index:2}
.hint{color:#6b7482;font-size:12px}.note{background:#fff7e0;border:1px solid #f0d890;padding:6px 10px;border-radius:4px}
.frames{display:flex;flex-direction:column;gap:12px}.frame h3{margin:0 0 4px}
.imgs{display:grid;grid-template-columns:repeat(3,minmax(0,480px));gap:8px}.imgs figure{margin:0}.imgs figcaption{font-size:12px;color:#6b7482}
.imgs img{display:block;width:100%;height:auto;image-rendering:auto;border:1px solid #dde1e7}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}dt{color:#6b7482}dd{margin:0;word-break:break-all}
button{font:inherit;padding:2px 10px}
)CSS";

const char* kScript = R"JS(
(function(){
"use strict";
var D=JSON.parse(document.getElementById("chart-data").textContent);
var NS="http://www.w3.org/2000/svg",svg=document.getElementById("chart"),tip=document.getElementById("tip");
var W=1000,H=380,L=58,R=14,T=12,B=36,PW=W-L-R,PH=H-T-B;
var C=["#1f77b4","#d62728","#2ca02c","#ff7f0e","#9467bd","#8c564b","#e377c2","#17becf","#7f7f7f","#bcbd22"];
var S=D.series,x0=D.xmin,x1=D.xmax,drag=null;
var ci=0;S.forEach(function(s){if(s.model||s.on)s.color=C[ci++%C.length];});S.forEach(function(s){if(!s.color)s.color=C[ci++%C.length];});
function el(n,a,p){var e=document.createElementNS(NS,n);for(var k in a)e.setAttribute(k,a[k]);if(p)p.appendChild(e);return e;}
function lower(a,v){var lo=0,hi=a.length;while(lo<hi){var m=(lo+hi)>>1;if(a[m]<v)lo=m+1;else hi=m;}return lo;}
function ticks(a,b,n){var r=b-a;if(!(r>0))return [a];var st=Math.pow(10,Math.floor(Math.log10(r/n)));var e=r/n/st;
 st*=e>=5?10:e>=2?5:e>=1?2:1;var out=[],v=Math.ceil(a/st)*st;for(;v<=b+st*1e-9;v+=st)out.push(+v.toFixed(10));return out;}
function yrange(){var lo=Infinity,hi=-Infinity;S.forEach(function(s){if(!s.on)return;
 var i=Math.max(0,lower(s.x,x0)-1),j=Math.min(s.x.length,lower(s.x,x1)+1);
 for(;i<j;i++){var v=s.y[i];if(v===null||!isFinite(v))continue;if(v<lo)lo=v;if(v>hi)hi=v;}});
 if(lo>hi){lo=0;hi=1;}if(lo===hi){lo-=1;hi+=1;}var p=(hi-lo)*0.05;return [lo-p,hi+p];}
var ylo=0,yhi=1;
function px(x){return L+(x1>x0?(x-x0)/(x1-x0):0.5)*PW;}function py(y){return T+(1-(y-ylo)/(yhi-ylo))*PH;}
function draw(){while(svg.firstChild)svg.removeChild(svg.firstChild);var r=yrange();ylo=r[0];yhi=r[1];
 el("rect",{x:L,y:T,width:PW,height:PH,fill:"#fff",stroke:"#c9ced6"},svg);
 ticks(ylo,yhi,6).forEach(function(v){var y=py(v);el("line",{x1:L,x2:L+PW,y1:y,y2:y,stroke:"#eceff3"},svg);
  el("text",{x:L-6,y:y+4,"text-anchor":"end","font-size":11,fill:"#6b7482"},svg).textContent=v;});
 ticks(x0,x1,10).forEach(function(v){if(v!==Math.round(v))return;var x=px(v);el("line",{x1:x,x2:x,y1:T,y2:T+PH,stroke:"#f3f4f6"},svg);
  el("text",{x:x,y:T+PH+16,"text-anchor":"middle","font-size":11,fill:"#6b7482"},svg).textContent=v;});
 el("text",{x:L+PW/2,y:H-4,"text-anchor":"middle","font-size":12,fill:"#1d2430"},svg).textContent="frame";
 var clip=el("clipPath",{id:"plotclip"},el("defs",{},svg));el("rect",{x:L,y:T,width:PW,height:PH},clip);
 var g=el("g",{"clip-path":"url(#plotclip)"},svg);
 S.forEach(function(s,k){if(!s.on)return;var i=Math.max(0,lower(s.x,x0)-1),j=Math.min(s.x.length,lower(s.x,x1)+1),pts=[];
  for(;i<j;i++){var v=s.y[i];if(v===null||!isFinite(v))continue;pts.push(px(s.x[i]).toFixed(1)+","+py(v).toFixed(1));}
  el("polyline",{points:pts.join(" "),fill:"none",stroke:s.color,"stroke-width":1.3,"class":"series","data-series":s.name,"data-rendition":s.r},g);});
 cursor=el("line",{x1:0,x2:0,y1:T,y2:T+PH,stroke:"#1d2430","stroke-dasharray":"3,3",visibility:"hidden"},svg);
 band=el("rect",{x:0,y:T,width:0,height:PH,fill:"rgba(31,119,180,.12)",visibility:"hidden"},svg);
 document.getElementById("zoomout").disabled=(x0===D.xmin&&x1===D.xmax);}
var cursor,band;
function svgx(ev){var p=svg.createSVGPoint();p.x=ev.clientX;p.y=ev.clientY;return p.matrixTransform(svg.getScreenCTM().inverse()).x;}
function frameAt(x){return x0+(Math.min(Math.max(x,L),L+PW)-L)/PW*(x1-x0);}
svg.addEventListener("mousemove",function(ev){var x=svgx(ev),f=frameAt(x);
 if(drag!==null){var a=Math.min(drag,x),b=Math.max(drag,x);band.setAttribute("x",Math.max(a,L));band.setAttribute("width",Math.max(0,Math.min(b,L+PW)-Math.max(a,L)));band.setAttribute("visibility","visible");}
 var lines=[],best=null;S.forEach(function(s){if(!s.on||!s.x.length)return;var i=lower(s.x,f);
  if(i>=s.x.length||(i>0&&f-s.x[i-1]<s.x[i]-f))i--;if(best===null||Math.abs(s.x[i]-f)<Math.abs(best-f))best=s.x[i];
  lines.push([s.label,s.x[i],s.y[i]]);});
 if(best===null){tip.style.display="none";return;}
 var txt="frame "+best;lines.forEach(function(l){txt+="\n"+l[0]+": "+(l[1]===best?l[2]:"(frame "+l[1]+") "+l[2]);});
 tip.textContent=txt;tip.style.display="block";tip.style.left=(ev.clientX+14)+"px";tip.style.top=(ev.clientY+14)+"px";
 cursor.setAttribute("x1",px(best));cursor.setAttribute("x2",px(best));cursor.setAttribute("visibility","visible");});
svg.addEventListener("mouseleave",function(){tip.style.display="none";if(cursor)cursor.setAttribute("visibility","hidden");});
svg.addEventListener("mousedown",function(ev){drag=svgx(ev);ev.preventDefault();});
window.addEventListener("mouseup",function(ev){if(drag===null)return;var a=frameAt(drag),b=frameAt(svgx(ev));drag=null;
 band.setAttribute("visibility","hidden");
 if(Math.abs(b-a)*PW/(x1-x0||1)>4){x0=Math.floor(Math.min(a,b));x1=Math.ceil(Math.max(a,b));if(x1<=x0)x1=x0+1;draw();}});
svg.addEventListener("dblclick",function(){x0=D.xmin;x1=D.xmax;draw();});
document.getElementById("zoomout").addEventListener("click",function(){x0=D.xmin;x1=D.xmax;draw();});
var lg=document.getElementById("legend"),more=document.getElementById("legend-more");
S.forEach(function(s){var l=document.createElement("label"),c=document.createElement("input");c.type="checkbox";c.checked=s.on;
 c.addEventListener("change",function(){s.on=c.checked;draw();});var i=document.createElement("i");i.style.background=s.color;
 l.appendChild(c);l.appendChild(i);l.appendChild(document.createTextNode(s.label));(s.model||s.on?lg:more).appendChild(l);});
if(!more.firstChild)more.parentNode.style.display="none";
draw();
document.body.setAttribute("data-ready","1");
})();
)JS";

struct Page {
  std::string s;
  Page& operator<<(std::string_view v) {
    s += v;
    return *this;
  }
};

// A file's name without its folders, for legends and tables.
std::string short_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos || slash + 1 == path.size() ? path : path.substr(slash + 1);
}

std::string fmt_frames(const ReportInfo& info, std::size_t scored_count) {
  std::string t = std::to_string(info.frames);
  if (info.subsample > 1)
    t += " (" + std::to_string(scored_count) + " scored: every " + std::to_string(info.subsample) + ")";
  return t;
}

}  // namespace

std::vector<unsigned> html_chart_frames(const FeatureCollector::Series& s, const ReportInfo& info, std::size_t budget) {
  std::vector<unsigned> all = scored(s, info);
  if (budget < 2) budget = 2;
  if (all.size() <= budget) return all;
  const std::size_t runs = budget / 2, n = all.size();
  std::vector<unsigned> out;
  out.reserve(budget);
  for (std::size_t r = 0; r < runs; ++r) {
    const std::size_t a = r * n / runs, b = (r + 1) * n / runs;
    std::size_t lo = a, hi = a;
    for (std::size_t i = a; i < b; ++i) {
      const double v = s.value[all[i]];
      if (std::isnan(v)) continue;
      if (std::isnan(s.value[all[lo]]) || v < s.value[all[lo]]) lo = i;
      if (std::isnan(s.value[all[hi]]) || v > s.value[all[hi]]) hi = i;
    }
    out.push_back(all[std::min(lo, hi)]);
    if (lo != hi) out.push_back(all[std::max(lo, hi)]);
  }
  return out;
}

std::vector<unsigned> html_worst_frames(const FeatureCollector::Series& s, const ReportInfo& info, unsigned n) {
  std::vector<unsigned> f;
  for (unsigned i : scored(s, info))
    if (std::isfinite(s.value[i])) f.push_back(i);
  const std::size_t k = std::min<std::size_t>(n, f.size());
  std::partial_sort(f.begin(), f.begin() + std::ptrdiff_t(k), f.end(), [&](unsigned a, unsigned b) {
    return s.value[a] < s.value[b] || (s.value[a] == s.value[b] && a < b);
  });
  f.resize(k);
  return f;
}

bool html_thumbnails_supported() {
#ifdef VMAFX_HAVE_LIBAV
  try {
    ffmpeg_require("HTML report");
  } catch (const Error&) {
    return false;
  }
  return avcodec_find_encoder_by_name("libwebp") || avcodec_find_encoder(AV_CODEC_ID_PNG);
#else
  return false;
#endif
}

std::string html_report(const std::vector<HtmlRendition>& renditions, const HtmlRunInfo& run, const HtmlOptions& opts) {
  if (renditions.empty()) throw Error("HTML report: no renditions");
  for (const HtmlRendition& r : renditions)
    if (!r.scores) throw Error("HTML report: rendition " + r.label + " has no scores");
  const bool multi = renditions.size() > 1;

  // Percentiles: the options' and every rendition's report percentiles.
  std::vector<Percentile> pcts = opts.percentiles;
  for (const HtmlRendition& r : renditions)
    for (Percentile p : r.info.percentiles)
      if (std::find(pcts.begin(), pcts.end(), p) == pcts.end()) pcts.push_back(p);
  std::sort(pcts.begin(), pcts.end(), [](Percentile a, Percentile b) { return a.milli < b.milli; });

  std::vector<std::vector<std::string>> models;
  std::size_t total_series = 0;
  for (const HtmlRendition& r : renditions) {
    models.push_back(model_series(run, *r.scores));
    total_series += r.scores->all().size();
  }
  const std::size_t budget =
      std::clamp<std::size_t>(opts.max_points / std::max<std::size_t>(1, total_series), 1000, 20000);

  const std::string title = run.title.empty() ? "VMAF report" : run.title;
  Page p;
  p << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
       "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
    << "<meta name=\"generator\" content=\"vmaf-exact " << kVersion << "\">\n"
    << "<title>" << esc(title) << "</title>\n<style>" << kStyle << "</style></head><body>\n";
  p << "<header><h1>" << esc(title) << "</h1><p>" << esc(short_name(run.reference));
  if (multi)
    p << " vs " << std::to_string(renditions.size()) << " renditions";
  else
    p << " vs " << esc(short_name(renditions[0].label));
  p << "</p></header>\n<main>\n";

  // Chart.
  double xmax = 0;
  p << "<section id=\"chart-section\"><h2>Per-frame scores</h2>\n"
    << "<div id=\"legend\"></div>\n<details><summary>more series</summary><div id=\"legend-more\"></div></details>\n"
    << "<svg id=\"chart\" viewBox=\"0 0 1000 380\" role=\"img\" aria-label=\"per-frame scores\"></svg>\n"
    << "<p class=\"hint\">Hover for values; drag across the chart to zoom in, double-click or "
    << "<button id=\"zoomout\" type=\"button\">show all</button> to zoom out.";
  std::string data = "{\"series\":[";
  bool first_series = true;
  bool decimated = false;
  for (std::size_t r = 0; r < renditions.size(); ++r) {
    const HtmlRendition& rd = renditions[r];
    const auto& ms = models[r];
    const auto series = ordered(*rd.scores, ms);
    for (std::size_t k = 0; k < series.size(); ++k) {
      const FeatureCollector::Series& s = *series[k];
      const bool is_model = k < ms.size();
      const bool on = is_model || (ms.empty() && k == 0);
      const std::vector<unsigned> f = html_chart_frames(s, rd.info, budget);
      if (f.size() < scored(s, rd.info).size()) decimated = true;
      if (!f.empty()) xmax = std::max(xmax, double(f.back()));
      const std::string label = multi ? short_name(rd.label) + ": " + s.name : s.name;
      data += first_series ? "" : ",";
      first_series = false;
      data += "{\"name\":" + js_str(s.name) + ",\"label\":" + js_str(label) + ",\"r\":" + std::to_string(r) +
              ",\"model\":" + (is_model ? "true" : "false") + ",\"on\":" + (on ? "true" : "false") + ",\"x\":[";
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (i) data += ',';
        data += std::to_string(f[i]);
      }
      data += "],\"y\":[";
      for (std::size_t i = 0; i < f.size(); ++i) {
        const double v = s.value[f[i]];
        data += i ? "," : "";
        data += std::isfinite(v) ? rd.info.precision.format(v) : "null";
      }
      data += "]}";
    }
  }
  data += "],\"xmin\":0,\"xmax\":" + std::to_string(std::max(1.0, xmax)) + "}";
  if (decimated)
    p << " Long clip: each series is plotted with the lowest and highest score of each run of "
      << std::to_string(budget / 2) << " runs of frames.";
  p << "</p>\n<div id=\"tip\"></div>\n<script type=\"application/json\" id=\"chart-data\">" << data
    << "</script>\n</section>\n";

  // Summary of a ladder.
  if (multi) {
    p << "<section><h2>Renditions</h2><table id=\"summary\"><thead><tr><th>rendition</th><th>format</th>"
         "<th>frames</th><th>model</th><th>mean</th><th>harmonic mean</th><th>min</th><th>1% low</th></tr></thead>"
         "<tbody>\n";
    for (std::size_t r = 0; r < renditions.size(); ++r) {
      const HtmlRendition& rd = renditions[r];
      const Precision& pr = rd.info.precision;
      for (const std::string& m : models[r]) {
        const FeatureCollector::Series& s = *rd.scores->find(m);
        auto cell = [&](const char* stat, std::optional<double> v) {
          p << "<td data-stat=\"" << stat << "\">" << (v ? esc(pr.format(*v)) : std::string()) << "</td>";
        };
        p << "<tr data-rendition=\"" << std::to_string(r) << "\" data-series=\"" << esc(m) << "\"><td>"
          << esc(short_name(rd.label)) << "</td><td>" << esc(rd.description) << "</td><td>"
          << fmt_frames(rd.info, scored(s, rd.info).size()) << "</td><td>" << esc(m) << "</td>";
        cell("mean", pool(s, PoolMethod::kMean, rd.info.frames, rd.info.subsample));
        cell("harmonic_mean", pool(s, PoolMethod::kHarmonicMean, rd.info.frames, rd.info.subsample));
        cell("min", pool(s, PoolMethod::kMin, rd.info.frames, rd.info.subsample));
        const auto st = score_stats(s, rd.info.frames, rd.info.subsample);
        cell("low1", st ? std::optional<double>(st->low1) : std::nullopt);
        p << "</tr>\n";
      }
    }
    p << "</tbody></table><p class=\"hint\">1% low: the mean of the lowest 1% of the per-frame scores (ceil(n / 100) "
         "frames), as the ladder summary of the CLI.</p>"
         "</section>\n";
  }

  // Per rendition: pooled values, worst frames.
  for (std::size_t r = 0; r < renditions.size(); ++r) {
    const HtmlRendition& rd = renditions[r];
    const Precision& pr = rd.info.precision;
    const auto& ms = models[r];
    const auto series = ordered(*rd.scores, ms);
    p << "<section class=\"rendition\" data-rendition=\"" << std::to_string(r) << "\"><h2>"
      << (multi ? esc(short_name(rd.label)) + ": pooled scores" : std::string("Pooled scores")) << "</h2>\n"
      << "<table class=\"stats\" data-rendition=\"" << std::to_string(r)
      << "\"><thead><tr><th>metric</th><th>mean</th><th>harmonic mean</th><th>min</th><th>max</th>";
    for (Percentile q : pcts) p << "<th>" << esc(q.name()) << "</th>";
    p << "</tr></thead><tbody>\n";
    for (std::size_t k = 0; k < series.size(); ++k) {
      const FeatureCollector::Series& s = *series[k];
      p << "<tr" << (k < ms.size() ? " class=\"model\"" : "") << " data-series=\"" << esc(s.name) << "\"><td>"
        << esc(s.name) << "</td>";
      const PoolMethod order[] = {PoolMethod::kMean, PoolMethod::kHarmonicMean, PoolMethod::kMin, PoolMethod::kMax};
      for (PoolMethod m : order) {
        auto v = pool(s, m, rd.info.frames, rd.info.subsample);
        p << "<td data-stat=\"" << pool_method_name(m) << "\">" << (v ? esc(pr.format(*v)) : std::string()) << "</td>";
      }
      for (Percentile q : pcts) {
        auto v = percentile(s, q, rd.info.frames, rd.info.subsample);
        p << "<td data-stat=\"" << esc(q.name()) << "\">" << (v ? esc(pr.format(*v)) : std::string()) << "</td>";
      }
      p << "</tr>\n";
    }
    p << "</tbody></table>\n<p class=\"hint\">Pooled as libvmaf pools; percentiles by nearest rank: the value of rank "
         "ceil(P/100 &times; n) of the n scored frames sorted ascending (rank 1 for P = 0).</p>\n";

    // Worst frames.
    const FeatureCollector::Series* rank_by =
        !ms.empty() ? rd.scores->find(ms[0]) : (rd.scores->all().empty() ? nullptr : &rd.scores->all()[0]);
    if (rank_by && opts.worst > 0) {
      const std::vector<unsigned> worst = html_worst_frames(*rank_by, rd.info, opts.worst);
      std::map<unsigned, Thumb> thumbs;
      const std::string note = make_thumbs(opts, r, worst, thumbs);
      p << "<h3>Worst frames by " << esc(rank_by->name) << "</h3>\n";
      if (!note.empty())
        p << "<p class=\"note\" id=\"thumb-note-" << std::to_string(r) << "\">" << esc(note) << "</p>\n";
      p << "<div class=\"frames\">\n";
      for (unsigned f : worst) {
        p << "<div class=\"frame\" data-frame=\"" << std::to_string(f) << "\"><h3>frame " << std::to_string(f) << ": "
          << esc(rank_by->name) << " <span class=\"score\">" << esc(pr.format(rank_by->value[f])) << "</span></h3>";
        if (auto it = thumbs.find(f); it != thumbs.end()) {
          p << "<div class=\"imgs\">";
          const std::pair<const char*, const std::string*> imgs[] = {
              {"reference", &it->second.ref}, {"distorted", &it->second.dis}, {"difference", &it->second.diff}};
          for (const auto& [what, uri] : imgs)
            p << "<figure><img class=\"thumb\" data-kind=\"" << what << "\" alt=\"" << what << " frame "
              << std::to_string(f) << "\" src=\"" << *uri << "\"><figcaption>"
              << (std::string_view(what) == "difference" ? "|luma difference| &times; 4" : what)
              << "</figcaption></figure>";
          p << "</div>";
        }
        p << "</div>\n";
      }
      p << "</div>\n";
    }
    p << "</section>\n";
  }

  // What was scored.
  p << "<section id=\"info\"><h2>What was scored</h2><dl>\n";
  auto row = [&](std::string_view k, const std::string& v) {
    if (!v.empty()) p << "<dt>" << esc(k) << "</dt><dd>" << esc(v) << "</dd>\n";
  };
  row("reference", run.reference + (run.reference_description.empty() ? "" : ", " + run.reference_description));
  for (const HtmlRendition& rd : renditions) {
    std::string v = rd.label;
    if (!rd.description.empty()) v += ", " + rd.description;
    v += ", " + std::to_string(rd.info.frames) + " frames";
    if (rd.info.subsample > 1) v += " (every " + std::to_string(rd.info.subsample) + " scored)";
    if (!rd.scaling.empty()) v += ", scaling: " + rd.scaling;
    if (!rd.sync_offset.empty()) v += ", sync: " + rd.sync_offset;
    row("distorted", v);
  }
  std::string mods;
  for (const std::string& m : run.model_options) mods += (mods.empty() ? "" : "; ") + m;
  row("models", mods);
  std::string feats;
  for (const std::string& f : run.features) feats += (feats.empty() ? "" : "; ") + f;
  row("features", feats);
  for (const std::string& o : run.options) row("option", o);
  row("backend", run.backend.empty() ? "cpu" : run.backend);
  row("versions", "vmaf-exact " + std::string(kVersion) + ", scores of libvmaf " + std::string(kLibvmafVersion));
  p << "</dl></section>\n</main>\n<script>" << kScript << "</script>\n</body></html>\n";
  return std::move(p.s);
}

void save_html_report(const std::string& path, const std::vector<HtmlRendition>& renditions, const HtmlRunInfo& run,
                      const HtmlOptions& opts) {
  std::string page;
  try {
    page = html_report(renditions, run, opts);
  } catch (const Error& e) {
    throw output_error(path + ": " + e.what());
  }
  save_output(path, [&](std::FILE* f) { write_text(f, page); });
}

std::string html_page(const FeatureCollector& fc, const ReportInfo& info) {
  HtmlRendition r;
  r.label = "distorted";
  r.scores = &fc;
  r.info = info;
  r.description = std::to_string(info.width) + "x" + std::to_string(info.height);
  return html_report({r}, {}, {});
}

}  // namespace vmafx
