// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Public header (vmaf_exact/error.hpp), and shorthands for the library's own
// throws by kind.
#include "vmaf_exact/error.hpp"

namespace vmafx {

inline Error input_error(const std::string& what) { return Error(what, Error::Kind::kInput); }
inline Error unsupported_error(const std::string& what) { return Error(what, Error::Kind::kUnsupported); }
inline Error model_error(const std::string& what) { return Error(what, Error::Kind::kModel); }
inline Error device_error(const std::string& what) { return Error(what, Error::Kind::kDevice); }
inline Error output_error(const std::string& what) { return Error(what, Error::Kind::kOutput); }

}  // namespace vmafx
