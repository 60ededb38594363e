#pragma once
// One 2-D slice of a tensor as a heat map: its last two dimensions (a 1-D
// tensor is one row), the leading ones fixed by the viewer's sliders. Values
// are coloured on a scale diverging from zero (blue below, red above, up to
// the slice's largest magnitude); NaN is magenta, Inf black. A slice larger
// than the picture keeps each block's largest magnitude, so a spike is never
// averaged away. Hovering names the element and its value.
#include <QImage>
#include <QWidget>

#include <vector>

#include "engine/numerics/tensor_snapshot.h"

namespace exportlens::ui {

class TensorSliceView : public QWidget {
  Q_OBJECT
 public:
  explicit TensorSliceView(QWidget* parent = nullptr);

  void setSnapshot(const numerics::TensorSnapshot* snapshot);
  /// The leading dimensions' indices (all but the last two).
  void setLeading(const std::vector<int64_t>& leading);
  int64_t rows() const { return rows_; }
  int64_t columns() const { return columns_; }
  /// The value shown at (row, column) of the slice (tests).
  float valueAt(int64_t row, int64_t column) const;
  double scale() const { return scale_; }
  QSize sizeHint() const override { return {260, 200}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void rebuild();
  QRect pictureRect() const;
  int64_t flatIndex(int64_t row, int64_t column) const;

  const numerics::TensorSnapshot* snapshot_ = nullptr;
  std::vector<int64_t> leading_;
  int64_t rows_ = 0, columns_ = 0;
  double scale_ = 0;
  QImage image_;
};

}  // namespace exportlens::ui
