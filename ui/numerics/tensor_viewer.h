#pragma once
// The tensor viewer: one node's values. After a numerics run, A and B side
// by side with B - A, their statistics and histograms, the same 2-D slice of
// each (sliders choose the leading indices), and the elements where A and B
// differ most; for a weight, its stored values and its largest elements.
// A window of its own, so several can stay open beside the graph.
#include <QWidget>

#include <memory>

#include "engine/numerics/tensor_snapshot.h"

class QLabel;
class QHBoxLayout;
class QSpinBox;
class QTableWidget;

namespace exportlens::ui {

class TensorPane;

class TensorViewer : public QWidget {
  Q_OBJECT
 public:
  explicit TensorViewer(QWidget* parent = nullptr);

  /// A, B and B - A (`aTitle`, `bTitle` name the runs); `single`: only A (a weight).
  void setValues(const QString& title, std::shared_ptr<const numerics::SnapshotPair> pair, bool single,
                 const QString& aTitle = {}, const QString& bTitle = {});
  /// The leading indices of the slice shown (all but the last two dimensions).
  void setLeading(const std::vector<int64_t>& leading);

  TensorPane* paneA() const { return a_; }
  TensorPane* paneB() const { return b_; }
  TensorPane* paneDifference() const { return difference_; }
  QTableWidget* elementsTable() const { return elements_; }

 private:
  void rebuildSliders();
  void fillElements();
  void sliderMoved();

  QLabel* title_;
  QWidget* sliders_;
  QHBoxLayout* sliders_layout_;
  std::vector<QSpinBox*> leading_;
  TensorPane* a_;
  TensorPane* b_;
  TensorPane* difference_;
  QTableWidget* elements_;
  std::shared_ptr<const numerics::SnapshotPair> pair_;
  bool single_ = false;
};

}  // namespace exportlens::ui
