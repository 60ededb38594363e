#pragma once
// What a node's box says on the canvas. Like layout::node_label(), except
// that weights show their state-dict leaf ("weight", "running_mean") rather
// than the long placeholder name ("p_layers_0_conv1_weight"): the box sits
// beside the op that reads it, and the inspector gives the full name.
#include "engine/ir/graph_signature.h"
#include "engine/layout/node_label.h"

namespace exportlens::ui {

layout::NodeLabel display_label(const ir::Node& node, const ir::GraphSignature& signature);

}  // namespace exportlens::ui
