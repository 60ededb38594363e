#include "ui/shapes/dim_spec_delegate.h"

#include <algorithm>

#include "ui/shapes/dim_spec_editor.h"
#include "ui/shapes/dynamic_shapes_model.h"
#include "ui/shapes/spec_document.h"

namespace exportlens::ui {

DimSpecDelegate::DimSpecDelegate(const SpecDocument* document, QObject* parent)
    : QStyledItemDelegate(parent), document_(document) {}

QWidget* DimSpecDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const {
  if (!index.data(Qt::EditRole).canConvert<DimEdit>()) return nullptr;
  auto* editor = new DimSpecEditor(parent);
  editor->setObjectName(QStringLiteral("dimSpecEditor"));
  editor->setKnownDims(document_->spec().dims);
  connect(editor, &DimSpecEditor::editingDone, this, [this, editor] {
    if (!editor->problem().isEmpty()) {
      editor->setToolTip(editor->problem());
      return;
    }
    auto* self = const_cast<DimSpecDelegate*>(this);
    emit self->commitData(editor);
    emit self->closeEditor(editor, QAbstractItemDelegate::NoHint);
  });
  return editor;
}

void DimSpecDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
  static_cast<DimSpecEditor*>(editor)->setValue(index.data(Qt::EditRole).value<DimEdit>());
}

void DimSpecDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
  auto* dim_editor = static_cast<DimSpecEditor*>(editor);
  if (!dim_editor->problem().isEmpty()) return;  // an unnamed Dim is not an edit
  model->setData(index, QVariant::fromValue(dim_editor->value()), Qt::EditRole);
}

void DimSpecDelegate::updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option, const QModelIndex&) const {
  // The fields need more room than a cell: grow to the right (and left when
  // the viewport ends), keep the cell's row.
  QRect rect = option.rect;
  rect.setWidth(std::max(rect.width(), editor->sizeHint().width()));
  rect.setHeight(std::max(rect.height(), editor->sizeHint().height()));
  const QWidget* viewport = editor->parentWidget();
  if (viewport && rect.right() > viewport->width()) rect.moveRight(std::max(rect.width() - 1, viewport->width() - 1));
  editor->setGeometry(rect);
}

}  // namespace exportlens::ui
