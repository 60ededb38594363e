#include "ui/diff/changes_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/diff/changes_model.h"
#include "ui/diff/diff_colours.h"

namespace exportlens::ui {
namespace {

QLabel* swatch(const QString& text, diff::Status status, QWidget* parent) {
  auto* label = new QLabel(QStringLiteral("<span style='color:%1'>■</span> %2").arg(change_colour(status).name(), text), parent);
  return label;
}

}  // namespace

ChangesPanel::ChangesPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("changesPanel"));
  summary_ = new QLabel(tr("Comparing…"), this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* legend = new QHBoxLayout;
  legend->addWidget(swatch(tr("changed"), diff::Status::Changed, this));
  legend->addWidget(swatch(tr("added (B only)"), diff::Status::Added, this));
  legend->addWidget(swatch(tr("removed (A only)"), diff::Status::Removed, this));
  legend->addStretch(1);
  model_ = new ChangesModel(this);
  tree_ = new QTreeView(this);
  tree_->setObjectName(QStringLiteral("changesTree"));
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(summary_);
  layout->addLayout(legend);
  layout->addWidget(tree_, 1);
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& index) {
    if (!quiet_) activate(index);
  });
}

void ChangesPanel::setSnapshot(const DiffSnapshotPtr& snap) {
  model_->setSnapshot(snap);
  tree_->expandToDepth(0);
  if (!snap) return;
  const auto& d = snap->diff;
  summary_->setText(
      tr("<b>%1</b>: %2 changed, %3 added, %4 removed, %5 same. Matched %6 of A's %7 nodes (%8).")
          .arg(d.same() ? tr("Same") : tr("Differ"))
          .arg(d.counts.changed)
          .arg(d.counts.added)
          .arg(d.counts.removed)
          .arg(d.counts.same)
          .arg(d.matching.matched_count())
          .arg(snap->ia->size())
          .arg(QString::fromUtf8(matching::derivation_name(d.matching.derivation).data())));
}

void ChangesPanel::showNode(SideBySideView::Side side, const QString& name) {
  const QModelIndex index = model_->indexOfNode(side, name);
  if (!index.isValid()) return;
  quiet_ = true;
  tree_->setCurrentIndex(index);
  tree_->scrollTo(index);
  quiet_ = false;
}

void ChangesPanel::showFirstChange() {
  for (int g = 0; g < model_->rowCount(); ++g) {
    const QModelIndex group = model_->index(g, 0);
    if (model_->rowCount(group) == 0) continue;
    const QModelIndex first = model_->index(0, 0, group);
    if (first.data(ChangesModel::LeftNodeRole).isNull() && first.data(ChangesModel::RightNodeRole).isNull()) continue;
    tree_->setCurrentIndex(first);
    tree_->scrollTo(first);
    return;
  }
}

void ChangesPanel::activate(const QModelIndex& index) {
  const QModelIndex first = index.siblingAtColumn(0);
  const QString left = first.data(ChangesModel::LeftNodeRole).toString();
  const QString right = first.data(ChangesModel::RightNodeRole).toString();
  if (!left.isEmpty() || !right.isEmpty()) {
    emit nodeActivated(left, right);
    return;
  }
  const QVariant a = first.data(ChangesModel::LeftScopeRole), b = first.data(ChangesModel::RightScopeRole);
  if (a.isValid() || b.isValid()) emit scopeActivated(a.isValid() ? a.toInt() : -1, b.isValid() ? b.toInt() : -1);
}

}  // namespace exportlens::ui
