#pragma once
// The Dynamic shapes dock: the spec as a tree table of inputs × dims (a
// nested argument's parts below it) with a cell editor, and as Python text;
// undo / redo and "Recorded spec" above them.
#include <QWidget>

class QLabel;
class QTabWidget;
class QTreeView;

namespace exportlens::ui {

class AdditionalInputsAction;
class DynamicShapesModel;
class SpecSession;
class SpecTextEditor;

class DynamicShapesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DynamicShapesPanel(SpecSession* session, QWidget* parent = nullptr);

  QTreeView* table() const { return table_; }
  DynamicShapesModel* model() const { return model_; }
  SpecTextEditor* textEditor() const { return text_; }
  QTabWidget* tabs() const { return tabs_; }
  /// "From Example Inputs…": the spec from more example input sets (AdditionalInputs).
  AdditionalInputsAction* additionalInputs() const { return additional_; }

 signals:
  /// A row's input was picked: its placeholder node.
  void nodeActivated(const QString& name);

 private:
  void updateNotice();

  SpecSession* session_;
  DynamicShapesModel* model_;
  QTreeView* table_;
  SpecTextEditor* text_;
  QTabWidget* tabs_;
  QLabel* notice_;
  AdditionalInputsAction* additional_ = nullptr;
};

}  // namespace exportlens::ui
