#pragma once
// The look every read-only table of the window shares: whole-row single
// selection, no editing, alternating rows, no grid, left-aligned headers,
// the last column stretched, rows sized to the font, and a context menu with
// Copy (Ctrl+C) and Export as CSV… (table_export.h).
#include <QString>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace exportlens::ui {

QTableView* make_data_table(QAbstractItemModel* model, const QString& object_name, QWidget* parent);

}  // namespace exportlens::ui
