// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// libsvm's text model format (as embedded in VMAF JSON models) and its
// regression predictor, written to give the same doubles as the libsvm code
// compiled into libvmaf 3.2.0.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vmafx::model_detail {

struct SvmModel {
  enum class Type { EpsilonSvr, NuSvr, OneClass };
  enum class Kernel { Linear, Polynomial, Rbf, Sigmoid };

  Type type = Type::NuSvr;
  Kernel kernel = Kernel::Rbf;
  int degree = 0;
  double gamma = 0.0;
  double coef0 = 0.0;
  double rho = 0.0;

  // Support vector i: coefficient coef[i], sparse entries
  // [sv_begin[i], sv_begin[i + 1]) of sv_index / sv_value (indices ascending, >= 1).
  std::vector<double> coef;
  std::vector<std::uint32_t> sv_begin;
  std::vector<int> sv_index;
  std::vector<double> sv_value;

  std::size_t support_vector_count() const { return coef.size(); }
  int max_index() const;  // largest feature index used by any support vector (0 if none)

  // x[j] is the value of feature index j + 1 (every index present, as libvmaf
  // builds its svm_node array). Returns the decision value: sum_i coef[i] *
  // K(x, SV_i) - rho, summed in support vector order (one-class: +1 / -1).
  double predict(std::span<const double> x) const;
};

// Parses libsvm's text format. Throws vmafx::Error("<source>: libsvm model: ...").
SvmModel parse_svm(std::string_view text, std::string_view source);

}  // namespace vmafx::model_detail
