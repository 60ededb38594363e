#include "ui/structure/instance_comparison.h"

#include <QVBoxLayout>
#include <QWidget>

#include "ui/core/qstring_from.h"
#include "ui/levels/side_by_side_view.h"

namespace exportlens::ui {
namespace {

// "blocks.3 · instance 4 of 8 × Block", and what differs when it does.
QString caption(const StructureSnapshot& snap, int scope) {
  const auto& s = snap.structure;
  const auto& h = snap.hierarchy;
  QString text = qs(h[scope].path);
  for (int k : s.stacks_of(scope)) {
    const auto& st = s.stacks[static_cast<size_t>(k)];
    for (int r = 0; r < st.count(); ++r)
      for (int member : st.instances[static_cast<size_t>(r)])
        if (member == scope) text += QObject::tr(" · instance %1 of %2").arg(r + 1).arg(qs(st.title(h)));
  }
  for (int o : s.odd_of(scope)) text += QStringLiteral(" · ") + qs(s.odd[static_cast<size_t>(o)].summary());
  return text;
}

}  // namespace

QStringList corresponding_in(const StructureSnapshot& snap, int from, int to, const QString& node) {
  const ir::Node* n = snap.program->graph().find(node.toStdString());
  if (!n) return {};
  if (!snap.hierarchy.encloses(from, snap.hierarchy.scope_of[static_cast<size_t>(n->index())])) return {node};
  const auto nodes = snap.program->graph().nodes();
  QStringList out;
  for (const auto& [a, b] : snap.structure.correspondence(from, to))
    if (a == n->index()) out << qs(nodes[static_cast<size_t>(b)]->name);
  return out;
}

SideBySideView* open_instance_comparison(QWidget* parent, const StructureSnapshotPtr& snapshot, int a, int b) {
  auto* window = new QWidget(parent, Qt::Window);
  window->setObjectName(QStringLiteral("instanceComparison"));
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setWindowTitle(QObject::tr("Compare %1 with %2")
                             .arg(qs(snapshot->hierarchy[a].path), qs(snapshot->hierarchy[b].path)));
  auto* view = new SideBySideView(nullptr, window);
  auto* layout = new QVBoxLayout(window);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view);
  view->showPair(snapshot->program, {a, b}, {caption(*snapshot, a), caption(*snapshot, b)},
                 [snapshot, a, b](SideBySideView::Side from, const QString& node) {
                   return from == SideBySideView::Left ? corresponding_in(*snapshot, a, b, node)
                                                       : corresponding_in(*snapshot, b, a, node);
                 });
  window->resize(parent ? parent->size() * 0.9 : QSize(1400, 850));
  window->show();
  return view;
}

}  // namespace exportlens::ui
