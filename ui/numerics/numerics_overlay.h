#pragma once
// Per-node figures drawn on the canvas: each node tinted by where its value
// lies between two thresholds the user can edit (no tint at or below `low`,
// the full tint at or above `high`, on a log scale for errors), every
// collapsed module and folded stack by its worst node in any instance.
// What a numerics run computed, or node data a file brings (Model Explorer's
// format). Clearing it gives the canvas back to the run-time heat.
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

namespace exportlens::ui {

class GraphScene;

class NumericsOverlay : public QObject {
  Q_OBJECT
 public:
  explicit NumericsOverlay(GraphScene* scene, QObject* parent = nullptr);

  /// Shows `values` (by node name) named `title`; the range starts at the
  /// smallest and largest finite value (for SNR and cosine, smaller is worse).
  void show(const QString& title, const QHash<QString, double>& values, bool largerIsWorse,
            const QHash<QString, QString>& labels = {});
  void clear();
  bool isShown() const { return !values_.isEmpty(); }

  QString title() const { return title_; }
  double low() const { return low_; }
  double high() const { return high_; }
  bool largerIsWorse() const { return larger_is_worse_; }
  /// What each tinted node is tinted by, in (0, 1] (nodes at or below the low threshold are not listed).
  QHash<QString, qreal> fractions() const;
  /// Where `value` lies between the thresholds, in [0, 1].
  qreal fraction(double value) const;

 public slots:
  void setRange(double low, double high);

 signals:
  void changed();

 private:
  void apply();

  QPointer<GraphScene> scene_;
  QString title_;
  QHash<QString, double> values_;
  QHash<QString, QString> labels_;
  bool larger_is_worse_ = true;
  double low_ = 0, high_ = 1;
};

}  // namespace exportlens::ui
