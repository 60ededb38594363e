#pragma once
// The Violations & fixes dock: torch's verdict, the violated spec items
// (each with its guard, node and source line), and the suggested fixes as
// text with Copy and Apply fixes (which edits the spec, and so re-solves).
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace exportlens::ui {

class SpecSession;
class ViolationsModel;

class ViolationsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ViolationsPanel(SpecSession* session, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  ViolationsModel* model() const { return model_; }
  QPlainTextEdit* fixesText() const { return fixes_; }
  QPushButton* applyButton() const { return apply_; }
  QPushButton* copyButton() const { return copy_; }
  QString verdictText() const;

 signals:
  void nodeActivated(const QString& name);
  /// Something to say in the status bar ("Applied the suggested fixes").
  void message(const QString& text);

 private:
  void showResult();
  void showVerdict();

  SpecSession* session_;
  ViolationsModel* model_;
  QLabel* verdict_;
  QTableView* table_;
  QPlainTextEdit* fixes_;
  QPushButton* copy_;
  QPushButton* apply_;
};

}  // namespace exportlens::ui
