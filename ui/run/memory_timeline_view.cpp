#include "ui/run/memory_timeline_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

#include "ui/core/node_run_facts.h"

namespace exportlens::ui {

MemoryTimelineView::MemoryTimelineView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("memoryTimeline"));
  setMinimumHeight(120);
  setMouseTracking(false);
  note_ = tr("Run the program to see its memory after each node.");
}

void MemoryTimelineView::setOutcome(const RunOutcome& outcome) {
  points_.clear();
  peak_ = selected_ = -1;
  note_.clear();
  if (outcome.report) {
    for (const auto& t : outcome.report->node_times)
      if (t.live_bytes) points_.push_back({QString::fromStdString(t.node), *t.live_bytes, t.peak_bytes.value_or(*t.live_bytes)});
    for (int i = 0; i < pointCount(); ++i)
      if (peak_ < 0 || points_[i].peak > points_[peak_].peak) peak_ = i;
    const bool gpu = !outcome.settings.onCpu();
    title_ = gpu ? tr("Device memory after each node (CUDA caching allocator: live, and peak while the node ran)")
                 : tr("Memory the graph's values hold after each node (CPU)");
    if (points_.empty())
      note_ = outcome.report->memory_note.empty() ? tr("This run recorded no memory figures.")
                                                  : QString::fromStdString(outcome.report->memory_note);
  } else {
    note_ = tr("Run the program to see its memory after each node.");
  }
  update();
}

void MemoryTimelineView::setSelectedNode(const QString& name) {
  selected_ = -1;
  for (int i = 0; i < pointCount(); ++i)
    if (points_[i].node == name) selected_ = i;
  update();
}

QString MemoryTimelineView::peakNode() const { return peak_ < 0 ? QString() : points_[peak_].node; }

QString MemoryTimelineView::nodeAt(int i) const { return i >= 0 && i < pointCount() ? points_[i].node : QString(); }

QRectF MemoryTimelineView::plotArea() const {
  const QFontMetrics fm(font());
  const qreal left = fm.horizontalAdvance(QStringLiteral("000.00 MiB")) + 10;
  return QRectF(left, fm.height() + 8, std::max<qreal>(20, width() - left - 12), std::max<qreal>(20, height() - 2 * fm.height() - 16));
}

qint64 MemoryTimelineView::scaleMax() const {
  qint64 top = 1;
  for (const auto& p : points_) top = std::max({top, p.live, p.peak});
  return top;
}

QPointF MemoryTimelineView::pointPosition(int i) const {
  const QRectF r = plotArea();
  const int n = pointCount();
  const qreal x = n <= 1 ? r.center().x() : r.left() + r.width() * i / (n - 1);
  const qreal y = r.bottom() - r.height() * double(points_[i].live) / double(scaleMax());
  return {x, y};
}

int MemoryTimelineView::nearestPoint(const QPointF& at) const {
  int best = -1;
  qreal best_d = 1e18;
  for (int i = 0; i < pointCount(); ++i) {
    const qreal d = std::abs(pointPosition(i).x() - at.x());
    if (d < best_d) best_d = d, best = i;
  }
  return best;
}

void MemoryTimelineView::mousePressEvent(QMouseEvent* event) {
  const int i = nearestPoint(event->position());
  if (i < 0) return;
  selected_ = i;
  update();
  emit nodeActivated(points_[i].node);
}

void MemoryTimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPalette& pal = palette();
  p.fillRect(rect(), pal.base());
  const QFontMetrics fm(font());
  if (points_.empty()) {
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, note_);
    return;
  }
  const QRectF r = plotArea();
  const qint64 top = scaleMax();
  p.setPen(pal.color(QPalette::Text));
  p.drawText(QPointF(r.left(), fm.ascent() + 2), title_);
  // Axes: 0 and the scale's top; node order along x.
  p.setPen(QPen(pal.color(QPalette::Mid), 1));
  p.drawLine(r.bottomLeft(), r.bottomRight());
  p.drawLine(r.bottomLeft(), r.topLeft());
  p.setPen(pal.color(QPalette::PlaceholderText));
  p.drawText(QRectF(0, r.top() - fm.height() / 2.0, r.left() - 6, fm.height()), Qt::AlignRight, byte_text(top));
  p.drawText(QRectF(0, r.bottom() - fm.height() / 2.0, r.left() - 6, fm.height()), Qt::AlignRight, byte_text(0));
  p.drawText(QRectF(r.left(), r.bottom() + 2, r.width(), fm.height()), Qt::AlignLeft,
             tr("node 1: %1").arg(points_.front().node));
  p.drawText(QRectF(r.left(), r.bottom() + 2, r.width(), fm.height()), Qt::AlignRight,
             tr("node %1: %2").arg(pointCount()).arg(points_.back().node));
  // Peak while each node ran (light), live after it (the line).
  const QColor line = pal.color(QPalette::Highlight);
  QPainterPath live, peak;
  for (int i = 0; i < pointCount(); ++i) {
    const QPointF at = pointPosition(i);
    const QPointF pk(at.x(), r.bottom() - r.height() * double(points_[i].peak) / double(top));
    i ? live.lineTo(at) : live.moveTo(at);
    i ? peak.lineTo(pk) : peak.moveTo(pk);
  }
  QColor light = line;
  light.setAlpha(90);
  p.setPen(QPen(light, 1, Qt::DashLine));
  p.drawPath(peak);
  p.setPen(QPen(line, 2));
  p.drawPath(live);
  // The peak, marked and named.
  const QColor mark(208, 69, 58);
  const QPointF pk(pointPosition(peak_).x(), r.bottom() - r.height() * double(points_[peak_].peak) / double(top));
  p.setPen(Qt::NoPen);
  p.setBrush(mark);
  p.drawEllipse(pk, 4.5, 4.5);
  p.setPen(mark);
  const QString label = tr("peak %1 at %2").arg(byte_text(points_[peak_].peak), points_[peak_].node);
  const qreal lw = fm.horizontalAdvance(label);
  const qreal lx = std::clamp(pk.x() + 8, r.left(), r.right() - lw);
  p.drawText(QPointF(lx, std::max(r.top() + fm.ascent(), pk.y() - 6)), label);
  if (selected_ >= 0) {
    const QPointF s = pointPosition(selected_);
    p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DotLine));
    p.drawLine(QPointF(s.x(), r.top()), QPointF(s.x(), r.bottom()));
    p.setPen(QPen(pal.color(QPalette::Text), 1.5));
    p.setBrush(pal.base());
    p.drawEllipse(s, 4, 4);
    p.drawText(QPointF(std::min(s.x() + 6, r.right() - fm.horizontalAdvance(points_[selected_].node)), r.bottom() - 6),
               points_[selected_].node);
  }
}

}  // namespace exportlens::ui
