#include "ui/numerics/numerics_overlay.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/canvas/graph_scene.h"

namespace exportlens::ui {

NumericsOverlay::NumericsOverlay(GraphScene* scene, QObject* parent) : QObject(parent), scene_(scene) {}

void NumericsOverlay::show(const QString& title, const QHash<QString, double>& values, bool largerIsWorse,
                           const QHash<QString, QString>& labels) {
  title_ = title;
  values_ = values;
  labels_ = labels;
  larger_is_worse_ = largerIsWorse;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  // Errors span decades: start the tint at the first non-zero one.
  if (larger_is_worse_ && lo <= 0) {
    double smallest = hi;
    for (double v : values)
      if (std::isfinite(v) && v > 0) smallest = std::min(smallest, v);
    lo = smallest > 0 ? smallest : 0;
  }
  low_ = larger_is_worse_ ? lo : hi;  // "low": where the tint starts (the best end)
  high_ = larger_is_worse_ ? hi : lo;
  apply();
}

void NumericsOverlay::clear() {
  values_.clear();
  labels_.clear();
  title_.clear();
  if (scene_) scene_->setNodeHeat({});
  emit changed();
}

void NumericsOverlay::setRange(double low, double high) {
  low_ = low;
  high_ = high;
  apply();
}

qreal NumericsOverlay::fraction(double value) const {
  if (std::isnan(value)) return 1;  // a NaN is the worst there is
  if (low_ == high_) return (larger_is_worse_ ? value >= high_ : value <= high_) ? 1 : 0;
  // Positive thresholds of a "larger is worse" figure: a log scale (errors span decades).
  if (larger_is_worse_ && low_ > 0 && high_ > 0) {
    if (value <= 0) return 0;
    const double t = (std::log10(value) - std::log10(low_)) / (std::log10(high_) - std::log10(low_));
    return std::clamp(t, 0.0, 1.0);
  }
  return std::clamp((value - low_) / (high_ - low_), 0.0, 1.0);
}

QHash<QString, qreal> NumericsOverlay::fractions() const {
  // At or below the low threshold a node is drawn as it is (an exact node looks plain).
  QHash<QString, qreal> out;
  for (auto it = values_.cbegin(); it != values_.cend(); ++it)
    if (const qreal f = fraction(it.value()); f > 0) out.insert(it.key(), f);
  return out;
}

void NumericsOverlay::apply() {
  if (scene_ && !values_.isEmpty()) {
    QHash<QString, QString> labels = labels_;
    for (auto it = values_.cbegin(); it != values_.cend(); ++it)
      if (!labels.contains(it.key())) labels.insert(it.key(), QStringLiteral("%1 %2").arg(title_).arg(it.value(), 0, 'g', 3));
    scene_->setNodeHeat(fractions(), labels, GraphScene::HeatSummary::Worst);
  }
  emit changed();
}

}  // namespace exportlens::ui
