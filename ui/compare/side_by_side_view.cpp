#include "ui/compare/side_by_side_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/node_item.h"

namespace exportlens::ui {

SideBySideView::SideBySideView(QWidget* parent) : QWidget(parent) {
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(makePane(Left));
  splitter->addWidget(makePane(Right));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);
}

QWidget* SideBySideView::makePane(Side side) {
  Pane& pane = panes_[side];
  auto* widget = new QWidget(this);
  pane.caption = new QLabel(widget);
  pane.scene = new GraphScene(this);
  pane.view = new GraphView(widget);
  pane.view->setScene(pane.scene);
  pane.view->watch(pane.scene);  // reveals, the overview, the module path
  pane.header = new QHBoxLayout;
  pane.header->addWidget(pane.caption, 1);
  auto* layout = new QVBoxLayout(widget);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addLayout(pane.header);
  layout->addWidget(pane.view, 1);
  connect(pane.scene, &GraphScene::nodeSelected, this, [this, side](const QString& name) {
    if (!linking_) linkFrom(side, name);
  });
  return widget;
}

void SideBySideView::addHeaderWidget(Side side, QWidget* widget) { panes_[side].header->insertWidget(0, widget); }

void SideBySideView::setCaption(Side side, const QString& text) { panes_[side].caption->setText(text); }

void SideBySideView::showProgram(Side side, const LoadedProgramPtr& program) {
  Pane& pane = panes_[side];
  if (program == pane.shown) return;
  pane.shown = program;
  pane.scene->setProgram(program);
  if (program) pane.view->fitAll();
}

void SideBySideView::showPair(const LoadedProgramPtr& program, std::array<std::vector<int>, 2> scopes,
                              std::array<QString, 2> captions, Relation relate) {
  relate_ = std::move(relate);
  for (int side = 0; side < 2; ++side) {
    Pane& pane = panes_[side];
    pane.caption->setText(captions[side]);
    pane.shown = program;
    pane.scene->setProgram(program);
    pane.scene->collapseAll();  // the instance open, the rest as boxes around it
    for (int scope : scopes[side]) {
      pane.scene->revealScope(scope);
      pane.scene->setExpanded(scope, true);
    }
  }
}

QStringList SideBySideView::selectedNodes(Side side) const {
  QStringList out;
  for (const NodeItem* item : panes_[side].scene->nodeItems())
    if (item->isSelected()) out.append(item->nodeName());
  out.sort();
  return out;
}

void SideBySideView::selectNode(Side side, const QString& name) {
  linking_ = true;
  panes_[side].scene->selectNode(name);
  linking_ = false;
  linkFrom(side, name);
}

void SideBySideView::linkFrom(Side side, const QString& name) {
  Pane& target = panes_[other(side)];
  const LoadedProgramPtr& source = panes_[side].shown;
  linking_ = true;
  QStringList related;
  const ir::Node* node = source && !name.isEmpty() ? source->graph().find(name.toStdString()) : nullptr;
  if (node && target.shown && relate_) related = relate_(side, name);
  // Inside a closed module box the scopes around them open first; the pane's view then centres them.
  if (related.isEmpty()) {
    target.scene->selectNode(QString());
  } else {
    target.scene->revealNodes(related);
  }
  linking_ = false;
  emit nodePicked(side, name);
}

}  // namespace exportlens::ui
