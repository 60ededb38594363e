#pragma once
// A tensor's histogram (TensorSnapshot::histogram: equal bins over
// [min, max], finite elements only) as bars, with the range under them and
// a bin's range and count in its tooltip.
#include <QWidget>

#include "engine/numerics/tensor_snapshot.h"

namespace exportlens::ui {

class TensorHistogram : public QWidget {
  Q_OBJECT
 public:
  explicit TensorHistogram(QWidget* parent = nullptr);
  void setSnapshot(const numerics::TensorSnapshot* snapshot);
  QSize sizeHint() const override { return {240, 90}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  int binAt(int x) const;
  QRectF plotRect() const;

  std::vector<int64_t> bins_;
  double min_ = 0, max_ = 0;
};

}  // namespace exportlens::ui
