#pragma once
// The two lines a node's box shows: the op's short name ("addmm", "x",
// "output") and its output annotation ("f32[s0, 10]").
#include <string>

#include "engine/ir/node.h"
#include "engine/layout/geometry.h"

namespace exportlens::layout {

struct NodeLabel {
  std::string title;
  std::string subtitle;  // empty when the node has no known value
};

NodeLabel node_label(const ir::Node& node);
/// A box for the label when no view measures it: a 10 pt sans font's
/// average advance, about 6 pt per character.
Size estimated_box_size(const NodeLabel& label);
/// "addmm" for aten ops, "mylib::custom_op" for other namespaces, "cond",
/// "auto_functionalized_v2 · scale_" for a HOP wrapping an op, "getitem";
/// the node's name for placeholders, the attribute for get_attr.
std::string op_short_name(const ir::Node& node);
/// "f32[s0, 10]", "Sym(s0)", "(f32[3], i64[])"; empty when unknown.
std::string value_annotation(const ir::ValueInfo& value);

}  // namespace exportlens::layout
