#include "ui/program_views/range_constraints_model.h"

#include <QFontDatabase>

#include "ui/core/program_model.h"

namespace exportlens::ui {

RangeConstraintsModel::RangeConstraintsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeConstraintsModel::setProgram(const LoadedProgramPtr& program) {
  beginResetModel();
  rows_.clear();
  solved_ = false;
  if (program) {
    for (const auto& [key, range] : program->program->range_constraints.entries) {
      rows_.append({QString::fromStdString(key.str()), QString::fromStdString(range.lower.str()),
                    QString::fromStdString(range.upper.str())});
    }
  }
  endResetModel();
}

void RangeConstraintsModel::setSolved(const std::vector<ops::RangeInfo>& ranges) {
  beginResetModel();
  rows_.clear();
  solved_ = true;
  for (const auto& range : ranges)
    rows_.append({QString::fromStdString(range.expr), QString::fromStdString(range.lower),
                  QString::fromStdString(range.upper)});
  endResetModel();
}

int RangeConstraintsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RangeConstraintsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeConstraintsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const Row& row = rows_[index.row()];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Symbol: return row.symbol;
      case Min: return row.min;
      case Max: return row.max;
    }
  } else if (role == Qt::TextAlignmentRole && index.column() != Symbol) {
    return int(Qt::AlignRight | Qt::AlignVCenter);
  } else if (role == Qt::FontRole) {
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
  }
  return {};
}

QVariant RangeConstraintsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
  switch (section) {
    case Symbol: return tr("Symbol");
    case Min: return tr("Min");
    case Max: return tr("Max");
  }
  return {};
}

void RangeConstraintsModel::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] { setProgram(model->loaded()); });
}

}  // namespace exportlens::ui
