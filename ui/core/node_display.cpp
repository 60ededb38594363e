#include "ui/core/node_display.h"

namespace exportlens::ui {

layout::NodeLabel display_label(const ir::Node& node, const ir::GraphSignature& signature) {
  layout::NodeLabel label = layout::node_label(node);
  if (node.op != ir::OpKind::Placeholder) return label;
  const ir::InputSpec* spec = signature.input_named(node.name);
  if (!spec || spec->kind == ir::InputKind::UserInput || !spec->target || spec->target->empty()) return label;
  const auto dot = spec->target->rfind('.');
  label.title = dot == std::string::npos ? *spec->target : spec->target->substr(dot + 1);
  return label;
}

}  // namespace exportlens::ui
