#include "ui/numerics/tensor_histogram.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace exportlens::ui {

TensorHistogram::TensorHistogram(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(70);
  setMouseTracking(true);
}

void TensorHistogram::setSnapshot(const numerics::TensorSnapshot* snapshot) {
  bins_ = snapshot ? snapshot->histogram : std::vector<int64_t>{};
  min_ = snapshot ? snapshot->stats.min : 0;
  max_ = snapshot ? snapshot->stats.max : 0;
  update();
}

QRectF TensorHistogram::plotRect() const {
  const int text = fontMetrics().height();
  return QRectF(2, 2, width() - 4, height() - text - 6);
}

int TensorHistogram::binAt(int x) const {
  if (bins_.empty()) return -1;
  const QRectF r = plotRect();
  const int bin = static_cast<int>((x - r.left()) / r.width() * bins_.size());
  return bin >= 0 && bin < int(bins_.size()) ? bin : -1;
}

void TensorHistogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (bins_.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("no finite values"));
    return;
  }
  const QRectF r = plotRect();
  const int64_t most = std::max<int64_t>(1, *std::max_element(bins_.begin(), bins_.end()));
  const qreal w = r.width() / bins_.size();
  // Square-root heights: one tall bin would flatten the rest.
  for (size_t i = 0; i < bins_.size(); ++i) {
    if (!bins_[i]) continue;
    const qreal h = std::max<qreal>(1, r.height() * std::sqrt(double(bins_[i]) / double(most)));
    p.fillRect(QRectF(r.left() + i * w, r.bottom() - h, std::max<qreal>(1, w - 1), h), palette().highlight());
  }
  p.setPen(palette().color(QPalette::Text));
  const QRectF text(0, r.bottom() + 2, width(), fontMetrics().height());
  p.drawText(text, Qt::AlignLeft, QString::number(min_, 'g', 4));
  p.drawText(text, Qt::AlignRight, QString::number(max_, 'g', 4));
}

bool TensorHistogram::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int bin = binAt(help->pos().x());
    if (bin < 0) {
      QToolTip::hideText();
      return true;
    }
    const double step = (max_ - min_) / bins_.size();
    QToolTip::showText(help->globalPos(), tr("[%1, %2): %3 elements")
                                              .arg(min_ + bin * step, 0, 'g', 4)
                                              .arg(min_ + (bin + 1) * step, 0, 'g', 4)
                                              .arg(bins_[bin]));
    return true;
  }
  return QWidget::event(event);
}

}  // namespace exportlens::ui
