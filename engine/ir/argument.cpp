#include "engine/ir/argument.h"

namespace exportlens::ir {

void Argument::replace_node(Node* from, Node* to) {
  if (auto* n = std::get_if<Node*>(&v)) {
    if (*n == from) *n = to;
  } else if (auto* l = std::get_if<ArgumentList>(&v)) {
    for (auto& a : l->items) a.replace_node(from, to);
  }
}

}  // namespace exportlens::ir
