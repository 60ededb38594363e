#include "ui/levels/level_inspector_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/core/data_table.h"

namespace exportlens::ui {

LevelInspectorPanel::LevelInspectorPanel(QWidget* parent)
    : QWidget(parent), model_(new ProvenanceModel(this)) {
  table_ = make_data_table(model_, QStringLiteral("provenanceTable"), this);
  // Room for a whole chain (core, functional, training) without scrolling.
  table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                           3 * table_->verticalHeader()->defaultSectionSize() + 2 * table_->frameWidth() + 2);
  table_->setToolTip(tr("Where the node came from; click a step to show that node at its level"));
  hint_ = new QLabel(tr("<b>Provenance</b>"), this);
  expand_ = new QPushButton(tr("Expand decomposition"), this);
  expand_->setObjectName(QStringLiteral("expandDecompositionButton"));
  expand_->setToolTip(tr("Show on the canvas what this node lowers to, down to Core ATen"));
  auto* header = new QHBoxLayout;
  header->addWidget(hint_, 1);
  header->addWidget(expand_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addLayout(header);
  layout->addWidget(table_);
  auto activate = [this](const QModelIndex& index) {
    const ProvenanceStep* step = model_->stepAt(index.row());
    if (!step || index.row() == 0) return;
    const ProvenanceStep copy = *step;  // the chain is replaced while the step is shown
    emit stepActivated(copy.level, copy.node);
  };
  connect(table_, &QTableView::clicked, this, activate);
  connect(table_, &QTableView::activated, this, activate);
  connect(expand_, &QPushButton::clicked, this, [this] {
    if (const ProvenanceStep* step = model_->stepAt(0)) emit expandRequested(step->node);
  });
  setChain({}, false);
}

void LevelInspectorPanel::setChain(QList<ProvenanceStep> chain, bool expandable) {
  const bool lowered = chain.size() > 1;
  model_->setChain(std::move(chain));
  table_->resizeColumnsToContents();
  table_->setVisible(model_->rowCount() > 0);
  hint_->setText(model_->rowCount() == 0 ? tr("<b>Provenance</b>: select a node")
                 : lowered                ? tr("<b>Provenance</b>: click a step to show it")
                                          : tr("<b>Provenance</b>: a node of the exported program"));
  expand_->setEnabled(expandable);
}

}  // namespace exportlens::ui
