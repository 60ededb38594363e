#pragma once
// Puts a DimSpecEditor into a Dynamic shapes cell: wide enough for its
// fields, filled with the cell's entry and the Dims the spec declares, and
// committed as one undoable edit when the user confirms it.
#include <QStyledItemDelegate>

namespace exportlens::ui {

class SpecDocument;

class DimSpecDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  explicit DimSpecDelegate(const SpecDocument* document, QObject* parent = nullptr);

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  void setEditorData(QWidget* editor, const QModelIndex& index) const override;
  void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
  void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

 private:
  const SpecDocument* document_;
};

}  // namespace exportlens::ui
