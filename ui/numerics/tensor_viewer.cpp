#include "ui/numerics/tensor_viewer.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

#include "ui/numerics/tensor_pane.h"

namespace exportlens::ui {
namespace {

constexpr size_t kElementsShown = 20;

QString index_text(const numerics::TensorSnapshot& t, int64_t flat) {
  QStringList out;
  for (int64_t i : t.unflat(flat)) out << QString::number(i);
  return "[" + out.join(", ") + "]";
}

}  // namespace

TensorViewer::TensorViewer(QWidget* parent)
    : QWidget(parent, Qt::Window), title_(new QLabel(this)), sliders_(new QWidget(this)),
      sliders_layout_(new QHBoxLayout(sliders_)), a_(new TensorPane(tr("A"), this)), b_(new TensorPane(tr("B"), this)),
      difference_(new TensorPane(tr("B − A"), this)), elements_(new QTableWidget(this)) {
  setObjectName(QStringLiteral("tensorViewer"));
  setAttribute(Qt::WA_DeleteOnClose);
  resize(1000, 640);
  auto* layout = new QVBoxLayout(this);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(title_);
  sliders_layout_->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(sliders_);
  auto* split = new QSplitter(Qt::Vertical, this);
  auto* panes = new QWidget(split);
  auto* row = new QHBoxLayout(panes);
  row->setContentsMargins(0, 0, 0, 0);
  for (TensorPane* pane : {a_, b_, difference_}) row->addWidget(pane);
  split->addWidget(panes);
  elements_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  elements_->verticalHeader()->hide();
  elements_->horizontalHeader()->setStretchLastSection(true);
  split->addWidget(elements_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  layout->addWidget(split, 1);
}

void TensorViewer::setValues(const QString& title, std::shared_ptr<const numerics::SnapshotPair> pair, bool single,
                             const QString& aTitle, const QString& bTitle) {
  pair_ = std::move(pair);
  single_ = single;
  setWindowTitle(tr("Values of %1").arg(title));
  title_->setText(title);
  a_->setSnapshot(pair_ ? &pair_->a : nullptr);
  b_->setSnapshot(pair_ && !single ? &pair_->b : nullptr);
  difference_->setSnapshot(pair_ && !single ? &pair_->difference : nullptr);
  b_->setVisible(!single);
  difference_->setVisible(!single);
  a_->setTitle(single ? tr("Stored values") : tr("A: %1").arg(aTitle));
  b_->setTitle(tr("B: %1").arg(bTitle));
  rebuildSliders();
  fillElements();
}

void TensorViewer::rebuildSliders() {
  qDeleteAll(leading_);
  leading_.clear();
  while (QLayoutItem* item = sliders_layout_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  if (!pair_) return;
  const auto& sizes = pair_->a.sizes;
  if (sizes.size() <= 2) {
    sliders_->hide();
    return;
  }
  sliders_->show();
  sliders_layout_->addWidget(new QLabel(tr("Slice [%1:, :] at").arg(QStringLiteral("i, ").repeated(int(sizes.size()) - 2)), sliders_));
  for (size_t d = 0; d + 2 < sizes.size(); ++d) {
    auto* box = new QSpinBox(sliders_);
    box->setRange(0, int(std::max<int64_t>(0, sizes[d] - 1)));
    box->setPrefix(tr("dim %1: ").arg(d));
    connect(box, &QSpinBox::valueChanged, this, &TensorViewer::sliderMoved);
    sliders_layout_->addWidget(box);
    leading_.push_back(box);
  }
  sliders_layout_->addStretch(1);
}

void TensorViewer::sliderMoved() {
  std::vector<int64_t> leading;
  for (QSpinBox* box : leading_) leading.push_back(box->value());
  for (TensorPane* pane : {a_, b_, difference_}) pane->setLeading(leading);
}

void TensorViewer::setLeading(const std::vector<int64_t>& leading) {
  for (size_t i = 0; i < leading.size() && i < leading_.size(); ++i) leading_[i]->setValue(int(leading[i]));
  sliderMoved();
}

void TensorViewer::fillElements() {
  elements_->clear();
  elements_->setRowCount(0);
  if (!pair_) return;
  auto cell = [](const QString& text) { return new QTableWidgetItem(text); };
  if (single_) {
    const auto largest = numerics::largest_elements(pair_->a, kElementsShown);
    elements_->setColumnCount(2);
    elements_->setHorizontalHeaderLabels({tr("Largest elements"), tr("Value")});
    elements_->setRowCount(int(largest.size()));
    for (int r = 0; r < int(largest.size()); ++r) {
      elements_->setItem(r, 0, cell(index_text(pair_->a, largest[r].first)));
      elements_->setItem(r, 1, cell(QString::number(largest[r].second, 'g', 7)));
    }
    return;
  }
  const auto worst = numerics::worst_elements(*pair_, kElementsShown);
  elements_->setColumnCount(4);
  elements_->setHorizontalHeaderLabels({tr("Where A and B differ most"), tr("A"), tr("B"), tr("|B − A|")});
  elements_->setRowCount(int(worst.size()));
  for (int r = 0; r < int(worst.size()); ++r) {
    const auto& [flat, a, b] = worst[r];
    elements_->setItem(r, 0, cell(index_text(pair_->a, flat)));
    elements_->setItem(r, 1, cell(QString::number(a, 'g', 7)));
    elements_->setItem(r, 2, cell(QString::number(b, 'g', 7)));
    elements_->setItem(r, 3, cell(QString::number(std::abs(double(b) - double(a)), 'g', 4)));
  }
  elements_->resizeColumnsToContents();
}

}  // namespace exportlens::ui
