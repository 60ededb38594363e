#pragma once
// One tensor in the tensor viewer: what it is (dtype, shape, device), its
// statistics (min, max, mean, std, largest magnitude, zeros, NaN, Inf), its
// histogram and the 2-D slice the viewer's sliders choose.
#include <QWidget>

#include "engine/numerics/tensor_snapshot.h"

class QLabel;

namespace exportlens::ui {

class TensorHistogram;
class TensorSliceView;

class TensorPane : public QWidget {
  Q_OBJECT
 public:
  TensorPane(const QString& title, QWidget* parent = nullptr);
  void setSnapshot(const numerics::TensorSnapshot* snapshot);
  void setLeading(const std::vector<int64_t>& leading);
  void setTitle(const QString& title);
  TensorSliceView* slice() const { return slice_; }
  QString statsText() const;

 private:
  QLabel* title_;
  QLabel* stats_;
  TensorHistogram* histogram_;
  TensorSliceView* slice_;
};

}  // namespace exportlens::ui
