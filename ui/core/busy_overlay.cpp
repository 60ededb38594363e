#include "ui/core/busy_overlay.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace exportlens::ui {

BusyOverlay::BusyOverlay(QWidget* covered)
    : QWidget(covered),
      panel_(new QWidget(this)),
      title_(new QLabel(panel_)),
      stage_(new QLabel(panel_)),
      bar_(new QProgressBar(panel_)),
      cancel_(new QPushButton(tr("Cancel"), panel_)) {
  setAttribute(Qt::WA_NoSystemBackground);
  panel_->setAutoFillBackground(true);
  panel_->setBackgroundRole(QPalette::Window);
  panel_->setFixedWidth(360);
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  title_->setWordWrap(true);
  stage_->setForegroundRole(QPalette::PlaceholderText);
  bar_->setRange(0, 100);
  bar_->setTextVisible(false);
  auto* layout = new QVBoxLayout(panel_);
  layout->setContentsMargins(18, 16, 18, 14);
  layout->setSpacing(8);
  layout->addWidget(title_);
  layout->addWidget(stage_);
  layout->addWidget(bar_);
  layout->addWidget(cancel_, 0, Qt::AlignRight);
  cancel_->setObjectName(QStringLiteral("busyCancelButton"));
  connect(cancel_, &QPushButton::clicked, this, &BusyOverlay::cancelRequested);
  covered->installEventFilter(this);
  hide();
}

void BusyOverlay::start(const QString& text) {
  title_->setText(text);
  stage_->clear();
  bar_->setValue(0);
  setGeometry(parentWidget()->rect());
  panel_->adjustSize();
  panel_->move((width() - panel_->width()) / 2, (height() - panel_->height()) / 2);
  raise();
  show();
}

void BusyOverlay::setProgress(int percent, const QString& stage) {
  bar_->setValue(percent);
  stage_->setText(stage);
}

void BusyOverlay::stop() { hide(); }

bool BusyOverlay::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize) {
    setGeometry(parentWidget()->rect());
    panel_->move((width() - panel_->width()) / 2, (height() - panel_->height()) / 2);
  }
  return QWidget::eventFilter(watched, event);
}

void BusyOverlay::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  QColor veil = palette().color(QPalette::Window);
  veil.setAlpha(170);
  painter.fillRect(rect(), veil);
  // A thin frame around the panel.
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawRect(panel_->geometry().adjusted(-1, -1, 0, 0));
}

}  // namespace exportlens::ui
