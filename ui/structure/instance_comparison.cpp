#include "ui/structure/instance_comparison.h"

#include <QVBoxLayout>
#include <QWidget>

#include "ui/core/qstring_from.h"
#include "ui/compare/side_by_side_view.h"

namespace exportlens::ui {
namespace {

// "blocks.3 · instance 4 of 8 × Block", and what differs when it does; an
// instance of several calls: "blocks.2 … mixers.1 · instance 2 of 3 × [2 × ConvBlock, Mixer]".
QString caption(const StructureSnapshot& snap, const InstanceScopes& instance) {
  const auto& s = snap.structure;
  const auto& h = snap.hierarchy;
  QString text = qs(h[instance.front()].path);
  if (instance.size() > 1) text += QStringLiteral(" … ") + qs(h[instance.back()].path);
  for (int k : s.stacks_of(instance.front())) {
    const auto& st = s.stacks[static_cast<size_t>(k)];
    for (int r = 0; r < st.count(); ++r)
      if (st.instances[static_cast<size_t>(r)] == instance ||
          (instance.size() == 1 && st.instances[static_cast<size_t>(r)].size() == 1 &&
           st.instances[static_cast<size_t>(r)].front() == instance.front()))
        text += QObject::tr(" · instance %1 of %2").arg(r + 1).arg(qs(st.title(h)));
  }
  for (int scope : instance)
    for (int o : s.odd_of(scope)) {
      text += QStringLiteral(" · ");
      if (instance.size() > 1) text += qs(h[scope].path) + QStringLiteral(": ");
      text += qs(s.odd[static_cast<size_t>(o)].summary());
    }
  return text;
}

QString names(const StructureSnapshot& snap, const InstanceScopes& instance) {
  QString text = qs(snap.hierarchy[instance.front()].path);
  return instance.size() > 1 ? text + QStringLiteral(" … ") + qs(snap.hierarchy[instance.back()].path) : text;
}

}  // namespace

QStringList corresponding_in(const StructureSnapshot& snap, const InstanceScopes& from, const InstanceScopes& to,
                             const QString& node) {
  const ir::Node* n = snap.program->graph().find(node.toStdString());
  if (!n) return {};
  const int scope = snap.hierarchy.scope_of[static_cast<size_t>(n->index())];
  // The call of `from` holding the node, and the call at its place in `to`.
  size_t place = 0;
  while (place < from.size() && !snap.hierarchy.encloses(from[place], scope)) ++place;
  if (place == from.size()) return {node};
  if (place >= to.size()) return {};
  const auto nodes = snap.program->graph().nodes();
  QStringList out;
  for (const auto& [a, b] : snap.structure.correspondence(from[place], to[place]))
    if (a == n->index()) out << qs(nodes[static_cast<size_t>(b)]->name);
  return out;
}

SideBySideView* open_instance_comparison(QWidget* parent, const StructureSnapshotPtr& snapshot, const InstanceScopes& a,
                                         const InstanceScopes& b) {
  if (a.empty() || b.empty()) return nullptr;
  auto* window = new QWidget(parent, Qt::Window);
  window->setObjectName(QStringLiteral("instanceComparison"));
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setWindowTitle(QObject::tr("Compare %1 with %2").arg(names(*snapshot, a), names(*snapshot, b)));
  auto* view = new SideBySideView(window);
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
