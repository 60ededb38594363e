#include "ui/core/node_metrics.h"

#include <QFontDatabase>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace exportlens::ui {

NodeMetrics::NodeMetrics(const QFont& base)
    : title_font_(base), shape_font_(QFontDatabase::systemFont(QFontDatabase::FixedFont)), detail_font_(base) {
  title_font_.setBold(true);
  shape_font_.setPointSizeF(std::max(7.0, base.pointSizeF() - 1));
  detail_font_.setPointSizeF(std::max(7.0, base.pointSizeF() - 1));
}

layout::Size NodeMetrics::boxSize(const layout::NodeLabel& label) const {
  QFontMetricsF title(title_font_), shape(shape_font_);
  qreal text_width = title.horizontalAdvance(QString::fromStdString(label.title));
  qreal height = title.height();
  if (!label.subtitle.empty()) {
    text_width = std::max(text_width, shape.horizontalAdvance(QString::fromStdString(label.subtitle)));
    height += kLineGap + shape.height();
  }
  qreal width = std::clamp(text_width + 2 * kPaddingX, kMinWidth, kMaxWidth);
  // Whole points keep the layout independent of sub-pixel font differences.
  return {std::ceil(width), std::ceil(height + 2 * kPaddingY)};
}

layout::Size NodeMetrics::scopeBoxSize(const QString& title, const QString& detail, const QString& boundary) const {
  QFontMetricsF title_metrics(title_font_), detail_metrics(detail_font_), shape(shape_font_);
  qreal text_width = std::max(title_metrics.horizontalAdvance(title) + kScopeExtraWidth,
                              detail_metrics.horizontalAdvance(detail));
  qreal height = title_metrics.height() + kLineGap + detail_metrics.height();
  if (!boundary.isEmpty()) {
    text_width = std::max(text_width, shape.horizontalAdvance(boundary));
    height += kLineGap + shape.height();
  }
  const qreal width = std::clamp(text_width + 2 * kPaddingX, kMinWidth * 2, kMaxScopeWidth);
  return {std::ceil(width), std::ceil(height + 2 * kPaddingY + 4)};
}

}  // namespace exportlens::ui
