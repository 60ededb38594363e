#pragma once
// What kind of thing a node is, for colouring the canvas in the spirit of
// Netron: graph inputs by signature kind, ops by family, outputs.
#include <QString>

#include "engine/ir/graph_signature.h"
#include "engine/ir/node.h"

namespace exportlens::ui {

enum class NodeCategory {
  UserInput,
  Parameter,
  Buffer,
  Constant,
  LinearAlgebra,
  Convolution,
  Normalization,
  Activation,
  Pooling,
  ShapeView,
  Reduction,
  ControlFlow,
  Custom,
  Other,  // element-wise arithmetic, creation, indexing, ...
  Output,
};
inline constexpr int kNodeCategoryCount = static_cast<int>(NodeCategory::Output) + 1;

NodeCategory categorize(const ir::Node& node, const ir::GraphSignature& signature);
/// "user input", "linear algebra", ...: for legends and tooltips.
QString category_name(NodeCategory category);

}  // namespace exportlens::ui
