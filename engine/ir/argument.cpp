#include "engine/ir/argument.h"

#include "engine/ir/node.h"
#include "engine/ir/python_repr.h"

namespace exportlens::ir {

void Argument::replace_node(Node* from, Node* to) {
  if (auto* n = std::get_if<Node*>(&v)) {
    if (*n == from) *n = to;
  } else if (auto* l = std::get_if<ArgumentList>(&v)) {
    for (auto& a : l->items) a.replace_node(from, to);
  }
}

std::string argument_text(const Argument& a) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, None>) return "None";
        else if constexpr (std::is_same_v<T, Node*>) return v ? v->name : "?";
        else if constexpr (std::is_same_v<T, bool>) return py_repr_bool(v);
        else if constexpr (std::is_same_v<T, int64_t>) return std::to_string(v);
        else if constexpr (std::is_same_v<T, double>) return py_repr_float(v);
        else if constexpr (std::is_same_v<T, std::string>) return py_repr_string(v);
        else if constexpr (std::is_same_v<T, ScalarType> || std::is_same_v<T, Layout> ||
                           std::is_same_v<T, MemoryFormat>) return std::string(torch_name(v));
        else if constexpr (std::is_same_v<T, Device>) return v.str();
        else if constexpr (std::is_same_v<T, OperatorRef>) return v.qualified;
        else {
          std::string s = v.is_tuple ? "(" : "[";
          for (size_t i = 0; i < v.items.size(); ++i) s += (i ? ", " : "") + argument_text(v.items[i]);
          return s + (v.is_tuple ? ")" : "]");
        }
      },
      a.v);
}

}  // namespace exportlens::ir
