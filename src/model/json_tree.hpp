// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A small JSON document tree for model files. Unlike nlohmann::json it keeps
// object members in file order (duplicates included) and the source text of
// every number, both of which libvmaf's streaming reader depends on.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vmafx::model_detail {

struct JsonValue {
  // Out of line: the members hold JsonValues, a type still incomplete here
  // (clang rejects the implicit, constexpr destructor of C++20's vector).
  JsonValue();
  JsonValue(const JsonValue&);
  JsonValue(JsonValue&&) noexcept;
  JsonValue& operator=(const JsonValue&);
  JsonValue& operator=(JsonValue&&) noexcept;
  ~JsonValue();

  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0.0;                                     // Number: the value (strtod of the text)
  std::string text;                                        // Number: source text; String: the decoded string
  std::vector<JsonValue> items;                            // Array
  std::vector<std::pair<std::string, JsonValue>> members;  // Object, in file order

  bool is_object() const { return kind == Kind::Object; }
  bool is_array() const { return kind == Kind::Array; }
  bool is_number() const { return kind == Kind::Number; }
  bool is_string() const { return kind == Kind::String; }
  bool is_bool() const { return kind == Kind::Bool; }
  bool is_null() const { return kind == Kind::Null; }
  // Last member named `key`, or nullptr.
  const JsonValue* find(std::string_view key) const;
};

const char* kind_name(JsonValue::Kind k);

// Parses a whole JSON text. On a syntax error, throws vmafx::Error with the
// message "<source>: invalid JSON: <details>".
JsonValue parse_json(std::string_view text, std::string_view source);

}  // namespace vmafx::model_detail
