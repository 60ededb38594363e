#include "engine/matching/structure_hash.h"

#include <cctype>
#include <functional>
#include <string>

namespace exportlens::matching::hash {
namespace {

bool data_dependent(const std::string& name) {
  return name.size() > 1 && name[0] == 'u' && std::isdigit(static_cast<unsigned char>(name[1]));
}

uint64_t sym_int(const ir::SymInt& s) { return expression(s.expr); }

uint64_t tensor(const ir::TensorMeta& m, bool with_layout = true) {
  uint64_t h = mix(0x7e50, static_cast<uint64_t>(m.dtype));
  h = mix(h, m.sizes.size());
  for (const auto& s : m.sizes) h = mix(h, sym_int(s));
  if (with_layout) {
    h = mix(h, m.strides.size());
    for (const auto& s : m.strides) h = mix(h, sym_int(s));
    h = mix(h, sym_int(m.storage_offset));
  }
  h = mix(mix(h, text(m.device.type)), m.device.index ? static_cast<uint64_t>(*m.device.index) + 1 : 0);
  h = mix(h, static_cast<uint64_t>(m.layout));
  return mix(h, m.requires_grad);
}

uint64_t argument(const ir::Argument& a) {
  return std::visit(
      [](const auto& v) -> uint64_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, ir::None>) {
          return 0x401e;
        } else if constexpr (std::is_same_v<T, ir::Node*>) {
          return 0x4ef;  // wiring is hashed by the scope that knows both ends
        } else if constexpr (std::is_same_v<T, bool>) {
          return mix(0xb001, v);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return mix(0x1a7, static_cast<uint64_t>(v));
        } else if constexpr (std::is_same_v<T, double>) {
          return mix(0xf10a7, std::hash<double>{}(v));
        } else if constexpr (std::is_same_v<T, std::string>) {
          return mix(0x57, text(v));
        } else if constexpr (std::is_same_v<T, ir::ScalarType> || std::is_same_v<T, ir::Layout> ||
                             std::is_same_v<T, ir::MemoryFormat>) {
          return mix(0xe0 + sizeof(T), static_cast<uint64_t>(v));
        } else if constexpr (std::is_same_v<T, ir::Device>) {
          return mix(0xde7, text(v.str()));
        } else if constexpr (std::is_same_v<T, ir::OperatorRef>) {
          return mix(0x0e7, text(v.qualified));
        } else {
          uint64_t h = mix(v.is_tuple ? 0x7u : 0x11u, v.items.size());
          for (const auto& item : v.items) h = mix(h, argument(item));
          return h;
        }
      },
      a.v);
}

}  // namespace

uint64_t text(std::string_view s) { return avalanche(std::hash<std::string_view>{}(s)); }

uint64_t expression(const symbolic::Expr& e) {
  using K = symbolic::Expr::Kind;
  switch (e.kind()) {
    case K::Integer:
      return mix(0x1, static_cast<uint64_t>(*e.as_integer()));
    case K::Symbol:
      return data_dependent(e.symbol_name()) ? 0x0d0d : mix(0x2, text(e.symbol_name()));
    default:
      break;
  }
  if (e.args().empty()) return mix(0x3, e.hash());  // infinities, booleans: no symbols inside
  uint64_t h = mix(0x4, static_cast<uint64_t>(e.kind()));
  for (const auto& a : e.args()) h = mix(h, expression(a));
  return h;
}

uint64_t value(const ir::ValueInfo& v) {
  if (const auto* t = v.tensor()) return tensor(*t);
  if (const auto* s = v.sym_int()) return mix(0x51, sym_int(*s));
  if (const auto* b = v.sym_bool()) return mix(0x5b, expression(b->expr));
  if (const auto* f = std::get_if<ir::SymFloat>(&v.v)) return mix(0x5f, text(f->expr));
  if (const auto* tuple = v.tuple()) {
    uint64_t h = mix(0x70, tuple->size());
    for (const auto& item : *tuple) h = mix(h, value(item));
    return h;
  }
  return 0x0;
}

uint64_t value_shape(const ir::ValueInfo& v) {
  if (const auto* t = v.tensor()) return tensor(*t, false);
  return value(v);
}

uint64_t op(const ir::Node& node) {
  return mix(static_cast<uint64_t>(node.op) + 1, text(node.target.qualified()));
}

uint64_t attributes(const ir::Node& node) {
  uint64_t h = mix(0xa7, node.args().size());
  for (const auto& a : node.args()) h = mix(h, argument(a));
  for (const auto& k : node.kwargs()) h = mix(mix(h, text(k.name)), argument(k.value));
  return h;
}

}  // namespace exportlens::matching::hash
