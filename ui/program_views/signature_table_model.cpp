#include "ui/program_views/signature_table_model.h"

#include "engine/layout/node_label.h"

#include "ui/core/program_model.h"

namespace exportlens::ui {
namespace {

// A constant user input or output (an int, a string) has no graph node.
QString spec_name(const ir::SpecArgument& arg) {
  if (arg.type != ir::SpecArgument::Type::Constant) return QString::fromStdString(arg.name);
  const auto& v = arg.constant.v;
  if (auto* i = std::get_if<int64_t>(&v)) return QString::number(*i);
  if (auto* d = std::get_if<double>(&v)) return QString::number(*d);
  if (auto* b = std::get_if<bool>(&v)) return *b ? QStringLiteral("True") : QStringLiteral("False");
  if (auto* s = std::get_if<std::string>(&v)) return QStringLiteral("'%1'").arg(QString::fromStdString(*s));
  if (arg.constant.is_none()) return QStringLiteral("None");
  return QStringLiteral("<constant>");
}

QString spec_node(const ir::SpecArgument& arg) {
  return arg.type == ir::SpecArgument::Type::Constant ? QString() : QString::fromStdString(arg.name);
}

}  // namespace

SignatureTableModel::SignatureTableModel(QObject* parent)
    : NodeTableModel({{tr("Kind")}, {tr("Name"), false, true}, {tr("Target")}, {tr("Persistent")},
                      {tr("Shape"), false, true}},
                     parent) {}

void SignatureTableModel::setProgram(const LoadedProgramPtr& program) {
  resetRows([&] {
    program_ = program;
    solved_.clear();
    rows_.clear();
    if (!program) return;
    const ir::GraphSignature& sig = program->program->signature;
    for (const auto& in : sig.inputs) {
      rows_.append({true, QString::fromUtf8(ir::kind_name(in.kind).data(), ir::kind_name(in.kind).size()),
                    spec_name(in.arg), in.target ? QString::fromStdString(*in.target) : QString(),
                    in.persistent ? (*in.persistent ? tr("yes") : tr("no")) : QString(), spec_node(in.arg)});
    }
    for (const auto& out : sig.outputs) {
      rows_.append({false, QString::fromUtf8(ir::kind_name(out.kind).data(), ir::kind_name(out.kind).size()),
                    spec_name(out.arg), out.target ? QString::fromStdString(*out.target) : QString(), QString(),
                    spec_node(out.arg)});
    }
  });
}

QVariant SignatureTableModel::text(int row, int column) const {
  const Row& r = rows_[row];
  switch (column) {
    case Kind: return r.kind;
    case Name: return r.name;
    case Target: return r.target;
    case Persistent: return r.persistent;
    case Shape: return shapeOf(r);
  }
  return {};
}

QVariant SignatureTableModel::toolTip(int row, int column) const {
  const Row& r = rows_[row];
  if ((column != Name && column != Shape) || !program_ || r.node.isEmpty()) return {};
  if (const ir::Node* node = program_->graph().find(r.node.toStdString()))
    return tr("In the file: %1").arg(QString::fromStdString(layout::value_annotation(node->value)));
  return {};
}

QVariant SignatureTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) {
    if (section < 0 || section >= rows_.size()) return {};
    // "in 0", "out 1": where each spec sits in the flat argument lists.
    int first_output = 0;
    while (first_output < rows_.size() && rows_[first_output].input) ++first_output;
    return rows_[section].input ? tr("in %1").arg(section) : tr("out %1").arg(section - first_output);
  }
  if (section == Shape && !solved_.isEmpty()) return tr("Shape (solved)");
  return NodeTableModel::headerData(section, orientation, role);
}

void SignatureTableModel::setSolved(const NodeSolveFactsMap& facts) {
  solved_ = facts;
  emit headerDataChanged(Qt::Horizontal, Shape, Shape);
  if (!rows_.isEmpty()) emit dataChanged(index(0, Shape), index(rowCount() - 1, Shape));
}

QString SignatureTableModel::shapeOf(const Row& row) const {
  if (row.node.isEmpty() || !program_) return {};
  auto it = solved_.constFind(row.node);
  if (it != solved_.constEnd() && !it->value.isEmpty()) return it->value;
  const ir::Node* node = program_->graph().find(row.node.toStdString());
  return node ? QString::fromStdString(layout::value_annotation(node->value)) : QString();
}

void SignatureTableModel::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] {
    setProgram(model->loaded());
    setSolved(model->solveFacts());
  });
  connect(model, &ProgramModel::solveChanged, this, [this, model] { setSolved(model->solveFacts()); });
}

}  // namespace exportlens::ui
