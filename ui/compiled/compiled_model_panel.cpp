#include "ui/compiled/compiled_model_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/compiled/compiled_files_model.h"
#include "ui/compiled/compiled_outputs_model.h"
#include "ui/compiled/compiled_overview_model.h"
#include "ui/compiled/compiled_session.h"
#include "ui/compiled/constants_model.h"
#include "ui/compiled/kernels_model.h"
#include "ui/core/data_table.h"
#include "ui/core/node_table_model.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {

CompiledModelPanel::CompiledModelPanel(CompiledSession* session, QWidget* parent)
    : QWidget(parent), session_(session), summary_(new QLabel(this)), model_box_(new QComboBox(this)),
      mapping_(new QLabel(this)), link_button_(new QPushButton(tr("Link Program File…"), this)),
      run_button_(new QPushButton(QStringLiteral("▶ ") + tr("Run Compiled Model…"), this)),
      cancel_button_(new QPushButton(tr("Cancel"), this)), inputs_button_(new QPushButton(tr("Inputs: random"), this)),
      progress_(new QProgressBar(this)), run_text_(new QLabel(this)), tabs_(new QTabWidget(this)),
      overview_(new CompiledOverviewModel(session, this)), kernels_(new KernelsModel(session, this)),
      kernels_sorted_(new QSortFilterProxyModel(this)), constants_(new ConstantsModel(session, this)),
      files_(new CompiledFilesModel(session, this)), outputs_(new CompiledOutputsModel(session, this)) {
  summary_->setObjectName(QStringLiteral("compiledSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mapping_->setObjectName(QStringLiteral("compiledMapping"));
  mapping_->setWordWrap(true);
  mapping_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  model_box_->setObjectName(QStringLiteral("compiledModelBox"));
  model_box_->setToolTip(tr("The compiled model shown"));
  link_button_->setObjectName(QStringLiteral("linkProgramButton"));
  link_button_->setToolTip(tr("Name the .pt2 the compiled model was compiled from: its graph is drawn and the kernels mapped onto it"));
  run_button_->setObjectName(QStringLiteral("runCompiledButton"));
  run_button_->setToolTip(tr("Load the package's shared library and run it (asks first), then compare with the program"));
  cancel_button_->setEnabled(false);
  inputs_button_->setObjectName(QStringLiteral("compiledInputsButton"));
  inputs_button_->setToolTip(tr("A torch.save'd tuple of inputs; random ones from the program's signature without one"));
  progress_->setRange(0, 100);
  progress_->setVisible(false);
  progress_->setMaximumWidth(180);
  run_text_->setObjectName(QStringLiteral("compiledRunText"));
  run_text_->setWordWrap(true);
  run_text_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  kernels_sorted_->setSourceModel(kernels_);
  kernels_sorted_->setSortRole(NodeTableModel::SortRole);
  overview_table_ = make_data_table(overview_, QStringLiteral("compiledOverviewTable"), this);
  kernels_table_ = make_data_table(kernels_sorted_, QStringLiteral("compiledKernelsTable"), this);
  kernels_table_->setSortingEnabled(true);
  kernels_table_->sortByColumn(-1, Qt::AscendingOrder);  // launch order until a header is clicked
  constants_table_ = make_data_table(constants_, QStringLiteral("compiledConstantsTable"), this);
  files_table_ = make_data_table(files_, QStringLiteral("compiledFilesTable"), this);
  outputs_table_ = make_data_table(outputs_, QStringLiteral("compiledOutputsTable"), this);
  tabs_->setDocumentMode(true);
  tabs_->addTab(overview_table_, tr("Overview"));
  tabs_->addTab(kernels_table_, tr("Kernels"));
  tabs_->addTab(constants_table_, tr("Constants"));
  tabs_->addTab(files_table_, tr("Files"));
  tabs_->addTab(outputs_table_, tr("Outputs"));

  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(model_box_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(link_button_);
  buttons->addWidget(inputs_button_);
  buttons->addWidget(run_button_);
  buttons->addWidget(cancel_button_);
  buttons->addWidget(progress_);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addLayout(top);
  layout->addWidget(mapping_);
  layout->addLayout(buttons);
  layout->addWidget(run_text_);
  layout->addWidget(tabs_, 1);
  run_text_->setVisible(false);

  connect(model_box_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (!following_) session_->setModelIndex(index);
  });
  connect(link_button_, &QPushButton::clicked, this, &CompiledModelPanel::linkRequested);
  connect(run_button_, &QPushButton::clicked, this, &CompiledModelPanel::runRequested);
  connect(cancel_button_, &QPushButton::clicked, this, &CompiledModelPanel::cancelRequested);
  connect(inputs_button_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Inputs for the compiled model"),
                                                      QFileInfo(session_->archivePath()).absolutePath(),
                                                      tr("torch.save'd inputs (*.pt *.pth);;All files (*)"));
    setInputsFile(path);  // cancelling the dialog goes back to random inputs
  });
  connect(kernels_table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!following_ && current.isValid()) session_->selectKernel(kernelAt(current));
          });
  connect(kernels_table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    session_->selectKernel(kernelAt(index));  // again: the nodes selected once more on the canvas
  });
  connect(kernels_table_, &QTableView::doubleClicked, this,
          [this](const QModelIndex& index) { emit kernelSourceRequested(kernelAt(index), false); });
  // make_data_table's Copy / Export menu, with the kernel's sources added.
  kernels_table_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(kernels_table_, &QWidget::customContextMenuRequested, this, &CompiledModelPanel::showKernelMenu);
  connect(files_table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    if (files_->isText(index.row())) emit sourceRequested(files_->entryAt(index.row()), 0);
  });
  connect(session_, &CompiledSession::contentsChanged, this, &CompiledModelPanel::refresh);
  connect(session_, &CompiledSession::modelChanged, this, &CompiledModelPanel::refresh);
  connect(session_, &CompiledSession::mappingChanged, this, &CompiledModelPanel::refresh);
  connect(session_, &CompiledSession::kernelSelected, this, &CompiledModelPanel::showSelectedKernel);
  connect(session_, &CompiledSession::runChanged, this, [this] {
    outputs_table_->resizeColumnsToContents();
    kernels_table_->resizeColumnsToContents();
  });
  refresh();
}

QString CompiledModelPanel::summaryText() const { return summary_->text(); }
QString CompiledModelPanel::mappingText() const { return mapping_->text(); }
QString CompiledModelPanel::runText() const { return run_text_->text(); }

void CompiledModelPanel::setInputsFile(const QString& path) {
  inputs_file_ = path;
  inputs_button_->setText(path.isEmpty() ? tr("Inputs: random") : tr("Inputs: %1").arg(QFileInfo(path).fileName()));
}

void CompiledModelPanel::refresh() {
  const ArchiveContentsPtr& contents = session_->contents();
  const compiled::CompiledModel* m = session_->model();
  const QString file = QFileInfo(session_->archivePath()).fileName();
  if (!contents) {
    summary_->setText(session_->isReading() ? tr("Reading %1…").arg(file) : tr("No archive with a compiled model is open."));
  } else if (!m) {
    summary_->setText(tr("<b>%1</b>: %2, no compiled model.").arg(file.toHtmlEscaped(), qs(contents->kind())));
  } else {
    summary_->setText(tr("<b>%1</b>: %2. Compiled model <b>%3</b> for %4: %n kernel(s).", nullptr, int(m->kernels.size()))
                          .arg(file.toHtmlEscaped(), qs(contents->kind()).toHtmlEscaped(), qs(m->name).toHtmlEscaped(),
                               qs(m->device).toHtmlEscaped()));
  }
  following_ = true;
  model_box_->clear();
  if (contents)
    for (const compiled::CompiledModel& c : contents->compiled) model_box_->addItem(qs(c.name));
  model_box_->setCurrentIndex(session_->modelIndex());
  model_box_->setVisible(model_box_->count() > 1);
  following_ = false;
  mapping_->setText(m ? session_->mappingText() : QString());
  mapping_->setVisible(m != nullptr);
  link_button_->setVisible(m != nullptr);
  link_button_->setText(session_->compiledOnly() ? tr("Link Program File…") : tr("Link Another Program File…"));
  run_button_->setEnabled(m != nullptr && !m->libraries().empty());
  inputs_button_->setEnabled(m != nullptr);
  for (QTableView* table : {overview_table_, kernels_table_, constants_table_, files_table_})
    table->resizeColumnsToContents();
}

int CompiledModelPanel::kernelAt(const QModelIndex& index) const {
  return index.isValid() ? kernels_sorted_->mapToSource(index).row() : -1;
}

void CompiledModelPanel::showSelectedKernel(int kernel) {
  if (kernel < 0) return;
  const QModelIndex index = kernels_sorted_->mapFromSource(kernels_->index(kernel, 0));
  if (kernelAt(kernels_table_->currentIndex()) == kernel) return;
  following_ = true;
  kernels_table_->setCurrentIndex(index);
  kernels_table_->scrollTo(index);
  following_ = false;
}

void CompiledModelPanel::showKernelMenu(const QPoint& at) {
  const int kernel = kernelAt(kernels_table_->indexAt(at));
  const compiled::CompiledModel* m = session_->model();
  QMenu menu(this);
  if (!m || kernel < 0) {
    menu.addActions(kernels_table_->actions());
    menu.exec(kernels_table_->viewport()->mapToGlobal(at));
    return;
  }
  const compiled::Kernel& k = m->kernels[kernel];
  menu.addAction(tr("Open Definition"), this, [this, kernel] { emit kernelSourceRequested(kernel, false); })
      ->setEnabled(!k.defined_in.empty());
  menu.addAction(tr("Open Launch in Wrapper"), this, [this, kernel] { emit kernelSourceRequested(kernel, true); })
      ->setEnabled(!k.wrapper_entry.empty());
  menu.addSeparator();
  menu.addAction(tr("Select Its Nodes"), this, [this, kernel] { session_->selectKernel(kernel); })
      ->setEnabled(!session_->nodesOf(kernel).isEmpty());
  menu.addSeparator();
  menu.addActions(kernels_table_->actions());  // Copy, Export as CSV…
  menu.exec(kernels_table_->viewport()->mapToGlobal(at));
}

void CompiledModelPanel::setRunning(bool running) {
  run_button_->setEnabled(!running && session_->model());
  cancel_button_->setEnabled(running);
  progress_->setVisible(running);
  if (running) progress_->setValue(0);
}

void CompiledModelPanel::setRunProgress(int percent, const QString& stage) {
  progress_->setValue(percent);
  progress_->setFormat(stage.isEmpty() ? QStringLiteral("%p %") : stage);
}

void CompiledModelPanel::setRunText(const QString& text) {
  run_text_->setText(text);
  run_text_->setVisible(!text.isEmpty());
}

}  // namespace exportlens::ui
