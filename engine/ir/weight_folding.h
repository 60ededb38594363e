#pragma once
// Which placeholders are weights (parameters, buffers, lifted tensor
// constants) and which nodes read them, so a view can fold a weight into the
// ops that use it instead of drawing hundreds of placeholder boxes with
// edges running across the program.
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::ir {

struct WeightFolding {
  /// Per node (by Node::index()): true for a weight placeholder folded into its users.
  std::vector<bool> folded;
  /// Per node: the folded weights it reads (placeholder node indices), in argument order.
  std::vector<std::vector<int>> weights_of;

  bool is_folded(int node) const { return node >= 0 && static_cast<size_t>(node) < folded.size() && folded[node]; }
  size_t folded_count() const;
};

/// A placeholder is folded when the signature says it is a parameter, buffer
/// or constant tensor. One no node reads (a batch norm's num_batches_tracked
/// in eval mode) is folded too: it carries nothing through the graph, and
/// shows when weights are shown as nodes.
WeightFolding fold_weights(const ExportedProgram& program);

}  // namespace exportlens::ir
