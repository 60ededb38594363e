#include "ui/core/selection_link.h"

#include <QAbstractItemView>
#include <QItemSelectionModel>
#include <QTableView>

#include <memory>

#include "ui/core/node_name_role.h"
#include "ui/core/program_model.h"

namespace exportlens::ui {
namespace {

QString node_of(const QModelIndex& index) { return index.data(NodeNameRole).toString(); }

void show_node_row(QAbstractItemView* view, const QString& name) {
  const QModelIndex current = view->currentIndex();
  if (current.isValid() && node_of(current) == name) return;  // one of its rows is current already
  QAbstractItemModel* rows = view->model();
  const QModelIndexList found = name.isEmpty() || rows->rowCount() == 0
                                    ? QModelIndexList()
                                    : rows->match(rows->index(0, 0), NodeNameRole, name, 1, Qt::MatchExactly);
  if (found.isEmpty()) {
    view->clearSelection();
    view->selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::NoUpdate);
    return;
  }
  if (auto* table = qobject_cast<QTableView*>(view)) {
    table->selectRow(found.first().row());
  } else {
    view->selectionModel()->setCurrentIndex(found.first(),
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  }
  view->scrollTo(found.first());
}

}  // namespace

void on_current_node(QAbstractItemView* view, QObject* context, std::function<void(const QString& node)> act) {
  QObject::connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, context,
                   [act = std::move(act)](const QModelIndex& current) {
                     if (current.isValid()) act(node_of(current));
                   });
}

void link_selection(QAbstractItemView* view, ProgramModel* model) {
  auto following = std::make_shared<bool>(false);  // showing the selection: not a user's pick
  on_current_node(view, model, [model, following](const QString& node) {
    if (!*following && !node.isEmpty()) model->selectNode(node);
  });
  QObject::connect(model, &ProgramModel::selectionChanged, view, [view, following](const QString& name) {
    *following = true;
    show_node_row(view, name);
    *following = false;
  });
}

}  // namespace exportlens::ui
