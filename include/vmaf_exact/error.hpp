// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <stdexcept>
#include <string>

namespace vmafx {

// Every failure a caller can meet is an Error whose what() is one line naming
// what failed (a file, an option, a model, a device) and the problem. kind()
// says what it is about, for callers that react differently.
class Error : public std::runtime_error {
 public:
  enum class Kind {
    kUsage,        // a bad setting: model or feature string, option, thread count, ...
    kInput,        // a clip cannot be opened or read, or is malformed
    kUnsupported,  // a valid input an extractor cannot score (size, bit depth, chroma)
    kModel,        // a model file or model definition is invalid
    kDevice,       // a GPU backend or device failed
    kOutput,       // a report could not be written
  };
  explicit Error(const std::string& what, Kind kind = Kind::kUsage) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// "usage", "input", ... (for messages and logs).
inline const char* kind_name(Error::Kind k) {
  switch (k) {
    case Error::Kind::kUsage: return "usage";
    case Error::Kind::kInput: return "input";
    case Error::Kind::kUnsupported: return "unsupported";
    case Error::Kind::kModel: return "model";
    case Error::Kind::kDevice: return "device";
    case Error::Kind::kOutput: return "output";
  }
  return "?";
}

}  // namespace vmafx
