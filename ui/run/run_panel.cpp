#include "ui/run/run_panel.h"

#include <QAction>
#include <QButtonGroup>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <climits>

#include "engine/runtime/program_runner.h"

#include "ui/core/data_table.h"
#include "ui/core/program_model.h"
#include "ui/core/selection_link.h"
#include "ui/run/node_times_model.h"
#include "ui/run/run_outputs_model.h"
#include "ui/run/run_worker.h"

namespace exportlens::ui {
namespace {

constexpr char kSeedKey[] = "run/seed";
constexpr char kDeviceKey[] = "run/device";
constexpr char kFileKey[] = "run/inputsFile";
constexpr char kFromFileKey[] = "run/fromFile";

}  // namespace

RunPanel::RunPanel(RunWorker* worker, QWidget* parent)
    : QWidget(parent),
      worker_(worker),
      outputs_(new RunOutputsModel(this)),
      times_(new NodeTimesModel(this)),
      sorted_times_(new QSortFilterProxyModel(this)) {
  sorted_times_->setSourceModel(times_);
  sorted_times_->setSortRole(NodeTimesModel::SortRole);
  buildControls();
  connect(worker_, &RunWorker::started, this, &RunPanel::showStarted);
  connect(worker_, &RunWorker::progress, this, &RunPanel::showProgress);
  connect(worker_, &RunWorker::finished, this, &RunPanel::showOutcome);
  connect(worker_, &RunWorker::cancelled, this, &RunPanel::showCancelled);
  const QSettings store;
  RunSettings remembered;
  remembered.seed = store.value(kSeedKey, 0).toULongLong();
  remembered.device = store.value(kDeviceKey, QStringLiteral("cpu")).toString();
  remembered.inputsFile = store.value(kFileKey).toString();
  remembered.inputs = store.value(kFromFileKey, false).toBool() ? RunSettings::Inputs::File : RunSettings::Inputs::Random;
  setSettings(remembered);
  showMessage(tr("Run the program on random inputs made from its signature, or on inputs from a file."), false);
}

void RunPanel::buildControls() {
  random_ = new QRadioButton(tr("Random, seed"), this);
  from_file_ = new QRadioButton(tr("From file"), this);
  auto* group = new QButtonGroup(this);
  group->addButton(random_);
  group->addButton(from_file_);
  seed_ = new QSpinBox(this);
  seed_->setObjectName(QStringLiteral("runSeed"));
  seed_->setRange(0, INT_MAX);
  seed_->setToolTip(tr("torch.manual_seed for the random inputs (sizes are the example sizes)"));
  file_ = new QLineEdit(this);
  file_->setObjectName(QStringLiteral("runInputsFile"));
  file_->setPlaceholderText(tr("inputs.pt: torch.save((x, y, …), 'inputs.pt')"));
  browse_ = new QPushButton(tr("…"), this);
  browse_->setToolTip(tr("Choose a torch.save'd tuple of the inputs"));
  device_ = new QComboBox(this);
  device_->setObjectName(QStringLiteral("runDevice"));
  device_->addItem(tr("CPU"), QStringLiteral("cpu"));
  device_->addItem(tr("GPU (CUDA)"), QStringLiteral("cuda"));
  run_ = new QPushButton(QStringLiteral("▶ ") + tr("Run"), this);
  run_->setObjectName(QStringLiteral("runButton"));
  run_->setToolTip(tr("Run the program (Ctrl+R)"));
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName(QStringLiteral("runCancelButton"));
  cancel_->setEnabled(false);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->hide();
  heat_ = new QAction(tr("Run Times on Canvas"), this);
  heat_->setCheckable(true);
  heat_->setChecked(true);
  heat_->setToolTip(tr("Tint the graph's nodes by their run time (the slowest is the strongest)"));
  auto* heat_button = new QToolButton(this);
  heat_button->setDefaultAction(heat_);
  heat_button->setToolButtonStyle(Qt::ToolButtonTextOnly);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("runMessage"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* inputs_row = new QHBoxLayout;
  inputs_row->addWidget(new QLabel(tr("Inputs:"), this));
  inputs_row->addWidget(random_);
  inputs_row->addWidget(seed_);
  inputs_row->addSpacing(12);
  inputs_row->addWidget(from_file_);
  inputs_row->addWidget(file_, 1);
  inputs_row->addWidget(browse_);
  auto* run_row = new QHBoxLayout;
  run_row->addWidget(new QLabel(tr("Device:"), this));
  run_row->addWidget(device_);
  run_row->addWidget(run_);
  run_row->addWidget(cancel_);
  run_row->addWidget(progress_);
  run_row->addStretch(1);
  run_row->addWidget(heat_button);

  outputs_table_ = make_data_table(outputs_, QStringLiteral("runOutputsTable"), this);
  times_table_ = make_data_table(sorted_times_, QStringLiteral("runTimesTable"), this);
  outputs_table_->verticalHeader()->hide();
  times_table_->verticalHeader()->hide();
  times_table_->setSortingEnabled(true);
  times_table_->sortByColumn(NodeTimesModel::Milliseconds, Qt::DescendingOrder);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(outputs_table_);
  splitter->addWidget(times_table_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->setSpacing(3);
  layout->addLayout(inputs_row);
  layout->addLayout(run_row);
  layout->addWidget(message_);
  layout->addWidget(splitter, 1);

  connect(random_, &QRadioButton::toggled, this, &RunPanel::updateInputsMode);
  connect(browse_, &QPushButton::clicked, this, &RunPanel::chooseInputsFile);
  connect(run_, &QPushButton::clicked, this, &RunPanel::runNow);
  connect(cancel_, &QPushButton::clicked, worker_, &RunWorker::cancel);
  connect(device_, &QComboBox::currentIndexChanged, this, &RunPanel::updateDeviceNote);
  for (QTableView* table : {outputs_table_, times_table_})
    on_current_node(table, this, [this](const QString& node) { emit nodeActivated(node); });
}

void RunPanel::setProgram(const LoadedProgramPtr& program) {
  worker_->cancel();  // a run of the previous program would name the wrong nodes
  program_ = program;
  last_ = RunOutcome();
  outputs_->setOutcome(program, last_);
  times_->setOutcome(program, last_);
  run_->setEnabled(program != nullptr && !worker_->isBusy());
}

RunSettings RunPanel::settings() const {
  RunSettings s;
  s.inputs = from_file_->isChecked() ? RunSettings::Inputs::File : RunSettings::Inputs::Random;
  s.seed = static_cast<quint64>(seed_->value());
  s.inputsFile = file_->text().trimmed();
  s.device = device_->currentData().toString();
  return s;
}

void RunPanel::setSettings(const RunSettings& s) {
  (s.inputs == RunSettings::Inputs::File ? from_file_ : random_)->setChecked(true);
  seed_->setValue(static_cast<int>(std::min<quint64>(s.seed, INT_MAX)));
  file_->setText(s.inputsFile);
  const int device = device_->findData(s.device);
  device_->setCurrentIndex(device < 0 ? 0 : device);
  updateInputsMode();
  updateDeviceNote();
}

QString RunPanel::messageText() const { return message_->text(); }

void RunPanel::runNow() {
  remember();
  RunSettings s = settings();
  if (!approveRefusedOps(s)) return;
  worker_->start(program_, s);
}

// A downloaded program may call ops that read files or change process-wide
// state: the runtime refuses them unless the user says yes here.
bool RunPanel::approveRefusedOps(RunSettings& s) {
  if (!program_ || !program_->program) return true;
  const auto refused = runtime::refused_operators(*program_->program);
  if (refused.empty()) return true;
  QStringList lines, ops;
  for (const auto& r : refused) {
    lines << QString::fromStdString(r.str());
    if (!ops.contains(QString::fromStdString(r.op))) ops << QString::fromStdString(r.op);
  }
  const bool yes = approve_ops_ ? approve_ops_(lines)
                                : QMessageBox::warning(this, tr("Run this program?"),
                                                       tr("This program calls operators that do more than compute on "
                                                          "tensors. Run them only if you trust where the file came from."),
                                                       QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
  if (!yes) {
    showMessage(tr("Run refused: %1").arg(lines.join(QStringLiteral("; "))), true);
    return false;
  }
  s.allowedOps = ops;
  return true;
}

void RunPanel::remember() const {
  const RunSettings s = settings();
  QSettings store;
  store.setValue(kSeedKey, s.seed);
  store.setValue(kDeviceKey, s.device);
  store.setValue(kFileKey, s.inputsFile);
  store.setValue(kFromFileKey, s.inputs == RunSettings::Inputs::File);
}

void RunPanel::updateInputsMode() {
  const bool file = from_file_->isChecked();
  seed_->setEnabled(!file);
  file_->setEnabled(file);
  browse_->setEnabled(file);
}

void RunPanel::updateDeviceNote() {
  // The GPU stays offered when it is missing: the run then says why.
  for (int i = 0; i < device_->count(); ++i) {
    QString why;
    const bool ok = RunWorker::deviceAvailable(device_->itemData(i).toString(), &why);
    device_->setItemData(i, ok ? QString() : tr("Not available here: %1").arg(why), Qt::ToolTipRole);
  }
}

void RunPanel::chooseInputsFile() {
  const QString start = file_->text().isEmpty() ? QString() : QFileInfo(file_->text()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Inputs for the run"), start,
                                                    tr("torch.save files (*.pt *.pth);;All files (*)"));
  if (path.isEmpty()) return;
  file_->setText(path);
  from_file_->setChecked(true);
}

void RunPanel::showStarted() {
  run_->setEnabled(false);
  cancel_->setEnabled(true);
  progress_->setValue(0);
  progress_->show();
  showMessage(tr("Running on %1…").arg(device_display_name(settings().device)), false);
}

void RunPanel::showProgress(int percent, const QString& stage) {
  progress_->setValue(percent);
  if (!stage.isEmpty()) showMessage(stage, false);
}

void RunPanel::showIdle() {
  // A refused run (one already running) must not re-enable Run.
  const bool busy = worker_->isBusy();
  run_->setEnabled(program_ != nullptr && !busy);
  cancel_->setEnabled(busy);
  progress_->setVisible(busy);
}

void RunPanel::showOutcome(const RunOutcome& outcome) {
  showIdle();
  if (!outcome.succeeded()) {
    // A refused run (device missing, no inputs) keeps the previous results on screen.
    showMessage(tr("Run failed: %1").arg(outcome.error), true);
    return;
  }
  last_ = outcome;
  outputs_->setOutcome(program_, outcome);
  times_->setOutcome(program_, outcome);
  outputs_table_->resizeColumnsToContents();
  times_table_->resizeColumnsToContents();
  const runtime::RunReport& report = *outcome.report;
  QString text = tr("Ran on %1 in %2 ms (%3 nodes timed; %4 s in all).")
                     .arg(device_display_name(QString::fromStdString(report.device)))
                     .arg(report.total_ms, 0, 'f', 3)
                     .arg(report.node_times.size())
                     .arg(outcome.seconds, 0, 'f', 2);
  if (outcome.reference) text += tr(" CPU reference: %1 ms.").arg(outcome.reference->total_ms, 0, 'f', 3);
  if (!outcome.referenceError.isEmpty()) text += tr(" The CPU reference failed: %1").arg(outcome.referenceError);
  showMessage(text, !outcome.referenceError.isEmpty());
  if (model_) model_->setRunTimes(times_->times());
}

void RunPanel::showCancelled() {
  showIdle();
  showMessage(tr("Run cancelled."), false);
}

void RunPanel::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QStringLiteral("color: #d0453a;") : QString());
}

void RunPanel::follow(ProgramModel* model) {
  model_ = model;
  connect(model, &ProgramModel::programOpened, this, [this, model] { setProgram(model->opened()); });
}

}  // namespace exportlens::ui
