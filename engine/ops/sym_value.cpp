#include "engine/ops/sym_value.h"

namespace exportlens::ops {

std::string SymValue::str() const {
  switch (kind) {
    case Kind::None: return "None";
    case Kind::Tensor: {
      std::string s = std::string(ir::short_name(tensor.dtype)) + "[";
      for (size_t i = 0; i < tensor.sizes.size(); ++i) s += (i ? ", " : "") + tensor.sizes[i].str();
      return s + "]";
    }
    case Kind::Int:
    case Kind::Bool: return "Sym(" + scalar.str() + ")";
    case Kind::Float: return std::to_string(number);
    case Kind::List: {
      std::string s = "(";
      for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i].str();
      return s + ")";
    }
  }
  return "?";
}

}  // namespace exportlens::ops
