// SPDX-License-Identifier: BSD-3-Clause
#include "model/json_tree.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace vmafx::model_detail {

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

const JsonValue* JsonValue::find(std::string_view key) const {
  const JsonValue* found = nullptr;
  for (const auto& [k, v] : members)
    if (k == key) found = &v;
  return found;
}

const char* kind_name(JsonValue::Kind k) {
  switch (k) {
    case JsonValue::Kind::Null: return "null";
    case JsonValue::Kind::Bool: return "a boolean";
    case JsonValue::Kind::Number: return "a number";
    case JsonValue::Kind::String: return "a string";
    case JsonValue::Kind::Array: return "an array";
    case JsonValue::Kind::Object: return "an object";
  }
  return "?";
}

namespace {

// Builds a JsonValue tree from nlohmann's SAX events.
class TreeBuilder {
 public:
  using json = nlohmann::json;
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  bool null() { return put(JsonValue{}); }
  bool boolean(bool b) {
    JsonValue v;
    v.kind = JsonValue::Kind::Bool;
    v.boolean = b;
    return put(std::move(v));
  }
  bool number_integer(number_integer_t n) { return put_number(static_cast<double>(n), std::to_string(n)); }
  bool number_unsigned(number_unsigned_t n) { return put_number(static_cast<double>(n), std::to_string(n)); }
  bool number_float(number_float_t n, const string_t& s) { return put_number(n, s); }
  bool string(string_t& s) {
    JsonValue v;
    v.kind = JsonValue::Kind::String;
    v.text = std::move(s);
    return put(std::move(v));
  }
  bool binary(binary_t&) { return false; }
  bool start_object(std::size_t) {
    JsonValue v;
    v.kind = JsonValue::Kind::Object;
    open_.push_back(std::move(v));
    keys_.emplace_back();
    return true;
  }
  bool key(string_t& k) {
    keys_.back() = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) {
    JsonValue v;
    v.kind = JsonValue::Kind::Array;
    open_.push_back(std::move(v));
    keys_.emplace_back();
    return true;
  }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    error_ = ex.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix.
    if (!error_.empty() && error_[0] == '[') {
      auto p = error_.find("] ");
      if (p != std::string::npos) error_.erase(0, p + 2);
    }
    return false;
  }

  JsonValue take_root() { return std::move(root_); }
  const std::string& error() const { return error_; }

 private:
  bool put_number(double n, std::string text) {
    JsonValue v;
    v.kind = JsonValue::Kind::Number;
    v.number = n;
    v.text = std::move(text);
    return put(std::move(v));
  }
  bool put(JsonValue v) {
    if (open_.empty()) {
      root_ = std::move(v);
    } else if (open_.back().kind == JsonValue::Kind::Array) {
      open_.back().items.push_back(std::move(v));
    } else {
      open_.back().members.emplace_back(std::move(keys_.back()), std::move(v));
      keys_.back().clear();
    }
    return true;
  }
  bool close() {
    JsonValue v = std::move(open_.back());
    open_.pop_back();
    keys_.pop_back();
    return put(std::move(v));
  }

  std::vector<JsonValue> open_;
  std::vector<std::string> keys_;
  JsonValue root_;
  std::string error_;
};

}  // namespace

JsonValue parse_json(std::string_view text, std::string_view source) {
  TreeBuilder b;
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(text.begin(), text.end(), &b);
  } catch (const std::exception& e) {  // defensive: sax_parse reports through parse_error
    throw model_error(std::string(source) + ": invalid JSON: " + e.what());
  }
  if (!ok) {
    throw model_error(std::string(source) +
                      ": invalid JSON: " + (b.error().empty() ? std::string("parse error") : b.error()));
  }
  return b.take_root();
}

}  // namespace vmafx::model_detail
