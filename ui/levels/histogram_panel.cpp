#include "ui/levels/histogram_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "engine/passes/ir_levels.h"
#include "ui/core/data_table.h"
#include "ui/levels/ir_level_controller.h"

namespace exportlens::ui {
namespace {

int total(const std::map<std::string, int>& counts) {
  int n = 0;
  for (const auto& [op, c] : counts) n += c;
  return n;
}

}  // namespace

HistogramPanel::HistogramPanel(IrLevelController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller), model_(new HistogramModel(this)) {
  table_ = make_data_table(model_, QStringLiteral("histogramTable"), this);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("histogramSummary"));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addWidget(summary_);
  layout->addWidget(table_);
  connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
    emit opActivated(model_->index(index.row(), HistogramModel::OpColumn).data().toString());
  });
  connect(controller_, &IrLevelController::levelsChanged, this, &HistogramPanel::refresh);
  connect(controller_, &IrLevelController::currentChanged, this, [this](const LevelChoice& current) {
    if (current.level == passes::IrLevel::Core) core_ = current;  // the table last chosen
    refresh();
    if (isVisible()) computeAll();  // another core table: its column
  });
  refresh();
}

QList<LevelChoice> HistogramPanel::levels() const {
  return {controller_->opened(), LevelChoice::functional(), core_};
}

void HistogramPanel::computeAll() { controller_->prepare(levels(), false); }

void HistogramPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  computeAll();
}

void HistogramPanel::refresh() {
  QList<LevelHistogram> histograms;
  QSet<QString> non_core;
  QStringList totals;
  for (const LevelChoice& level : levels()) {
    LevelHistogram h{level, std::nullopt, controller_->error(level)};
    if (auto program = controller_->program(level)) {
      h.counts = passes::op_histogram(*program);
      for (const auto& [op, n] : passes::non_core_ops(*program)) non_core.insert(QString::fromStdString(op));
      totals.append(tr("%1: %2 calls").arg(level.label()).arg(total(*h.counts)));
    } else {
      totals.append(tr("%1: %2").arg(level.label(), h.error.isEmpty() ? tr("not lowered yet") : tr("failed")));
    }
    histograms.append(std::move(h));
  }
  model_->setHistograms(std::move(histograms), non_core);
  table_->resizeColumnsToContents();
  summary_->setText(totals.join(QStringLiteral("  ·  ")) +
                    (non_core.isEmpty() ? QString() : tr("  ·  %n non-core op(s)", nullptr, non_core.size())));
}

}  // namespace exportlens::ui
