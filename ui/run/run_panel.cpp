#include "ui/run/run_panel.h"

#include <QAction>
#include <QButtonGroup>
#include <QCheckBox>
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
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <climits>

#include "engine/runtime/program_runner.h"

#include "ui/core/data_table.h"
#include "ui/core/program_model.h"
#include "ui/core/selection_link.h"
#include "ui/run/memory_timeline_view.h"
#include "ui/run/node_times_model.h"
#include "ui/run/run_outputs_model.h"
#include "ui/run/run_worker.h"

namespace exportlens::ui {
namespace {

constexpr char kSeedKey[] = "run/seed";
constexpr char kDeviceKey[] = "run/device";
constexpr char kFileKey[] = "run/inputsFile";
constexpr char kFromFileKey[] = "run/fromFile";
constexpr char kPrecisionKey[] = "run/precision";
constexpr char kCompareKey[] = "run/compareCpu";
constexpr char kCudaGraphKey[] = "run/cudaGraph";
constexpr char kWarmupKey[] = "run/warmup";
constexpr char kRepeatKey[] = "run/repeat";

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
  remembered.precision = runtime::parse_precision(store.value(kPrecisionKey, QStringLiteral("fp32")).toString().toStdString())
                             .value_or(runtime::Precision::AsExported);
  remembered.compareCpu = store.value(kCompareKey, true).toBool();
  remembered.cudaGraph = store.value(kCudaGraphKey, true).toBool();
  remembered.warmup = store.value(kWarmupKey, 0).toInt();
  remembered.repeat = store.value(kRepeatKey, 1).toInt();
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
  precision_ = new QComboBox(this);
  precision_->setObjectName(QStringLiteral("runPrecision"));
  precision_->addItem(tr("fp32 (as exported)"), QStringLiteral("fp32"));
  precision_->addItem(tr("bf16"), QStringLiteral("bf16"));
  precision_->addItem(tr("fp16"), QStringLiteral("fp16"));
  precision_->setToolTip(tr("bf16 / fp16 cast the floating parameters, buffers, constants and inputs "
                            "(as ep.module().to(dtype)); the run says what was cast"));
  compare_ = new QCheckBox(tr("Compare with CPU"), this);
  compare_->setObjectName(QStringLiteral("runCompare"));
  compare_->setToolTip(tr("Also run on the CPU as exported, on the same inputs, and compare every output: element-wise "
                          "max |Δ|, max relative error, allclose with torch.testing's tolerances (always on for GPU runs)"));
  cuda_graph_ = new QCheckBox(tr("CUDA graph"), this);
  cuda_graph_->setObjectName(QStringLiteral("runCudaGraph"));
  cuda_graph_->setToolTip(tr("GPU runs: capture the whole program as one CUDA graph and time its replay against eager runs"));
  warmup_ = new QSpinBox(this);
  warmup_->setObjectName(QStringLiteral("runWarmup"));
  warmup_->setRange(0, 1000);
  warmup_->setToolTip(tr("Runs before the timed ones (the outputs are always the first run's)"));
  repeat_ = new QSpinBox(this);
  repeat_->setObjectName(QStringLiteral("runRepeat"));
  repeat_->setRange(1, 1000);
  repeat_->setToolTip(tr("Timed runs: the times shown are the median run's"));
  details_ = new QLabel(this);
  details_->setObjectName(QStringLiteral("runDetails"));
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->hide();
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
  run_row->addWidget(new QLabel(tr("Precision:"), this));
  run_row->addWidget(precision_);
  run_row->addWidget(compare_);
  run_row->addWidget(cuda_graph_);
  run_row->addWidget(new QLabel(tr("Warm-up:"), this));
  run_row->addWidget(warmup_);
  run_row->addWidget(new QLabel(tr("Repeat:"), this));
  run_row->addWidget(repeat_);
  run_row->addSpacing(8);
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
  memory_ = new MemoryTimelineView(this);
  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("runResultTabs"));
  tabs_->setDocumentMode(true);
  tabs_->addTab(times_table_, tr("Node times"));
  tabs_->addTab(memory_, tr("Memory"));
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(outputs_table_);
  splitter->addWidget(tabs_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->setSpacing(3);
  layout->addLayout(inputs_row);
  layout->addLayout(run_row);
  layout->addWidget(message_);
  layout->addWidget(details_);
  layout->addWidget(splitter, 1);

  connect(random_, &QRadioButton::toggled, this, &RunPanel::updateInputsMode);
  connect(browse_, &QPushButton::clicked, this, &RunPanel::chooseInputsFile);
  connect(run_, &QPushButton::clicked, this, &RunPanel::runNow);
  connect(cancel_, &QPushButton::clicked, worker_, &RunWorker::cancel);
  connect(device_, &QComboBox::currentIndexChanged, this, &RunPanel::updateDeviceNote);
  connect(memory_, &MemoryTimelineView::nodeActivated, this, &RunPanel::nodeActivated);
  for (QTableView* table : {outputs_table_, times_table_})
    on_current_node(table, this, [this](const QString& node) { emit nodeActivated(node); });
}

void RunPanel::setProgram(const LoadedProgramPtr& program) {
  worker_->cancel();  // a run of the previous program would name the wrong nodes
  program_ = program;
  last_ = RunOutcome();
  outputs_->setOutcome(program, last_);
  times_->setOutcome(program, last_);
  memory_->setOutcome(last_);
  details_->hide();
  publishRunFacts();
  run_->setEnabled(program != nullptr && !worker_->isBusy());
}

RunSettings RunPanel::settings() const {
  RunSettings s;
  s.inputs = from_file_->isChecked() ? RunSettings::Inputs::File : RunSettings::Inputs::Random;
  s.seed = static_cast<quint64>(seed_->value());
  s.inputsFile = file_->text().trimmed();
  s.device = device_->currentData().toString();
  s.precision = runtime::parse_precision(precision_->currentData().toString().toStdString()).value_or(runtime::Precision::AsExported);
  s.compareCpu = compare_->isChecked();
  s.cudaGraph = cuda_graph_->isChecked();
  s.warmup = warmup_->value();
  s.repeat = repeat_->value();
  return s;
}

void RunPanel::setSettings(const RunSettings& s) {
  (s.inputs == RunSettings::Inputs::File ? from_file_ : random_)->setChecked(true);
  seed_->setValue(static_cast<int>(std::min<quint64>(s.seed, INT_MAX)));
  file_->setText(s.inputsFile);
  const int device = device_->findData(s.device);
  device_->setCurrentIndex(device < 0 ? 0 : device);
  const char* precision = s.precision == runtime::Precision::BFloat16 ? "bf16"
                          : s.precision == runtime::Precision::Float16 ? "fp16"
                          : s.precision == runtime::Precision::Float64 ? "fp64"
                                                                       : "fp32";
  precision_->setCurrentIndex(std::max(0, precision_->findData(QString::fromLatin1(precision))));
  compare_->setChecked(s.compareCpu);
  cuda_graph_->setChecked(s.cudaGraph);
  warmup_->setValue(s.warmup);
  repeat_->setValue(s.repeat);
  updateInputsMode();
  updateDeviceNote();
}

QString RunPanel::messageText() const { return message_->text(); }

void RunPanel::runOn(const QString& device) {
  const int i = device_->findData(device);
  if (i >= 0) device_->setCurrentIndex(i);
  runNow();
}

void RunPanel::showSelectedNode(const QString& name) { memory_->setSelectedNode(name); }

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
  store.setValue(kPrecisionKey, precision_->currentData());
  store.setValue(kCompareKey, s.compareCpu);
  store.setValue(kCudaGraphKey, s.cudaGraph);
  store.setValue(kWarmupKey, s.warmup);
  store.setValue(kRepeatKey, s.repeat);
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
    QString why, fix;
    const bool ok = RunWorker::deviceAvailable(device_->itemData(i).toString(), &why, &fix);
    device_->setItemData(i, ok ? QString() : tr("Not available here: %1 (%2)").arg(why, fix), Qt::ToolTipRole);
  }
  const bool gpu = device_->currentData().toString() != QLatin1String("cpu");
  cuda_graph_->setEnabled(gpu);
  compare_->setEnabled(!gpu);  // a GPU run always compares
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
  memory_->setOutcome(outcome);
  outputs_table_->resizeColumnsToContents();
  times_table_->resizeColumnsToContents();
  const runtime::RunReport& report = *outcome.report;
  QString text = tr("Ran on %1 in %2 ms (%3; %4 nodes timed; %5 s in all).")
                     .arg(device_display_name(QString::fromStdString(report.device)))
                     .arg(report.total_ms, 0, 'f', 3)
                     .arg(QString::fromStdString(report.time_source))
                     .arg(report.node_times.size())
                     .arg(outcome.seconds, 0, 'f', 2);
  showMessage(text, false);
  showDetails(outcome);
  if (model_) model_->setRunTimes(times_->times());
  publishRunFacts();
}

QString RunPanel::detailsText() const { return details_->isVisible() ? details_->text() : QString(); }

void RunPanel::showDetails(const RunOutcome& outcome) {
  const runtime::RunReport& r = *outcome.report;
  QStringList lines;
  if (r.repeat > 1 || r.warmup > 0)
    lines << tr("Median of %1 timed runs after %2 warm-up (host %3 ms).").arg(r.repeat).arg(r.warmup).arg(r.host_total_ms, 0, 'f', 3);
  if (!r.cast.precision.empty()) lines << QString::fromStdString(r.cast.text()) + QLatin1Char('.');
  if (r.comparison) {
    const auto& c = *r.comparison;
    int close = 0;
    for (const auto& o : c.outputs) close += o.close ? 1 : 0;
    lines << (c.all_close ? tr("All %1 outputs are close to the CPU's (%2, %3 ms).")
                                .arg(c.outputs.size())
                                .arg(QString::fromStdString(c.reference_precision))
                                .arg(c.reference_ms, 0, 'f', 3)
                          : tr("%1 of %2 outputs are NOT close to the CPU's (%3).")
                                .arg(c.outputs.size() - close)
                                .arg(c.outputs.size())
                                .arg(QString::fromStdString(c.reference_precision)));
  }
  if (r.cuda_graph) {
    const auto& g = *r.cuda_graph;
    lines << (g.captured ? tr("CUDA graph: replay %1 ms vs eager %2 ms per run (%3× faster; median of %4).")
                               .arg(g.replay_ms, 0, 'f', 3)
                               .arg(g.eager_ms, 0, 'f', 3)
                               .arg(g.replay_ms > 0 ? g.eager_ms / g.replay_ms : 0.0, 0, 'f', 2)
                               .arg(g.replays)
                         : tr("CUDA graph: not captured: %1").arg(QString::fromStdString(g.why)));
  }
  if (r.peak_bytes) lines << tr("Peak memory %1.").arg(byte_text(*r.peak_bytes));
  details_->setText(lines.join(QLatin1Char(' ')));
  details_->setStyleSheet(r.comparison && !r.comparison->all_close ? QStringLiteral("color: #d0453a;") : QString());
  details_->setVisible(!lines.isEmpty());
}

void RunPanel::publishRunFacts() {
  NodeRunFactsMap facts;
  if (last_.report) {
    double sum = 0;
    for (const auto& t : last_.report->node_times) sum += t.milliseconds;
    const QString device = device_display_name(QString::fromStdString(last_.report->device));
    const QString clock = QString::fromStdString(last_.report->time_source);
    for (const auto& t : last_.report->node_times)
      facts.insert(QString::fromStdString(t.node), {t, sum > 0 ? t.milliseconds / sum : 0.0, device, clock});
  }
  emit runFactsChanged(facts);
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
