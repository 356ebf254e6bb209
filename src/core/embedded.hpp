// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <cstddef>
#include <string_view>

namespace vmafx {

// A file compiled into the binary (built-in models, OpenCL kernel sources).
struct EmbeddedFile {
  const char* name;
  const char* data;  // NUL-terminated; size excludes the terminator
  std::size_t size;
  std::string_view view() const { return {data, size}; }
};

}  // namespace vmafx
