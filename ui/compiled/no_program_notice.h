#pragma once
// What the canvas says when the archive holds compiled code only (an
// AOTInductor package without its exported program): there is no graph to
// draw until the program it was compiled from is linked; the button offers that.
#include <QFrame>

class QLabel;
class QPushButton;

namespace exportlens::ui {

class NoProgramNotice : public QFrame {
  Q_OBJECT
 public:
  /// Floats centred over `over` (the graph view).
  explicit NoProgramNotice(QWidget* over);
  void showFor(const QString& archive, const QString& kind);
  QPushButton* linkButton() const { return link_; }
  QString text() const;

 signals:
  void linkRequested();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void place();
  QLabel* label_;
  QPushButton* link_;
};

}  // namespace exportlens::ui
