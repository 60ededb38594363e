#include "ui/shapes/spec_document.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace exportlens::ui {

/// One spec edit: the spec before and after. Consecutive text edits merge
/// into one step, so undo does not replay every keystroke.
class SpecEditCommand : public QUndoCommand {
 public:
  SpecEditCommand(SpecDocument* document, symbolic::DynamicShapesSpec before, symbolic::DynamicShapesSpec after,
                  SpecDocument::Origin origin, const QString& text)
      : QUndoCommand(text), document_(document), before_(std::move(before)), after_(std::move(after)), origin_(origin) {}

  int id() const override { return origin_ == SpecDocument::Origin::Text ? 1 : -1; }

  bool mergeWith(const QUndoCommand* other) override {
    if (other->id() != id()) return false;
    after_ = static_cast<const SpecEditCommand*>(other)->after_;
    return true;
  }

  void redo() override {
    // The first redo is the edit itself, made by the view that reports it.
    document_->apply(after_, first_ ? origin_ : SpecDocument::Origin::History);
    first_ = false;
  }

  void undo() override { document_->apply(before_, SpecDocument::Origin::History); }

 private:
  SpecDocument* document_;
  symbolic::DynamicShapesSpec before_, after_;
  SpecDocument::Origin origin_;
  bool first_ = true;
};

SpecDocument::SpecDocument(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {}

bool SpecDocument::isEdited() const { return !undo_->isClean(); }

void SpecDocument::reset(std::vector<symbolic::ExampleInput> inputs, symbolic::DynamicShapesSpec spec,
                         std::vector<symbolic::InputTree> tree) {
  undo_->clear();
  inputs_ = std::move(inputs);
  tree_ = std::move(tree);
  apply(spec, Origin::Reset);
}

void SpecDocument::setDim(size_t input, int64_t dim, const DimEdit& edit) {
  if (input >= inputs_.size()) return;
  const QString where = QStringLiteral("%1.shape[%2]").arg(QString::fromStdString(inputs_[input].display_name())).arg(dim);
  setSpec(with_dim(spec_, inputs_, input, dim, edit, tree_), tr("Set %1").arg(where), Origin::Table);
}

void SpecDocument::setSpec(const symbolic::DynamicShapesSpec& spec, const QString& description, Origin origin) {
  if (spec == spec_) return;
  undo_->push(new SpecEditCommand(this, spec_, spec, origin, description));
}

void SpecDocument::apply(const symbolic::DynamicShapesSpec& spec, Origin origin) {
  spec_ = spec;
  emit specChanged(origin);
}

}  // namespace exportlens::ui
