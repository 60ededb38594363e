#pragma once
// When the opened archive holds several exported programs, a switch between
// them (the toolbar's "Program [forward ▾]"): choosing one opens that program
// of the archive (programChosen). And what the archive holds, said where the
// window places kindLabel() (the status bar): "multi.pt2: 2 exported
// programs", "plain.pt2: AOTInductor package with 1 compiled model";
// nothing for an archive of one program.
#include <QString>
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;

namespace exportlens::ui {

class CompiledSession;

class ProgramSwitch : public QWidget {
  Q_OBJECT
 public:
  explicit ProgramSwitch(CompiledSession* session, QWidget* parent = nullptr);
  QComboBox* comboBox() const { return box_; }
  /// What the archive holds; not a child of this widget: the window places it.
  QLabel* kindLabel() const { return kind_; }
  /// The program shown, as the archive names it ("" before one).
  QString currentProgram() const { return current_; }
  /// Marks `name` as the program shown (does not emit programChosen).
  void setCurrentProgram(const QString& name);
  /// The toolbar's action holding this widget: shown only when there is something to say.
  void setToolBarAction(QAction* action);

 signals:
  void programChosen(const QString& name);

 private:
  void refresh();
  CompiledSession* session_;
  QLabel* kind_;
  QComboBox* box_;
  QString current_;
  QAction* toolbar_action_ = nullptr;
  bool following_ = false;
};

}  // namespace exportlens::ui
