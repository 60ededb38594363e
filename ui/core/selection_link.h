#pragma once
// Item views and the one node selection. A view's rows name their nodes
// through NodeNameRole (node_name_role.h), through any proxy, so one helper
// serves every table: sorted, filtered or not.
#include <QString>

#include <functional>

class QAbstractItemView;
class QObject;

namespace exportlens::ui {

class ProgramModel;

/// Calls `act` with the node of the row that becomes current (empty when
/// the row names none), as long as `context` lives.
void on_current_node(QAbstractItemView* view, QObject* context, std::function<void(const QString& node)> act);

/// Both ways: making a row current selects its node; selecting a node
/// anywhere makes its first row current (a current row that names it stays)
/// and scrolls to it, or clears the view's selection when no row names it.
void link_selection(QAbstractItemView* view, ProgramModel* model);

}  // namespace exportlens::ui
