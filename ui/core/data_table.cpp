#include "ui/core/data_table.h"

#include "ui/core/table_export.h"

#include <QHeaderView>
#include <QTableView>

namespace exportlens::ui {

QTableView* make_data_table(QAbstractItemModel* model, const QString& object_name, QWidget* parent) {
  auto* table = new QTableView(parent);
  table->setObjectName(object_name);
  table->setModel(model);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setAlternatingRowColors(true);
  table->setShowGrid(false);
  table->setWordWrap(false);
  table->horizontalHeader()->setStretchLastSection(true);
  table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
  add_table_export_actions(table);  // Copy (Ctrl+C) and Export as CSV…
  return table;
}

}  // namespace exportlens::ui
