#include "ui/shapes/dynamic_shapes_model.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include "ui/core/shape_text.h"
#include "ui/shapes/dim_spec_text.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"

namespace exportlens::ui {

DynamicShapesModel::DynamicShapesModel(SpecSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
  connect(session->document(), &SpecDocument::specChanged, this, [this](SpecDocument::Origin origin) {
    if (origin == SpecDocument::Origin::Reset) {
      beginResetModel();
      rank_ = maxRank();
      endResetModel();
    } else if (rowCount() > 0) {
      emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    }
  });
  connect(session, &SpecSession::resultChanged, this, [this] {
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
  });
}

int DynamicShapesModel::maxRank() const {
  int rank = 0;
  for (const auto& in : session_->document()->inputs()) rank = std::max(rank, static_cast<int>(in.sizes.size()));
  return rank;
}

int DynamicShapesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(session_->document()->inputs().size());
}

int DynamicShapesModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : FirstDim + rank_ + 1;
}

int DynamicShapesModel::dimOf(const QModelIndex& index) const {
  if (!index.isValid() || index.column() < FirstDim || index.column() >= solvedColumn()) return -1;
  const int dim = index.column() - FirstDim;
  const auto& inputs = session_->document()->inputs();
  return index.row() < static_cast<int>(inputs.size()) && dim < static_cast<int>(inputs[index.row()].sizes.size())
             ? dim
             : -1;
}

bool DynamicShapesModel::violated(int input, int dim) const {
  const SolveResultPtr& result = session_->result();
  if (!result || result->violations.empty()) return false;
  const std::string source = symbolic::size_source(session_->document()->inputs()[input].name, dim);
  for (const auto& v : result->violations)
    if (v.source == source) return true;
  return false;
}

QString DynamicShapesModel::solvedShape(int input) const {
  const SolveResultPtr& result = session_->result();
  if (!result) return {};
  const std::string& name = session_->document()->inputs()[input].name;
  for (const auto& shape : result->input_shapes)
    if (shape.name == name) return shape.is_tensor ? shape_text(shape.dims) : QString();
  return {};
}

QVariant DynamicShapesModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  if (role == NodeNameRole) return nodeAt(index.row());
  const SpecDocument* document = session_->document();
  const symbolic::ExampleInput& input = document->inputs()[index.row()];
  const int dim = dimOf(index);
  if (index.column() == Input) {
    if (role == Qt::DisplayRole) return QString::fromStdString(input.name);
    if (role == Qt::FontRole) return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    return {};
  }
  if (index.column() == Example) {
    if (role == Qt::DisplayRole) return input.is_tensor ? shape_text(input.sizes) : tr("not a tensor");
    if (role == Qt::ForegroundRole && !input.is_tensor) return QColor(Qt::gray);
    return {};
  }
  if (index.column() == solvedColumn()) {
    if (role == Qt::DisplayRole) return solvedShape(index.row());
    if (role == Qt::FontRole) return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::ToolTipRole) return tr("The input's shape in the latest solve");
    return {};
  }
  if (dim < 0) return {};
  const symbolic::DimSpec entry = dim_entry(document->spec(), document->inputs(), index.row(), dim);
  switch (role) {
    case Qt::DisplayRole: return dim_spec_text(entry, document->spec());
    case Qt::EditRole: {
      DimEdit edit{entry, {}};
      if (entry.kind == symbolic::DimSpec::Kind::Named || entry.kind == symbolic::DimSpec::Kind::Derived) {
        auto it = document->spec().dims.find(entry.dim);
        if (it != document->spec().dims.end()) edit.decl = it->second;
      }
      return QVariant::fromValue(edit);
    }
    case Qt::ToolTipRole:
      return tr("%1.shape[%2]: example size %3\nDouble-click to change (STATIC, AUTO, DYNAMIC, a named Dim, "
                "A*dim + B, or an int)")
          .arg(QString::fromStdString(input.name))
          .arg(dim)
          .arg(input.sizes[dim]);
    case Qt::FontRole:
      if (entry.kind == symbolic::DimSpec::Kind::Named || entry.kind == symbolic::DimSpec::Kind::Derived) {
        QFont bold;
        bold.setBold(true);
        return bold;
      }
      return {};
    case Qt::ForegroundRole:
      return entry.is_static() ? QVariant(QColor(Qt::gray)) : QVariant();
    case Qt::BackgroundRole:
      return violated(index.row(), dim) ? QVariant(QColor(255, 90, 70, 70)) : QVariant();  // reads on light and dark
  }
  return {};
}

bool DynamicShapesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const int dim = dimOf(index);
  if (role != Qt::EditRole || dim < 0 || !value.canConvert<DimEdit>()) return false;
  session_->document()->setDim(index.row(), dim, value.value<DimEdit>());
  return true;
}

Qt::ItemFlags DynamicShapesModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (dimOf(index) >= 0) f |= Qt::ItemIsEditable;
  return f;
}

QVariant DynamicShapesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
  if (section == Input) return tr("Input");
  if (section == Example) return tr("Example");
  if (section == solvedColumn()) return tr("Solved shape");
  return tr("dim %1").arg(section - FirstDim);
}

QString DynamicShapesModel::nodeAt(int row) const {
  const LoadedProgramPtr& program = session_->program();
  if (!program || row < 0) return {};
  const auto users = program->program->signature.user_inputs();
  if (row >= static_cast<int>(users.size())) return {};
  const auto& arg = users[row]->arg;
  return arg.type == ir::SpecArgument::Type::Constant ? QString() : QString::fromStdString(arg.name);
}

}  // namespace exportlens::ui
