#pragma once
// A read-only plain text view with line numbers in a margin (Qt's code
// editor example): what the source viewer shows sources in.
#include <QPlainTextEdit>

namespace exportlens::ui {

class NumberedTextEdit : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit NumberedTextEdit(QWidget* parent = nullptr);
  int marginWidth() const;
  void paintMargin(QPaintEvent* event);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  QWidget* margin_;
};

}  // namespace exportlens::ui
