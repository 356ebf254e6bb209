#pragma once
#include <stdexcept>
#include <string>

namespace vmafx {

// Every user-facing failure (bad input, bad option, unsupported format) is an
// Error whose what() is one line that names the input and the problem.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace vmafx
