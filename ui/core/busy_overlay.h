#pragma once
// A translucent cover over a widget while a long task runs: what is being
// done, a progress bar and Cancel. Keeps itself sized to the covered widget.
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace exportlens::ui {

class BusyOverlay : public QWidget {
  Q_OBJECT
 public:
  explicit BusyOverlay(QWidget* covered);
  QPushButton* cancelButton() const { return cancel_; }

 public slots:
  void start(const QString& text);
  void setProgress(int percent, const QString& stage);
  void stop();

 signals:
  void cancelRequested();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;

 private:
  QWidget* panel_;
  QLabel* title_;
  QLabel* stage_;
  QProgressBar* bar_;
  QPushButton* cancel_;
};

}  // namespace exportlens::ui
