#include "ui/canvas/breadcrumb_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include "ui/canvas/graph_scene.h"

namespace exportlens::ui {

BreadcrumbBar::BreadcrumbBar(QWidget* parent) : QWidget(parent), layout_(new QHBoxLayout(this)) {
  setObjectName(QStringLiteral("breadcrumbs"));
  setAutoFillBackground(true);
  layout_->setContentsMargins(4, 1, 4, 1);
  layout_->setSpacing(0);
  hide();
}

void BreadcrumbBar::setSelectedScope(int scope) {
  selected_ = scope;
  rebuild();
}

void BreadcrumbBar::setHoveredScope(int scope) {
  if (scope == hovered_) return;
  hovered_ = scope;
  rebuild();
}

QStringList BreadcrumbBar::crumbs() const {
  QStringList out;
  for (const QToolButton* button : buttons_) out << button->text();
  return out;
}

void BreadcrumbBar::rebuild() {
  const int scope = hovered_ >= 0 ? hovered_ : selected_;
  const ir::ModuleHierarchy* h = scene_ ? scene_->hierarchy() : nullptr;
  const int shown = h && scope >= 0 && scope < int(h->size()) ? scope : -1;
  if (shown == shown_) return;
  shown_ = shown;
  while (QLayoutItem* item = layout_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  buttons_.clear();
  if (shown < 0) {
    hide();
    return;
  }
  for (int s : h->path_to(shown)) {
    if (!buttons_.isEmpty()) layout_->addWidget(new QLabel(QStringLiteral("›"), this));
    auto* button = new QToolButton(this);
    button->setAutoRaise(true);
    const auto& node = (*h)[s];
    button->setText(s == ir::ModuleHierarchy::kRoot ? tr("program") : QString::fromStdString(h->relative_path(s)));
    button->setToolTip(s == ir::ModuleHierarchy::kRoot ? tr("The whole program (fit)")
                                                       : QString::fromStdString(node.label()));
    connect(button, &QToolButton::clicked, this, [this, s] { emit scopeClicked(s); });
    layout_->addWidget(button);
    buttons_.append(button);
  }
  adjustSize();
  show();
  raise();
}

}  // namespace exportlens::ui
