#pragma once
// A node argument, as FX holds it: a reference to another node, a Python
// scalar, a torch enum value, None, or a list/tuple of arguments.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/ir/dtype.h"

namespace exportlens::ir {

class Node;
struct Argument;

struct ArgumentList {
  std::vector<Argument> items;
  bool is_tuple = false;  // printed "(a, b)" instead of "[a, b]"
};

struct None {
  friend bool operator==(None, None) { return true; }
};

/// An operator passed as a value (the .pt2's as_operator): the op a
/// higher-order op wraps, as auto_functionalized_v2's first operand.
/// `qualified` is torch's name, "torch.ops.mylib.foo.default".
struct OperatorRef {
  std::string qualified;
  friend bool operator==(const OperatorRef& a, const OperatorRef& b) { return a.qualified == b.qualified; }
};

struct Argument {
  using Variant = std::variant<None, Node*, bool, int64_t, double, std::string, ScalarType, Layout,
                               MemoryFormat, Device, OperatorRef, ArgumentList>;
  Variant v;

  Argument() = default;
  Argument(None) {}                                   // NOLINT
  Argument(Node* n) : v(n) {}                         // NOLINT
  Argument(bool b) : v(b) {}                          // NOLINT
  Argument(int64_t i) : v(i) {}                       // NOLINT
  Argument(int i) : v(int64_t{i}) {}                  // NOLINT
  Argument(double d) : v(d) {}                        // NOLINT
  Argument(std::string s) : v(std::move(s)) {}        // NOLINT
  Argument(const char* s) : v(std::string(s)) {}      // NOLINT
  Argument(ScalarType t) : v(t) {}                    // NOLINT
  Argument(Layout l) : v(l) {}                        // NOLINT
  Argument(MemoryFormat m) : v(m) {}                  // NOLINT
  Argument(Device d) : v(std::move(d)) {}             // NOLINT
  Argument(OperatorRef o) : v(std::move(o)) {}        // NOLINT
  Argument(ArgumentList l) : v(std::move(l)) {}       // NOLINT

  bool is_none() const { return std::holds_alternative<None>(v); }
  Node* node() const {
    auto* p = std::get_if<Node*>(&v);
    return p ? *p : nullptr;
  }
  const ArgumentList* list() const { return std::get_if<ArgumentList>(&v); }

  /// Calls f(Node*) for every node referenced, recursively through lists.
  template <typename F>
  void for_each_node(F&& f) const {
    if (auto* n = std::get_if<Node*>(&v)) {
      f(*n);
    } else if (auto* l = std::get_if<ArgumentList>(&v)) {
      for (const auto& a : l->items) a.for_each_node(f);
    }
  }
  /// Replaces references to `from` by `to`, recursively.
  void replace_node(Node* from, Node* to);
};

struct NamedArgument {
  std::string name;
  Argument value;
};

/// How an argument reads in a difference or a label: a node by its name,
/// scalars as Python writes them, lists and tuples bracketed.
std::string argument_text(const Argument& a);

}  // namespace exportlens::ir
