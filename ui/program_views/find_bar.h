#pragma once
// The toolbar's "find node" field: type a name or op, Enter / Shift+Enter (or
// the arrows) step through the matches, Esc returns to the canvas.
#include <QWidget>

#include "ui/program_views/node_finder.h"

class QLabel;
class QLineEdit;
class QToolButton;

namespace exportlens::ui {

class ProgramModel;

class FindBar : public QWidget {
  Q_OBJECT
 public:
  explicit FindBar(QWidget* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  /// Searches the model's program; a found node is selected there.
  void follow(ProgramModel* model);
  QLineEdit* field() const { return field_; }

 public slots:
  /// Focuses the field and selects its text (Ctrl+F).
  void activate();
  void findNext();
  void findPrevious();

 signals:
  void nodeFound(const QString& name);
  void dismissed();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void onTextChanged(const QString& text);
  void show(const QString& name);
  void updateCount();

  NodeFinder finder_;
  QLineEdit* field_;
  QToolButton* previous_;
  QToolButton* next_;
  QLabel* count_;
};

}  // namespace exportlens::ui
