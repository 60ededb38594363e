#include "ui/shapes/dynamic_shapes_panel.h"

#include <QAction>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTreeView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "engine/ops/program_solver.h"
#include "ui/core/data_table.h"
#include "ui/shapes/additional_inputs_action.h"
#include "ui/shapes/dim_spec_delegate.h"
#include "ui/shapes/dynamic_shapes_model.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shapes/spec_text_editor.h"

namespace exportlens::ui {
namespace {

QToolButton* tool_button(QAction* action, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setDefaultAction(action);
  button->setAutoRaise(true);
  return button;
}

}  // namespace

DynamicShapesPanel::DynamicShapesPanel(SpecSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new DynamicShapesModel(session, this)),
      table_(new QTreeView(this)),
      text_(new SpecTextEditor(session->document(), this)),
      tabs_(new QTabWidget(this)),
      notice_(new QLabel(this)) {
  // A tree table: a nested argument's parts below it; cells are picked and edited one at a time.
  table_->setObjectName(QStringLiteral("dynamicShapesTable"));
  table_->setModel(model_);
  table_->setItemDelegate(new DimSpecDelegate(session->document(), table_));
  table_->setSelectionBehavior(QAbstractItemView::SelectItems);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::AnyKeyPressed);
  table_->setAlternatingRowColors(true);
  table_->setUniformRowHeights(true);
  table_->setAllColumnsShowFocus(false);
  table_->header()->setStretchLastSection(true);
  table_->header()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  table_->header()->setMinimumSectionSize(table_->fontMetrics().horizontalAdvance(QStringLiteral("DYNAMIC")) + 16);
  const auto fit = [this] {
    // Every part of a nested argument shown; the root decorated only when some argument has parts.
    table_->expandAll();
    bool nested = false;
    for (int r = 0; r < model_->rowCount(); ++r) nested = nested || model_->rowCount(model_->index(r, 0)) > 0;
    table_->setRootIsDecorated(nested);
    for (int column = 0; column < model_->solvedColumn(); ++column) table_->resizeColumnToContents(column);
  };
  connect(model_, &QAbstractItemModel::modelReset, this, fit);
  connect(model_, &QAbstractItemModel::dataChanged, this, [this] {
    // The dims' texts change with edits; the solved shape keeps stretching to the edge.
    for (int column = DynamicShapesModel::FirstDim; column < model_->solvedColumn(); ++column)
      table_->resizeColumnToContents(column);
  });
  connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
    const int input = model_->inputAt(current);
    if (input >= 0) emit nodeActivated(model_->nodeAt(input));
  });
  fit();

  tabs_->setDocumentMode(true);
  tabs_->addTab(table_, tr("Table"));
  tabs_->addTab(text_, tr("Python"));

  QUndoStack* undo = session->document()->undoStack();
  auto* undo_action = undo->createUndoAction(this, tr("Undo"));
  auto* redo_action = undo->createRedoAction(this, tr("Redo"));
  undo_action->setText(QStringLiteral("↶"));
  redo_action->setText(QStringLiteral("↷"));
  auto* recorded = new QAction(tr("Recorded spec"), this);
  recorded->setToolTip(tr("Back to the spec the program was exported with (every symbolic dim Dim.AUTO)"));
  connect(recorded, &QAction::triggered, this, [this] {
    const LoadedProgramPtr& program = session_->program();
    if (program && program->prepared)
      session_->document()->setSpec(program->prepared->recorded_spec(), tr("Recorded spec"),
                                    SpecDocument::Origin::Fixes);
  });

  notice_->setWordWrap(true);
  notice_->setForegroundRole(QPalette::PlaceholderText);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 0, 4, 0);
  bar->addWidget(notice_, 1);
  bar->addWidget(tool_button(undo_action, this));
  bar->addWidget(tool_button(redo_action, this));
  bar->addWidget(tool_button(recorded, this));
  additional_ = new AdditionalInputsAction(session, this);  // torch.export's AdditionalInputs
  bar->addWidget(tool_button(additional_->action(), this));
  connect(additional_, &AdditionalInputsAction::statusChanged, this, &DynamicShapesPanel::updateNotice);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 2, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(tabs_, 1);

  connect(session, &SpecSession::stateChanged, this, &DynamicShapesPanel::updateNotice);
  updateNotice();
}

void DynamicShapesPanel::updateNotice() {
  switch (session_->state()) {
    case SpecSession::State::NoProgram: notice_->setText(tr("No program loaded.")); break;
    case SpecSession::State::Unavailable:
      notice_->setText(tr("Shapes cannot be solved for this program: %1").arg(session_->unavailableReason()));
      break;
    default:
      notice_->setText(!additional_->status().isEmpty()
                           ? additional_->status()
                           : tr("Double-click a dimension to change it; edits re-solve in the background (%1).")
                                 .arg(session_->stateText()));
  }
}

}  // namespace exportlens::ui
