#include "ui/program_views/node_report.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <vector>

#include "engine/layout/node_label.h"
#include "ui/canvas/node_category.h"
#include "ui/core/qstring_from.h"
#include "ui/program_views/argument_text.h"

namespace exportlens::ui {
namespace {

QString esc(const std::string& s) { return qs(s).toHtmlEscaped(); }
QString code(const QString& html) { return QStringLiteral("<code>%1</code>").arg(html); }

// A two-column table of label / value rows.
class Table {
 public:
  explicit Table(const ReportColors& colors) : colors_(colors) {}
  void row(const QString& label, const QString& value_html) {
    rows_ << QStringLiteral("<tr><td style=\"color:%1; padding-right:10px;\" valign=\"top\">%2</td><td>%3</td></tr>")
                 .arg(colors_.label.name(), label.toHtmlEscaped(), value_html);
  }
  bool empty() const { return rows_.isEmpty(); }
  QString html() const {
    return QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\">%1</table>").arg(rows_.join(QString()));
  }

 private:
  const ReportColors& colors_;
  QStringList rows_;
};

QString section(const QString& title, const QString& body, const ReportColors& colors) {
  return QStringLiteral("<p style=\"margin-top:12px; margin-bottom:3px; color:%1;\"><b>%2</b></p>%3")
      .arg(colors.heading.name(), title.toHtmlEscaped(), body);
}

QString sizes_text(const std::vector<ir::SymInt>& sizes) {
  QStringList parts;
  for (const auto& s : sizes) parts << qs(s.str());
  return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

void tensor_rows(Table& table, const ir::TensorMeta& t, const QString& prefix) {
  table.row(prefix + QObject::tr("dtype"), code(QStringLiteral("%1 (%2)").arg(qs(ir::short_name(t.dtype)), qs(ir::torch_name(t.dtype)))));
  table.row(prefix + QObject::tr("shape"), code(sizes_text(t.sizes).toHtmlEscaped()));
  if (!t.strides.empty()) table.row(prefix + QObject::tr("strides"), code(sizes_text(t.strides).toHtmlEscaped()));
  if (!t.storage_offset.is_static() || t.storage_offset.expr.as_integer().value_or(0) != 0)
    table.row(prefix + QObject::tr("storage offset"), code(qs(t.storage_offset.str()).toHtmlEscaped()));
  table.row(prefix + QObject::tr("device"), code(esc(t.device.str())));
  if (t.layout != ir::Layout::Strided) table.row(prefix + QObject::tr("layout"), code(qs(ir::torch_name(t.layout))));
  if (t.requires_grad) table.row(prefix + QObject::tr("requires grad"), QStringLiteral("True"));
}

void value_rows(Table& table, const ir::ValueInfo& value, const QString& prefix) {
  if (const auto* t = value.tensor()) {
    tensor_rows(table, *t, prefix);
  } else if (const auto* s = value.sym_int()) {
    QString text = esc(s->str());
    if (s->hint && !s->is_static()) text += QObject::tr(" (example value %1)").arg(*s->hint);
    table.row(prefix + QObject::tr("SymInt"), code(text));
  } else if (const auto* b = value.sym_bool()) {
    table.row(prefix + QObject::tr("SymBool"), code(esc(b->expr.str())));
  } else if (const auto* tuple = value.tuple()) {
    for (size_t i = 0; i < tuple->size(); ++i) value_rows(table, (*tuple)[i], QStringLiteral("[%1] ").arg(i));
  } else if (value.known()) {
    table.row(prefix + QObject::tr("value"), code(esc(layout::value_annotation(value))));
  }
}

QString identity_table(const ir::Node& node, const ir::ExportedProgram& program, const ReportColors& colors) {
  Table t(colors);
  t.row(QObject::tr("op"), code(qs(ir::op_kind_name(node.op))));
  if (node.op == ir::OpKind::CallFunction) {
    std::string target = node.target.qualified();
    if (target.rfind("torch.ops.", 0) == 0) target = target.substr(10);
    t.row(QObject::tr("target"), code(esc(target)));
    const std::string schema = node.target.schema_name();
    if (!schema.empty()) t.row(QObject::tr("schema"), code(esc(schema)));
  }
  if (node.op == ir::OpKind::GetAttr) t.row(QObject::tr("attribute"), code(esc(node.attr)));
  if (node.op == ir::OpKind::Placeholder) {
    if (const ir::InputSpec* spec = program.signature.input_named(node.name)) {
      QString text = code(qs(ir::kind_name(spec->kind)));
      if (spec->target) text += QStringLiteral(" &rarr; ") + code(esc(*spec->target));
      if (spec->persistent) text += *spec->persistent ? QObject::tr(" (persistent)") : QObject::tr(" (not persistent)");
      t.row(QObject::tr("signature"), text);
    }
  }
  return t.html();
}

QString arguments_table(const ir::Node& node, const ReportColors& colors) {
  Table t(colors);
  for (size_t i = 0; i < node.args().size(); ++i) t.row(QString::number(i), code(argument_html(node.args()[i])));
  for (const auto& kw : node.kwargs()) t.row(qs(kw.name), code(argument_html(kw.value)));
  return t.empty() ? QString() : t.html();
}

QString users_html(const ir::Node& node) {
  QStringList links;
  for (const ir::Node* user : node.users()) links << node_link_html(user);
  return links.isEmpty() ? QString() : code(links.join(QStringLiteral(", ")));
}

bool is_weight(const ir::InputSpec* spec) {
  return spec && (spec->kind == ir::InputKind::Parameter || spec->kind == ir::InputKind::Buffer ||
                  spec->kind == ir::InputKind::ConstantTensor);
}

QString byte_text(int64_t bytes) {
  if (bytes < 1024) return QObject::tr("%1 B").arg(bytes);
  if (bytes < (int64_t(1) << 20)) return QObject::tr("%1 KiB").arg(bytes / 1024.0, 0, 'f', 1);
  if (bytes < (int64_t(1) << 30)) return QObject::tr("%1 MiB").arg(bytes / double(1 << 20), 0, 'f', 1);
  return QObject::tr("%1 GiB").arg(bytes / double(int64_t(1) << 30), 0, 'f', 2);
}

// The parameters, buffers and constants the node reads: the canvas folds
// them into its box, so the inspector lists them.
QString weights_html(const ir::Node& node, const ir::ExportedProgram& program, const ReportColors& colors) {
  Table t(colors);
  std::vector<const ir::Node*> seen;
  node.for_each_input([&](const ir::Node* input) {
    if (!input || input->op != ir::OpKind::Placeholder) return;
    if (std::find(seen.begin(), seen.end(), input) != seen.end()) return;
    const ir::InputSpec* spec = program.signature.input_named(input->name);
    if (!is_weight(spec)) return;
    seen.push_back(input);
    QString value = node_link_html(input);
    if (const auto* meta = input->value.tensor()) {
      value += QStringLiteral(" ") + code(qs(meta->annotation()).toHtmlEscaped());
      if (const auto numel = meta->static_numel())
        value += QStringLiteral(" &nbsp;") + byte_text(*numel * ir::element_size(meta->dtype)).toHtmlEscaped();
    }
    t.row(spec->target ? qs(*spec->target) : qs(ir::kind_name(spec->kind)), value);
  });
  return t.empty() ? QString() : t.html();
}

QString source_html(const ir::NodeMetadata& meta, const ReportColors& colors) {
  Table t(colors);
  if (auto frame = meta.innermost_frame()) {
    t.row(QObject::tr("file"), code(QStringLiteral("%1:%2").arg(esc(frame->file)).arg(frame->line)));
    t.row(QObject::tr("function"), code(esc(frame->function)));
    if (!frame->code.empty()) t.row(QObject::tr("code"), code(esc(frame->code)));
  }
  for (const auto& [name, fn] : meta.source_fn_stack)
    t.row(QObject::tr("source_fn"), code(QStringLiteral("%1: %2").arg(esc(name), esc(fn))));
  if (!meta.torch_fn.empty()) t.row(QObject::tr("torch_fn"), code(esc(meta.torch_fn)));
  return t.empty() ? QString() : t.html();
}

QString module_stack_html(const ir::NodeMetadata& meta, const ReportColors& colors) {
  Table t(colors);
  for (const auto& scope : meta.nn_module_stack)
    t.row(scope.path.empty() ? QObject::tr("(root)") : qs(scope.path), code(esc(scope.type)));
  return t.empty() ? QString() : t.html();
}

QString list_html(const QStringList& items) {
  QStringList escaped;
  for (const QString& item : items) escaped << item.toHtmlEscaped();
  return QStringLiteral("<ul style=\"margin-left:-20px;\"><li><code>%1</code></li></ul>")
      .arg(escaped.join(QStringLiteral("</code></li><li><code>")));
}

QString solve_html(const NodeSolveFacts& solved, const ReportColors& colors) {
  QString html;
  if (!solved.value.isEmpty()) {
    Table t(colors);
    t.row(QObject::tr("value"), code(solved.value.toHtmlEscaped()));
    html += section(QObject::tr("Solved shape"), t.html(), colors);
  }
  if (!solved.guards.isEmpty()) html += section(QObject::tr("Guards it emitted"), list_html(solved.guards), colors);
  if (!solved.violations.isEmpty())
    html += section(QObject::tr("Violations it caused"), list_html(solved.violations), colors);
  return html;
}

}  // namespace

QString node_report_html(const ir::Node& node, const ir::ExportedProgram& program, const ReportColors& colors,
                         const NodeSolveFacts* solved) {
  const NodeCategory category = categorize(node, program.signature);
  const NodeColors swatch = colors.canvas.node(category);
  QString html = QStringLiteral(
                     "<p style=\"margin-bottom:2px;\"><span style=\"font-size:large;\"><b>%1</b></span></p>"
                     "<p style=\"margin-top:0px;\"><span style=\"background-color:%2; color:%3;\">&nbsp;%4&nbsp;</span></p>")
                     .arg(esc(node.name), swatch.fill.name(), swatch.text.name(), category_name(category).toHtmlEscaped());
  html += identity_table(node, program, colors);
  if (QString args = arguments_table(node, colors); !args.isEmpty())
    html += section(QObject::tr("Arguments"), args, colors);
  Table output(colors);
  value_rows(output, node.value, QString());
  if (!output.empty()) html += section(QObject::tr("Output"), output.html(), colors);
  if (solved) html += solve_html(*solved, colors);
  if (QString weights = weights_html(node, program, colors); !weights.isEmpty())
    html += section(QObject::tr("Weights (folded into it on the canvas)"), weights, colors);
  if (QString users = users_html(node); !users.isEmpty()) html += section(QObject::tr("Used by"), users, colors);
  if (QString source = source_html(node.meta, colors); !source.isEmpty())
    html += section(QObject::tr("Source"), source, colors);
  if (QString modules = module_stack_html(node.meta, colors); !modules.isEmpty())
    html += section(QObject::tr("Module stack"), modules, colors);
  if (!node.meta.stack_trace.empty())
    html += section(QObject::tr("Stack trace"), QStringLiteral("<pre style=\"white-space: pre-wrap;\">%1</pre>").arg(esc(node.meta.stack_trace)), colors);
  return html;
}

QString program_summary_html(const ir::ExportedProgram& program, const QString& name, const QString& path,
                             const ReportColors& colors) {
  Table t(colors);
  t.row(QObject::tr("file"), name.toHtmlEscaped());
  t.row(QObject::tr("path"), path.toHtmlEscaped());
  t.row(QObject::tr("model"), code(esc(program.name)));
  t.row(QObject::tr("nodes"), QString::number(program.graph().size()));
  t.row(QObject::tr("inputs"), QString::number(program.signature.inputs.size()));
  t.row(QObject::tr("outputs"), QString::number(program.signature.outputs.size()));
  if (!program.torch_version.empty()) t.row(QObject::tr("torch"), code(esc(program.torch_version)));
  t.row(QObject::tr("schema"), code(QStringLiteral("%1.%2").arg(program.schema_major).arg(program.schema_minor)));
  QStringList verifiers;
  for (const auto& v : program.verifiers) verifiers << qs(v);
  if (!verifiers.isEmpty()) t.row(QObject::tr("dialect"), code(verifiers.join(QStringLiteral(", ")).toHtmlEscaped()));
  return QStringLiteral("<p><b>%1</b></p>").arg(QObject::tr("Program")) + t.html() +
         QStringLiteral("<p style=\"color:%1;\">%2</p>")
             .arg(colors.label.name(), QObject::tr("Select a node on the canvas, in the code or in the signature."));
}

}  // namespace exportlens::ui
