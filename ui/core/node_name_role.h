#pragma once
// The item-data role every node-bearing model answers with the name of the
// node a row stands for (empty when the row has none), so one helper
// (selection_link.h) links any item view, sorted or filtered, to the shared
// node selection.
#include <Qt>

namespace exportlens::ui {

inline constexpr int NodeNameRole = Qt::UserRole + 100;

}  // namespace exportlens::ui
