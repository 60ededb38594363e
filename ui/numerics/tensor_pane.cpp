#include "ui/numerics/tensor_pane.h"

#include <QLabel>
#include <QVBoxLayout>

#include "ui/numerics/tensor_histogram.h"
#include "ui/numerics/tensor_slice_view.h"

namespace exportlens::ui {
namespace {

QString shape_text(const std::vector<int64_t>& sizes) {
  QStringList out;
  for (int64_t s : sizes) out << QString::number(s);
  return "[" + out.join(", ") + "]";
}

}  // namespace

TensorPane::TensorPane(const QString& title, QWidget* parent)
    : QWidget(parent), title_(new QLabel(title, this)), stats_(new QLabel(this)),
      histogram_(new TensorHistogram(this)), slice_(new TensorSliceView(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stats_->setWordWrap(true);
  layout->addWidget(title_);
  layout->addWidget(stats_);
  layout->addWidget(histogram_);
  layout->addWidget(slice_, 1);
}

void TensorPane::setSnapshot(const numerics::TensorSnapshot* snapshot) {
  histogram_->setSnapshot(snapshot);
  slice_->setSnapshot(snapshot);
  if (!snapshot) {
    stats_->clear();
    return;
  }
  const numerics::TensorStats& s = snapshot->stats;
  stats_->setText(tr("%1%2 on %3, %4 elements, strides %13\nmin %5   max %6   mean %7   std %8\n|max| %9   zeros %10   NaN %11   Inf %12")
                      .arg(QString::fromStdString(snapshot->dtype), shape_text(snapshot->sizes),
                           QString::fromStdString(snapshot->device.empty() ? "cpu" : snapshot->device))
                      .arg(snapshot->numel())
                      .arg(s.min, 0, 'g', 5)
                      .arg(s.max, 0, 'g', 5)
                      .arg(s.mean, 0, 'g', 5)
                      .arg(s.std, 0, 'g', 5)
                      .arg(s.abs_max, 0, 'g', 5)
                      .arg(s.zeros)
                      .arg(s.nans)
                      .arg(s.infs)
                      .arg(shape_text(snapshot->strides)));
}

void TensorPane::setLeading(const std::vector<int64_t>& leading) { slice_->setLeading(leading); }

void TensorPane::setTitle(const QString& title) { title_->setText(title); }

QString TensorPane::statsText() const { return stats_->text(); }

}  // namespace exportlens::ui
