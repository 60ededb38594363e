#include "ui/run/heat_legend.h"

#include <QAction>
#include <QEvent>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>

#include "ui/core/program_model.h"
#include "ui/run/run_panel.h"

namespace exportlens::ui {

HeatLegend::HeatLegend(QWidget* view, ProgramModel* model, RunPanel* panel, QColor cold, QColor hot)
    : QWidget(view), model_(model), panel_(panel), cold_(cold), hot_(hot) {
  setObjectName(QStringLiteral("heatLegend"));
  setAttribute(Qt::WA_TransparentForMouseEvents);
  view->installEventFilter(this);
  connect(model, &ProgramModel::runFinished, this, &HeatLegend::refresh);
  connect(panel->heatAction(), &QAction::toggled, this, &HeatLegend::refresh);
  hide();
}

void HeatLegend::refresh() {
  const RunOutcome& last = panel_->lastOutcome();
  slowest_ms_ = 0;
  for (const double ms : model_->runTimes()) slowest_ms_ = std::max(slowest_ms_, ms);
  const bool on = panel_->heatAction()->isChecked() && slowest_ms_ > 0 && last.report;
  if (on) {
    text_ = tr("node time on %1 (%2)").arg(device_display_name(last.settings.device),
                                           QString::fromStdString(last.report->time_source));
    setFixedSize(std::max(220, fontMetrics().horizontalAdvance(text_) + 20), 2 * fontMetrics().height() + 22);
    place();
  } else {
    text_.clear();
  }
  setVisible(on);
  update();
}

void HeatLegend::place() {
  if (QWidget* view = parentWidget()) move(10, view->height() - height() - 10);
}

bool HeatLegend::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize) place();
  return QWidget::eventFilter(watched, event);
}

void HeatLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  QColor back = palette().color(QPalette::Base);
  back.setAlpha(230);
  p.setPen(palette().color(QPalette::Mid));
  p.setBrush(back);
  p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
  const QFontMetrics fm = fontMetrics();
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QPointF(8, 6 + fm.ascent()), text_);
  const QRectF bar(8, 10 + fm.height(), width() - 16, 8);
  QLinearGradient g(bar.topLeft(), bar.topRight());
  g.setColorAt(0, cold_);
  g.setColorAt(1, hot_);
  p.setPen(Qt::NoPen);
  p.setBrush(g);
  p.drawRect(bar);
  p.setPen(palette().color(QPalette::PlaceholderText));
  const QRectF labels(8, bar.bottom() + 2, width() - 16, fm.height());
  p.drawText(labels, Qt::AlignLeft, tr("0 ms"));
  p.drawText(labels, Qt::AlignRight, tr("%1 ms (slowest)").arg(slowest_ms_, 0, 'f', 3));
}

}  // namespace exportlens::ui
