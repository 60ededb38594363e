#pragma once
// Fonts and box sizes of the canvas's nodes. Used on the GUI thread to paint
// and on the loading thread to size the layout's boxes, so both agree.
#include <QFont>
#include <QSizeF>
#include <QString>

#include "engine/layout/geometry.h"
#include "engine/layout/node_label.h"

namespace exportlens::ui {

class NodeMetrics {
 public:
  /// Derives the title font (bold) and shape font (monospace) from `base`.
  explicit NodeMetrics(const QFont& base);

  const QFont& titleFont() const { return title_font_; }
  const QFont& shapeFont() const { return shape_font_; }
  /// A collapsed module scope's second line ("blocks.3 · 38 ops").
  const QFont& detailFont() const { return detail_font_; }
  /// Inner padding around the text, in scene units (points).
  static constexpr qreal kPaddingX = 12;
  static constexpr qreal kPaddingY = 6;
  static constexpr qreal kLineGap = 2;
  static constexpr qreal kMinWidth = 56;
  static constexpr qreal kMaxWidth = 340;  // longer shapes are elided

  /// The box a label needs. Reentrant (safe from a worker thread).
  layout::Size boxSize(const layout::NodeLabel& label) const;
  /// The box a collapsed module scope needs for its three lines (title,
  /// detail, boundary shapes), with room for its "+" on the right.
  layout::Size scopeBoxSize(const QString& title, const QString& detail, const QString& boundary) const;
  static constexpr qreal kScopeExtraWidth = 22;  // the "+" mark
  static constexpr qreal kMaxScopeWidth = 420;

 private:
  QFont title_font_;
  QFont shape_font_;
  QFont detail_font_;
};

}  // namespace exportlens::ui
