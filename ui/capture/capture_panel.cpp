#include "ui/capture/capture_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/capture/attempts_model.h"
#include "ui/capture/capture_session.h"
#include "ui/core/data_table.h"
#include "ui/diagnostics/attempt_view.h"

namespace exportlens::ui {

CapturePanel::CapturePanel(CaptureSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new AttemptsModel(session, this)) {
  table_ = make_data_table(model_, QStringLiteral("attemptsTable"), this);
  table_->verticalHeader()->hide();
  view_ = new AttemptView(this);
  rerun_ = new QPushButton(tr("Re-run with the Edited Spec"), this);
  rerun_->setObjectName(QStringLiteral("rerunAttempt"));
  rerun_->setToolTip(tr("Run the script again with the Dynamic shapes editor's spec in place of this call's "
                        "dynamic_shapes; the new attempt comes in beside this one"));
  draft_ = new QPushButton(tr("Capture Again with draft_export"), this);
  draft_->setObjectName(QStringLiteral("captureWithDraft"));
  draft_->setToolTip(tr("Run the script again, each failed call also through torch.export.draft_export, for a "
                        "draft program and its report"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(draft_);
  buttons->addStretch(1);
  buttons->addWidget(rerun_);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(table_);
  splitter->addWidget(view_);
  splitter->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter, 1);
  layout->addLayout(buttons);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) session_->setCurrent(current.row());
          });
  connect(session_, &CaptureSession::currentChanged, this, [this](int row) {
    if (row >= 0 && table_->currentIndex().row() != row) table_->selectRow(row);
    updateButtons();
  });
  connect(session_, &CaptureSession::rowsChanged, this, [this, splitter] {
    table_->resizeColumnsToContents();
    // The table as tall as its rows (up to eight), the attempt below it gets the rest.
    const int rows = std::min<int>(std::max<int>(int(session_->rows().size()), 1), 8);
    const int table = table_->horizontalHeader()->height() + rows * table_->verticalHeader()->defaultSectionSize() + 8;
    splitter->setSizes({table, std::max(splitter->height() - table, table * 3)});
    updateButtons();
  });
  connect(rerun_, &QPushButton::clicked, this, [this] { emit rerunRequested(session_->current()); });
  connect(draft_, &QPushButton::clicked, this, &CapturePanel::draftRequested);
  updateButtons();
}

void CapturePanel::updateButtons() {
  const AttemptRow* row = session_->currentRow();
  const bool captured = row && row->capture;  // a plain trace log has no script to run again
  rerun_->setEnabled(captured);
  draft_->setEnabled(captured);
}

}  // namespace exportlens::ui
