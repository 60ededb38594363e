#pragma once
// Path-tracking access into nlohmann::ordered_json so every schema error says where
// it is: "models/model.json: graph_module.graph.nodes[3].inputs[1].arg:
// expected an object".
#include <nlohmann/json.hpp>

#include <limits>
#include <stdexcept>
#include <string>

namespace exportlens::serde {

class SchemaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class JsonCursor {
 public:
  JsonCursor(const nlohmann::ordered_json& j, std::string path) : j_(&j), path_(std::move(path)) {}

  const nlohmann::ordered_json& json() const { return *j_; }
  const std::string& path() const { return path_; }

  bool has(const char* key) const { return j_->is_object() && j_->contains(key) && !(*j_)[key].is_null(); }
  JsonCursor at(const char* key) const {
    expect_object();
    auto it = j_->find(key);
    if (it == j_->end()) fail(std::string("missing field '") + key + "'");
    return JsonCursor(*it, path_ + "." + key);
  }
  JsonCursor at(int i) const { return at(static_cast<size_t>(i)); }
  JsonCursor at(size_t i) const {
    if (!j_->is_array() || i >= j_->size()) fail("expected an array with an element " + std::to_string(i));
    return JsonCursor((*j_)[i], path_ + "[" + std::to_string(i) + "]");
  }
  size_t size() const {
    if (!j_->is_array() && !j_->is_object()) fail("expected an array or object");
    return j_->size();
  }
  std::string str() const {
    if (!j_->is_string()) fail("expected a string");
    return j_->get<std::string>();
  }
  int64_t integer() const {
    if (!j_->is_number_integer()) fail("expected an integer");
    return j_->get<int64_t>();
  }
  double number() const {
    if (j_->is_string()) {  // JSON has no inf/nan: torch writes them as strings
      const auto s = j_->get<std::string>();
      if (s == "inf" || s == "Infinity") return std::numeric_limits<double>::infinity();
      if (s == "-inf" || s == "-Infinity") return -std::numeric_limits<double>::infinity();
      if (s == "nan" || s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    }
    if (!j_->is_number()) fail("expected a number");
    return j_->get<double>();
  }
  bool boolean() const {
    if (!j_->is_boolean()) fail("expected a boolean");
    return j_->get<bool>();
  }
  /// The single key of a tagged union object ({"as_tensor": {...}}).
  std::string union_tag() const {
    expect_object();
    if (j_->size() != 1) fail("expected exactly one field in a tagged union, found " + std::to_string(j_->size()));
    return j_->begin().key();
  }
  JsonCursor union_value() const { return at(union_tag().c_str()); }
  void expect_object() const {
    if (!j_->is_object()) fail("expected an object");
  }
  [[noreturn]] void fail(const std::string& what) const { throw SchemaError(path_ + ": " + what); }

 private:
  const nlohmann::ordered_json* j_;
  std::string path_;
};

}  // namespace exportlens::serde
