#pragma once
// Every table of the window (signature, range constraints, guards,
// violations, op histogram, run times, ...) as CSV or as text: the model's
// header and displayed cells, as the user sees them. make_data_table() gives
// each table a context menu with Copy (Ctrl+C: the selected rows, or all,
// tab-separated) and Export as CSV…
#include <QModelIndexList>
#include <QString>

class QAbstractItemModel;
class QTableView;

namespace exportlens::ui {

/// RFC 4180 CSV: a header row, then every row; fields with commas, quotes or
/// line breaks quoted, quotes doubled; lines end with CRLF.
QString table_csv(const QAbstractItemModel& model);
/// Tab-separated text with a header line (what Copy puts on the clipboard):
/// `rows` (model rows) only, or every row when empty.
QString table_text(const QAbstractItemModel& model, const QList<int>& rows = {});

/// Adds Copy and Export as CSV… to `view`'s context menu (and Ctrl+C).
void add_table_export_actions(QTableView* view);

}  // namespace exportlens::ui
