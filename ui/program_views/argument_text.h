#pragma once
// Node arguments as the inspector shows them, Python-like: `x`, `None`,
// `[1, -1]`, `torch.float32`, with node references as links.
#include <QString>

#include "engine/ir/argument.h"

namespace exportlens::ui {

/// The URL scheme of a link to a node ("node:linear").
inline constexpr char kNodeLinkScheme[] = "node";

/// HTML for an argument; each referenced node is an <a href="node:NAME">.
QString argument_html(const ir::Argument& argument);
/// <a href="node:NAME">NAME</a> ("None" for no node).
QString node_link_html(const ir::Node* node);
/// Python's repr() of a float: "1.0", "0.5", "1e-05", "inf".
QString python_float(double value);

}  // namespace exportlens::ui
