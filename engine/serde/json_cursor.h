#pragma once
// Checked access into a JsonDocument, so every schema error says where it is:
// "models/model.json: graph_module.graph.nodes[3].inputs[1].arg: expected an
// object". A cursor is a document, a value's index and the label of the root:
// copying one costs nothing, and the path is built only when an error is raised.
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "engine/base/error.h"
#include "engine/serde/json_document.h"

namespace exportlens::serde {

class SchemaError : public Error {
 public:
  explicit SchemaError(const std::string& message) : Error(ErrorKind::Input, {}, message) {}
};

class JsonCursor {
 public:
  using Index = JsonDocument::Index;

  /// The root of `doc`; `label` names it in errors and must outlive every cursor made from this one.
  JsonCursor(const JsonDocument& doc, const std::string& label) : doc_(&doc), label_(&label), i_(0) {}

  JsonType type() const { return doc_->type(i_); }
  bool is_object() const { return type() == JsonType::Object; }
  bool is_array() const { return type() == JsonType::Array; }
  bool is_string() const { return type() == JsonType::String; }
  /// "models/model.json.graph_module.graph.nodes[3]": for messages only (it walks the document).
  std::string path() const { return *label_ + doc_->path(i_); }

  bool has(const char* key) const {
    if (!is_object()) return false;
    const Index v = doc_->find(i_, key);
    return v != JsonDocument::kNone && doc_->type(v) != JsonType::Null;
  }
  JsonCursor at(const char* key) const {
    expect_object();
    const Index v = doc_->find(i_, key);
    if (v == JsonDocument::kNone) fail(std::string("missing field '") + key + "'");
    return child(v);
  }
  /// The i-th element of an array (walks i siblings: use elements() to visit them all).
  JsonCursor at(size_t i) const {
    if (!is_array() || i >= doc_->count(i_)) fail("expected an array with an element " + std::to_string(i));
    Index e = i_ + 1;
    for (size_t k = 0; k < i; ++k) e = doc_->skip(e);
    return child(e);
  }
  JsonCursor at(int i) const { return at(static_cast<size_t>(i)); }
  size_t size() const {
    if (!is_array() && !is_object()) fail("expected an array or object");
    return doc_->count(i_);
  }

  template <bool kMembers>
  class Children;
  /// The elements of an array, in order: `for (const JsonCursor& e : c.elements())`.
  using Elements = Children<false>;
  Elements elements() const;
  /// The members of an object: `for (const auto& [key, value] : c.members())`.
  using Members = Children<true>;
  Members members() const;

  std::string str() const { return std::string(view()); }
  std::string_view view() const {
    if (!is_string()) fail("expected a string");
    return doc_->string(i_);
  }
  int64_t integer() const {
    if (type() != JsonType::Integer) {
      if (type() == JsonType::Real && is_whole_number()) fail("integer out of the int64 range");
      fail("expected an integer");
    }
    return doc_->integer(i_);
  }
  double number() const {
    if (is_string()) {  // torch writes inf/nan as strings
      const auto s = doc_->string(i_);
      if (s == "inf" || s == "Infinity") return std::numeric_limits<double>::infinity();
      if (s == "-inf" || s == "-Infinity") return -std::numeric_limits<double>::infinity();
      if (s == "nan" || s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    }
    if (type() == JsonType::Integer) return static_cast<double>(doc_->integer(i_));
    if (type() != JsonType::Real) fail("expected a number");
    return doc_->real(i_);
  }
  bool boolean() const {
    if (type() != JsonType::True && type() != JsonType::False) fail("expected a boolean");
    return type() == JsonType::True;
  }
  /// The single key of a tagged union object ({"as_tensor": {...}}).
  std::string union_tag() const { return std::string(union_key()); }
  std::string_view union_key() const {
    expect_object();
    if (doc_->count(i_) != 1)
      fail("expected exactly one field in a tagged union, found " + std::to_string(doc_->count(i_)));
    return doc_->string(i_ + 1);
  }
  JsonCursor union_value() const {
    union_key();
    return child(i_ + 2);
  }
  void expect_object() const {
    if (!is_object()) fail("expected an object");
  }
  [[noreturn]] void fail(const std::string& what) const { throw SchemaError(path() + ": " + what); }

 private:
  JsonCursor child(Index i) const {
    JsonCursor c = *this;
    c.i_ = i;
    return c;
  }
  bool is_whole_number() const {
    const double d = doc_->real(i_);
    return std::isfinite(d) && std::floor(d) == d && (d >= 9.2233720368547758e18 || d < -9.2233720368547758e18);
  }

  const JsonDocument* doc_;
  const std::string* label_;
  Index i_;
};

/// The values directly inside an array (its elements) or an object (its
/// members: a key, then its value), in order; each one's subtree is skipped.
template <bool kMembers>
class JsonCursor::Children {
 public:
  class iterator {
   public:
    iterator(JsonCursor c, Index at) : c_(c), at_(at) {}
    auto operator*() const {
      if constexpr (kMembers) return std::pair<std::string_view, JsonCursor>{c_.doc_->string(at_), c_.child(at_ + 1)};
      else return c_.child(at_);
    }
    iterator& operator++() {
      at_ = c_.doc_->skip(kMembers ? at_ + 1 : at_);  // a member: its value's subtree, after the key
      return *this;
    }
    bool operator!=(const iterator& o) const { return at_ != o.at_; }

   private:
    JsonCursor c_;
    Index at_;
  };
  explicit Children(JsonCursor container) : container_(container) {}
  iterator begin() const { return {container_, container_.i_ + 1}; }
  iterator end() const { return {container_, container_.doc_->skip(container_.i_)}; }

 private:
  JsonCursor container_;
};

inline JsonCursor::Elements JsonCursor::elements() const {
  if (!is_array()) fail("expected an array");
  return Elements(*this);
}

inline JsonCursor::Members JsonCursor::members() const {
  expect_object();
  return Members(*this);
}

}  // namespace exportlens::serde
