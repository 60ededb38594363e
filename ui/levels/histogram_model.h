#pragma once
// The op histogram of a program at each IR level: one row per op, a count
// column per level (empty while a level is not lowered yet) and a flag for
// ops outside the Core ATen set.
#include <QList>
#include <QSet>

#include <map>
#include <optional>
#include <string>

#include "ui/core/ir_level_choice.h"
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

struct LevelHistogram {
  LevelChoice level;
  /// op -> count; nullopt while the level is not lowered (or failed: error).
  std::optional<std::map<std::string, int>> counts;
  QString error;
};

class HistogramModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum { OpColumn = 0 };  // then one column per level, then the non-core flag

  explicit HistogramModel(QObject* parent = nullptr);

  /// `nonCore`: ops seen outside the Core ATen set at any level.
  void setHistograms(QList<LevelHistogram> levels, QSet<QString> nonCore);
  const QList<LevelHistogram>& histograms() const { return levels_; }
  int flagColumn() const { return 1 + levels_.size(); }
  /// The count of `op` at level column `level` (0-based), -1 if not known.
  int count(const QString& op, int level) const;
  int rowOf(const QString& op) const { return ops_.indexOf(op); }
  bool isNonCore(const QString& op) const { return non_core_.contains(op); }

  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 protected:
  int rows() const override { return static_cast<int>(ops_.size()); }
  QVariant text(int row, int column) const override;
  QVariant sortKey(int row, int column) const override;
  QVariant toolTip(int row, int column) const override;
  QVariant otherRole(int row, int column, int role) const override;

 private:
  QList<LevelHistogram> levels_;
  QStringList ops_;  // sorted
  QSet<QString> non_core_;
};

}  // namespace exportlens::ui
