// SPDX-License-Identifier: BSD-3-Clause
#include "model/svm.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace vmafx::model_detail {

namespace {

class SvmParser {
 public:
  SvmParser(std::string_view text, std::string_view source) : t_(text), source_(source) {}

  SvmModel parse() {
    SvmModel m;
    parse_header(m);
    parse_vectors(m);
    return m;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw model_error(std::string(source_) + ": libsvm model: " + what);
  }

  static bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

  // Next whitespace-delimited token of the header ("" at the end of the text).
  std::string_view token() {
    while (pos_ < t_.size() && is_space(t_[pos_])) ++pos_;
    const std::size_t b = pos_;
    while (pos_ < t_.size() && !is_space(t_[pos_])) ++pos_;
    return t_.substr(b, pos_ - b);
  }

  static bool to_double(std::string_view s, double& out) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
  }
  static bool to_int(std::string_view s, int& out) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
  }

  double number(const char* what) {
    const std::string_view tok = token();
    double v;
    if (!to_double(tok, v)) fail(std::string("cannot read ") + what + " (\"" + std::string(tok) + "\")");
    return v;
  }
  int integer(const char* what) {
    const std::string_view tok = token();
    int v;
    if (!to_int(tok, v)) fail(std::string("cannot read ") + what + " (\"" + std::string(tok) + "\")");
    return v;
  }

  void parse_header(SvmModel& m) {
    bool have_type = false, have_kernel = false, have_rho = false;
    int nr_class = 0;
    bool have_nr_class = false;
    long total_sv = -1;
    for (;;) {
      const std::string_view key = token();
      if (key.empty()) fail("no \"SV\" line");
      if (key == "SV") break;
      if (key == "svm_type") {
        const std::string_view v = token();
        if (v == "epsilon_svr")
          m.type = SvmModel::Type::EpsilonSvr;
        else if (v == "nu_svr")
          m.type = SvmModel::Type::NuSvr;
        else if (v == "one_class")
          m.type = SvmModel::Type::OneClass;
        else if (v == "c_svc" || v == "nu_svc")
          fail("unsupported svm_type \"" + std::string(v) + "\" (only regression models are supported)");
        else
          fail("unknown svm_type \"" + std::string(v) + "\"");
        have_type = true;
      } else if (key == "kernel_type") {
        const std::string_view v = token();
        if (v == "linear")
          m.kernel = SvmModel::Kernel::Linear;
        else if (v == "polynomial")
          m.kernel = SvmModel::Kernel::Polynomial;
        else if (v == "rbf")
          m.kernel = SvmModel::Kernel::Rbf;
        else if (v == "sigmoid")
          m.kernel = SvmModel::Kernel::Sigmoid;
        else if (v == "precomputed")
          fail("unsupported kernel_type \"precomputed\"");
        else
          fail("unknown kernel_type \"" + std::string(v) + "\"");
        have_kernel = true;
      } else if (key == "degree") {
        m.degree = integer("degree");
      } else if (key == "gamma") {
        m.gamma = number("gamma");
      } else if (key == "coef0") {
        m.coef0 = number("coef0");
      } else if (key == "nr_class") {
        nr_class = integer("nr_class");
        have_nr_class = true;
        if (nr_class != 2) fail("nr_class is " + std::to_string(nr_class) + ", a regression model has 2");
      } else if (key == "total_sv") {
        const int l = integer("total_sv");
        if (l < 0) fail("negative total_sv");
        total_sv = l;
      } else if (key == "rho" || key == "probA" || key == "probB") {
        if (!have_nr_class) fail(std::string(key) + " before nr_class");
        const double v = number(key == "rho" ? "rho" : "probA/probB");
        if (key == "rho") {
          m.rho = v;
          have_rho = true;
        }
      } else if (key == "label" || key == "nr_sv") {
        if (!have_nr_class) fail(std::string(key) + " before nr_class");
        for (int i = 0; i < nr_class; ++i) (void)integer(key == "label" ? "label" : "nr_sv");
      } else {
        fail("unknown text \"" + std::string(key) + "\" in the header");
      }
    }
    if (!have_type) fail("no svm_type");
    if (!have_kernel) fail("no kernel_type");
    if (!have_nr_class) fail("no nr_class");
    if (total_sv < 0) fail("no total_sv");
    if (!have_rho) fail("no rho");
    m.coef.reserve(static_cast<std::size_t>(total_sv));
    m.sv_begin.reserve(static_cast<std::size_t>(total_sv) + 1);
    total_sv_ = total_sv;
  }

  void parse_vectors(SvmModel& m) {
    // The rest of the "SV" line, then one line per support vector.
    while (pos_ < t_.size() && t_[pos_] != '\n') {
      if (!is_space(t_[pos_])) fail("unexpected text after \"SV\"");
      ++pos_;
    }
    if (pos_ < t_.size()) ++pos_;
    m.sv_begin.push_back(0);
    for (long i = 0; i < total_sv_; ++i) {
      if (pos_ >= t_.size()) {
        fail("total_sv is " + std::to_string(total_sv_) + " but there are only " + std::to_string(i) +
             " support vectors");
      }
      std::size_t e = t_.find('\n', pos_);
      if (e == std::string_view::npos) e = t_.size();
      std::string_view line = t_.substr(pos_, e - pos_);
      pos_ = e < t_.size() ? e + 1 : e;
      parse_vector_line(m, line, i + 1);
    }
  }

  void parse_vector_line(SvmModel& m, std::string_view line, long line_no) {
    const std::string where = "support vector " + std::to_string(line_no) + ": ";
    std::size_t p = 0;
    auto next = [&]() {
      while (p < line.size() && is_space(line[p])) ++p;
      const std::size_t b = p;
      while (p < line.size() && !is_space(line[p])) ++p;
      return line.substr(b, p - b);
    };
    const std::string_view c = next();
    double coef;
    if (!to_double(c, coef)) fail(where + "cannot read the coefficient (\"" + std::string(c) + "\")");
    m.coef.push_back(coef);
    int last = 0;
    for (std::string_view tok = next(); !tok.empty(); tok = next()) {
      const std::size_t colon = tok.find(':');
      int idx;
      double val;
      if (colon == std::string_view::npos || !to_int(tok.substr(0, colon), idx) ||
          !to_double(tok.substr(colon + 1), val)) {
        fail(where + "bad entry \"" + std::string(tok) + "\"");
      }
      if (idx <= last) fail(where + "feature indices must be >= 1 and ascending");
      last = idx;
      m.sv_index.push_back(idx);
      m.sv_value.push_back(val);
    }
    m.sv_begin.push_back(static_cast<std::uint32_t>(m.sv_index.size()));
  }

  std::string_view t_;
  std::string_view source_;
  std::size_t pos_ = 0;
  long total_sv_ = 0;
};

// libsvm's integer power by repeated squaring.
double int_power(double base, int times) {
  double sq = base, result = 1.0;
  for (int t = times; t > 0; t /= 2) {
    if (t % 2 == 1) result *= sq;
    sq = sq * sq;
  }
  return result;
}

}  // namespace

int SvmModel::max_index() const {
  int mx = 0;
  for (std::size_t i = 0; i + 1 < sv_begin.size(); ++i)
    if (sv_begin[i + 1] > sv_begin[i]) mx = std::max(mx, sv_index[sv_begin[i + 1] - 1]);
  return mx;
}

double SvmModel::predict(std::span<const double> x) const {
  const int n = static_cast<int>(x.size());
  double sum = 0.0;
  for (std::size_t s = 0; s < coef.size(); ++s) {
    const int* yi = sv_index.data() + sv_begin[s];
    const double* yv = sv_value.data() + sv_begin[s];
    const int ny = static_cast<int>(sv_begin[s + 1] - sv_begin[s]);
    double k;
    if (kernel == Kernel::Rbf) {
      // Squared distance, accumulated in merged index order exactly as libsvm does.
      double d2 = 0.0;
      int a = 0, b = 0;  // x position (index a + 1), y position
      while (a < n && b < ny) {
        if (a + 1 == yi[b]) {
          const double d = x[a] - yv[b];
          d2 += d * d;
          ++a;
          ++b;
        } else if (a + 1 > yi[b]) {
          d2 += yv[b] * yv[b];
          ++b;
        } else {
          d2 += x[a] * x[a];
          ++a;
        }
      }
      for (; a < n; ++a) d2 += x[a] * x[a];
      for (; b < ny; ++b) d2 += yv[b] * yv[b];
      k = std::exp(-gamma * d2);
    } else {
      double dot = 0.0;
      int a = 0, b = 0;
      while (a < n && b < ny) {
        if (a + 1 == yi[b]) {
          dot += x[a] * yv[b];
          ++a;
          ++b;
        } else if (a + 1 > yi[b]) {
          ++b;
        } else {
          ++a;
        }
      }
      if (kernel == Kernel::Linear)
        k = dot;
      else if (kernel == Kernel::Polynomial)
        k = int_power(gamma * dot + coef0, degree);
      else
        k = std::tanh(gamma * dot + coef0);
    }
    sum += coef[s] * k;
  }
  sum -= rho;
  if (type == Type::OneClass) return sum > 0 ? 1.0 : -1.0;
  return sum;
}

SvmModel parse_svm(std::string_view text, std::string_view source) { return SvmParser(text, source).parse(); }

}  // namespace vmafx::model_detail
