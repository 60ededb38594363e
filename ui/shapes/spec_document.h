#pragma once
// The dynamic_shapes spec being edited for the open program, with its undo
// history: every edit (a table cell, the text, applied fixes) is one undoable
// step. Views read spec() and follow specChanged().
#include <QObject>
#include <QString>

#include <vector>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/spec_binding.h"
#include "ui/shapes/spec_edits.h"

class QUndoStack;

namespace exportlens::ui {

class SpecDocument : public QObject {
  Q_OBJECT
 public:
  /// Who made a change: views skip refreshing from their own edits.
  enum class Origin { Reset, Table, Text, Fixes, History };
  Q_ENUM(Origin)

  explicit SpecDocument(QObject* parent = nullptr);

  const symbolic::DynamicShapesSpec& spec() const { return spec_; }
  /// The program's forward arguments (names, example sizes) the spec is about.
  const std::vector<symbolic::ExampleInput>& inputs() const { return inputs_; }
  /// The arguments' pytree when one of them is a tuple, list, dict or
  /// dataclass (each input then one of its leaves); empty otherwise.
  const std::vector<symbolic::InputTree>& inputTree() const { return tree_; }
  QUndoStack* undoStack() const { return undo_; }
  /// Whether the spec differs from the one the program was opened with
  /// (undoing every edit makes it unedited again).
  bool isEdited() const;

  /// A new program: its inputs and recorded spec; forgets the history.
  void reset(std::vector<symbolic::ExampleInput> inputs, symbolic::DynamicShapesSpec spec,
             std::vector<symbolic::InputTree> tree = {});
  /// Sets one dimension (undoable).
  void setDim(size_t input, int64_t dim, const DimEdit& edit);
  /// Replaces the whole spec (undoable); no step when nothing changes.
  void setSpec(const symbolic::DynamicShapesSpec& spec, const QString& description, Origin origin);

 signals:
  void specChanged(exportlens::ui::SpecDocument::Origin origin);

 private:
  friend class SpecEditCommand;
  void apply(const symbolic::DynamicShapesSpec& spec, Origin origin);

  symbolic::DynamicShapesSpec spec_;
  std::vector<symbolic::ExampleInput> inputs_;
  std::vector<symbolic::InputTree> tree_;
  QUndoStack* undo_;
};

}  // namespace exportlens::ui
