#include "ui/core/table_export.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QTableView>

#include <algorithm>

namespace exportlens::ui {
namespace {

QString cell(const QAbstractItemModel& m, int row, int col) {
  return m.data(m.index(row, col), Qt::DisplayRole).toString();
}

QString header(const QAbstractItemModel& m, int col) {
  return m.headerData(col, Qt::Horizontal, Qt::DisplayRole).toString();
}

QString csv_field(const QString& s) {
  if (!s.contains(',') && !s.contains('"') && !s.contains('\n') && !s.contains('\r')) return s;
  QString q = s;
  q.replace('"', "\"\"");
  return '"' + q + '"';
}

// A tab or a line break inside a cell would break the text table's columns.
QString text_field(QString s) {
  s.replace('\t', ' ');
  s.replace("\r\n", " ");
  s.replace('\n', ' ');
  return s;
}

template <typename Field>
QString join_row(const QAbstractItemModel& m, int row, Field field, QChar sep) {
  QStringList cells;
  for (int c = 0; c < m.columnCount(); ++c) cells << field(row < 0 ? header(m, c) : cell(m, row, c));
  return cells.join(sep);
}

QList<int> selected_rows(QTableView* view) {
  QList<int> rows;
  if (!view->selectionModel()) return rows;
  for (const auto& index : view->selectionModel()->selectedRows()) rows << index.row();
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

QString table_csv(const QAbstractItemModel& m) {
  QString out = join_row(m, -1, csv_field, ',') + "\r\n";
  for (int r = 0; r < m.rowCount(); ++r) out += join_row(m, r, csv_field, ',') + "\r\n";
  return out;
}

QString table_text(const QAbstractItemModel& m, const QList<int>& rows) {
  QString out = join_row(m, -1, text_field, '\t') + "\n";
  if (rows.isEmpty()) {
    for (int r = 0; r < m.rowCount(); ++r) out += join_row(m, r, text_field, '\t') + "\n";
  } else {
    for (int r : rows) out += join_row(m, r, text_field, '\t') + "\n";
  }
  return out;
}

void add_table_export_actions(QTableView* view) {
  auto* copy = new QAction(QObject::tr("&Copy"), view);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  copy->setObjectName("copyTableAction");
  QObject::connect(copy, &QAction::triggered, view, [view] {
    if (view->model()) QApplication::clipboard()->setText(table_text(*view->model(), selected_rows(view)));
  });
  auto* csv = new QAction(QObject::tr("Export as &CSV…"), view);
  csv->setObjectName("exportCsvAction");
  QObject::connect(csv, &QAction::triggered, view, [view] {
    if (!view->model()) return;
    const QString name = view->objectName().isEmpty() ? QStringLiteral("table") : view->objectName();
    const QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export Table as CSV"), name + ".csv",
                                                      QObject::tr("CSV file (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(table_csv(*view->model()).toUtf8()) < 0)
      QMessageBox::warning(view, QObject::tr("Export Table"), QObject::tr("Cannot write %1: %2").arg(path, f.errorString()));
  });
  view->addAction(copy);
  view->addAction(csv);
  view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

}  // namespace exportlens::ui
