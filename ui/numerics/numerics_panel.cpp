#include "ui/numerics/numerics_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "engine/numerics/node_data_json.h"
#include "ui/core/data_table.h"
#include "ui/core/node_name_role.h"
#include "ui/numerics/numerics_overlay.h"
#include "ui/numerics/numerics_table_model.h"
#include "ui/numerics/numerics_worker.h"

namespace exportlens::ui {
namespace {

using Way = NumericsSettings::Way;

QString node_line(const numerics::NumericsReport& r, std::optional<size_t> i) {
  if (!i || *i >= r.nodes.size()) return QObject::tr("none");
  const auto& n = r.nodes[*i];
  return QStringLiteral("%1 (%2)").arg(QString::fromStdString(n.node), QString::fromStdString(n.op));
}

bool write_file(const QString& path, const std::string& text, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.commit()) {
    if (error) *error = QObject::tr("%1: cannot write it").arg(path);
    return false;
  }
  return true;
}

}  // namespace

NumericsPanel::NumericsPanel(NumericsWorker* worker, NumericsOverlay* overlay, QWidget* parent)
    : QWidget(parent), worker_(worker), overlay_(overlay), way_(new QComboBox(this)), device_(new QComboBox(this)),
      metric_(new QComboBox(this)), inputs_(new QLineEdit(this)), run_(new QPushButton(tr("Compare"), this)),
      cancel_(new QPushButton(tr("Cancel"), this)), progress_(new QProgressBar(this)), verdict_(new QLabel(this)),
      model_(new NumericsTableModel(this)), sorted_(new QSortFilterProxyModel(this)),
      table_(nullptr), colour_(new QCheckBox(tr("Colour the graph by"), this)), low_(new QLineEdit(this)),
      high_(new QLineEdit(this)), overlay_title_(new QLabel(this)) {
  setObjectName(QStringLiteral("numericsPanel"));
  for (Way w : {Way::BFloat16, Way::Float16, Way::Float64, Way::Core, Way::Functional, Way::Device})
    way_->addItem(NumericsSettings::wayTitle(w), int(w));
  way_->setToolTip(tr("B: the program in another dtype, lowered to another IR level, or as exported on another device.\n"
                      "A is always the program as exported, on the CPU."));
  device_->addItem(tr("CPU"), QStringLiteral("cpu"));
  device_->addItem(tr("GPU (CUDA)"), QStringLiteral("cuda"));
  for (const std::string& m : numerics::metric_names()) metric_->addItem(QString::fromStdString(m), QString::fromStdString(m));
  inputs_->setPlaceholderText(tr("random inputs from the signature"));
  inputs_->setToolTip(tr("A torch.save'd tuple of the inputs (run --save-inputs writes one); empty: random inputs"));
  auto* browse = new QPushButton(tr("Inputs…"), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Inputs file"), {}, tr("torch.save files (*.pt *.pth);;All files (*)"));
    if (!path.isEmpty()) inputs_->setText(path);
  });

  auto* choose = new QHBoxLayout;
  choose->addWidget(new QLabel(tr("A: as exported on the CPU   B:"), this));
  choose->addWidget(way_);
  choose->addWidget(new QLabel(tr("on"), this));
  choose->addWidget(device_);
  choose->addWidget(new QLabel(tr("Metric:"), this));
  choose->addWidget(metric_);
  choose->addWidget(inputs_, 1);
  choose->addWidget(browse);
  choose->addWidget(run_);
  choose->addWidget(cancel_);

  progress_->setRange(0, 100);
  progress_->setTextVisible(true);
  progress_->hide();
  cancel_->setEnabled(false);
  verdict_->setWordWrap(true);
  verdict_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);  // the verdict before the table
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  verdict_->setText(tr("Compare runs the program as exported and B side by side, node by node: which node first "
                       "diverges, whether it introduced the error or inherited it, where a NaN was first made."));

  sorted_->setSourceModel(model_);
  sorted_->setSortRole(NumericsTableModel::SortRole);
  table_ = make_data_table(sorted_, QStringLiteral("numericsTable"), this);
  table_->setSortingEnabled(true);
  table_->sortByColumn(NumericsTableModel::Introduced, Qt::DescendingOrder);

  low_->setValidator(new QDoubleValidator(this));
  high_->setValidator(new QDoubleValidator(this));
  low_->setMaximumWidth(90);
  high_->setMaximumWidth(90);
  low_->setToolTip(tr("No tint at or below this value"));
  high_->setToolTip(tr("Full tint at or above this value"));
  colour_->setChecked(true);
  auto* export_data = new QPushButton(tr("Export Node Data…"), this);
  auto* import_data = new QPushButton(tr("Import Node Data…"), this);
  export_data->setToolTip(tr("Write the figures as Model Explorer node data (JSON)"));
  import_data->setToolTip(tr("Colour the graph by per-node values from a file in Model Explorer's node-data format"));
  auto* legend = new QHBoxLayout;
  legend->addWidget(colour_);
  legend->addWidget(overlay_title_);
  legend->addWidget(new QLabel(tr("from"), this));
  legend->addWidget(low_);
  legend->addWidget(new QLabel(tr("to"), this));
  legend->addWidget(high_);
  legend->addStretch(1);
  legend->addWidget(export_data);
  legend->addWidget(import_data);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(choose);
  layout->addWidget(progress_);
  layout->addWidget(verdict_);
  layout->addWidget(table_, 1);
  layout->addLayout(legend);

  connect(run_, &QPushButton::clicked, this, &NumericsPanel::runNow);
  connect(cancel_, &QPushButton::clicked, worker_, &NumericsWorker::cancel);
  connect(worker_, &NumericsWorker::progress, this, [this](int percent, const QString& stage) {
    progress_->setValue(percent);
    progress_->setFormat(stage + QStringLiteral(" %p%"));
  });
  connect(worker_, &NumericsWorker::finished, this, &NumericsPanel::onFinished);
  connect(worker_, &NumericsWorker::cancelled, this, [this] {
    setBusy(false);
    verdict_->setText(tr("Cancelled."));
  });
  connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
    model_->setMetric(metric_->currentData().toString());
    showOverlay();
  });
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    emit nodeActivated(index.data(NodeNameRole).toString());
  });
  connect(colour_, &QCheckBox::toggled, this, [this](bool on) {
    if (on) showOverlay();
    else overlay_->clear();
  });
  connect(low_, &QLineEdit::editingFinished, this, &NumericsPanel::thresholdsEdited);
  connect(high_, &QLineEdit::editingFinished, this, &NumericsPanel::thresholdsEdited);
  connect(overlay_, &NumericsOverlay::changed, this, &NumericsPanel::overlayChanged);
  // Either figure ExportLens computes: the numerical error, or the last run's times.
  auto* export_menu = new QMenu(export_data);
  auto export_as = [this](const QString& suggested, auto write) {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Node Data"), suggested, tr("Node data (*.json)"));
    QString error;
    if (!path.isEmpty() && !(this->*write)(path, &error)) emit statusMessage(error);
  };
  export_menu->addAction(tr("Numerical Error…"), this,
                         [export_as] { export_as(QStringLiteral("numerics_node_data.json"), &NumericsPanel::exportNodeData); });
  export_menu->addAction(tr("Run Times…"), this,
                         [export_as] { export_as(QStringLiteral("run_times_node_data.json"), &NumericsPanel::exportRunTimes); });
  export_data->setMenu(export_menu);
  connect(import_data, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Node Data"), {}, tr("Node data (*.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !importNodeData(path, &error)) emit statusMessage(error);
  });
}

void NumericsPanel::setProgram(const LoadedProgramPtr& program) {
  if (program == program_) return;
  worker_->cancel();
  program_ = program;
  result_.reset();
  model_->setResult(nullptr);
  overlay_->clear();
  run_->setEnabled(program_ != nullptr);
}

NumericsSettings NumericsPanel::settings() const {
  NumericsSettings s;
  s.way = static_cast<Way>(way_->currentData().toInt());
  s.device = device_->currentData().toString();
  s.metric = metric_->currentData().toString();
  s.inputsFile = inputs_->text().trimmed();
  return s;
}

void NumericsPanel::setSettings(const NumericsSettings& s) {
  way_->setCurrentIndex(way_->findData(int(s.way)));
  device_->setCurrentIndex(device_->findData(s.device));
  metric_->setCurrentIndex(metric_->findData(s.metric));
  inputs_->setText(s.inputsFile);
}

void NumericsPanel::runNow() {
  setBusy(true);
  verdict_->setText(tr("Comparing…"));
  worker_->start(program_, settings());
}

void NumericsPanel::setBusy(bool busy) {
  run_->setEnabled(!busy && program_);
  cancel_->setEnabled(busy);
  progress_->setVisible(busy);
  if (busy) progress_->setValue(0);
}

void NumericsPanel::onFinished(const NumericsOutcome& outcome) {
  setBusy(false);
  if (!outcome.result) {
    verdict_->setText(tr("Not compared: %1").arg(outcome.error));
    emit statusMessage(tr("Numerics: %1").arg(outcome.error));
    return;
  }
  result_ = outcome.result;
  model_->setResult(result_);
  table_->sortByColumn(table_->horizontalHeader()->sortIndicatorSection(), table_->horizontalHeader()->sortIndicatorOrder());
  table_->resizeColumnsToContents();
  verdict_->setText(verdictText());
  // Every line of the verdict stays in view above the table.
  verdict_->setMinimumHeight(verdict_->fontMetrics().lineSpacing() * (int(verdictText().count('\n')) + 1) + 4);
  showOverlay();
  emit statusMessage(tr("Numerics: %1 nodes compared in %2 s").arg(result_->report.nodes.size()).arg(result_->report.seconds, 0, 'f', 2));
}

QString NumericsPanel::verdictText() const {
  if (!result_) return {};
  const numerics::NumericsReport& r = result_->report;
  QStringList lines;
  lines << tr("A: %1   B: %2").arg(QString::fromStdString(r.a_label), QString::fromStdString(r.b_label));
  lines << (r.all_outputs_close ? tr("The outputs agree within torch.testing's tolerance.")
                                : tr("The outputs differ beyond torch.testing's tolerance."));
  lines << tr("First node beyond tolerance: %1.   First to introduce error beyond tolerance: %2.")
               .arg(node_line(r, r.first_divergent), node_line(r, r.first_introducing));
  if (r.first_nonfinite_b) lines << tr("NaN/Inf first made in B at %1.").arg(node_line(r, r.first_nonfinite_b));
  if (r.first_nonfinite_a) lines << tr("NaN/Inf first made in A at %1.").arg(node_line(r, r.first_nonfinite_a));
  lines << tr("%1 nodes compared, %2 skipped, %3 s.").arg(r.nodes.size()).arg(r.skipped).arg(r.seconds, 0, 'f', 2);
  return lines.join('\n');
}

void NumericsPanel::showOverlay() {
  if (!result_ || !colour_->isChecked()) return;
  const std::string metric = metric_->currentData().toString().toStdString();
  QHash<QString, double> values;
  QHash<QString, QString> labels;
  for (const auto& n : result_->report.nodes) {
    const QString node = QString::fromStdString(n.node);
    const double v = n.introduced ? n.introduced->metric(metric) : n.total.metric(metric);
    values.insert(node, v);
    labels.insert(node, tr("%1 %2 %3 (total %4)")
                            .arg(n.introduced ? tr("introduced") : tr("total"), QString::fromStdString(metric),
                                 NumericsTableModel::metricText(QString::fromStdString(metric), v),
                                 NumericsTableModel::metricText(QString::fromStdString(metric), n.total.metric(metric))));
  }
  overlay_->show(tr("%1 introduced").arg(QString::fromStdString(metric)), values, numerics::larger_is_worse(metric), labels);
}

void NumericsPanel::thresholdsEdited() {
  bool ok_low = false, ok_high = false;
  const double low = QLocale().toDouble(low_->text(), &ok_low), high = QLocale().toDouble(high_->text(), &ok_high);
  if (ok_low && ok_high && overlay_->isShown()) overlay_->setRange(low, high);
}

void NumericsPanel::overlayChanged() {
  overlay_title_->setText(overlay_->isShown() ? overlay_->title() : tr("(nothing shown)"));
  overlay_title_->setMinimumWidth(overlay_title_->fontMetrics().horizontalAdvance(overlay_title_->text()) + 8);
  low_->setEnabled(overlay_->isShown());
  high_->setEnabled(overlay_->isShown());
  if (!overlay_->isShown()) return;
  low_->setText(QLocale().toString(overlay_->low(), 'g', 3));
  high_->setText(QLocale().toString(overlay_->high(), 'g', 3));
}

bool NumericsPanel::exportNodeData(const QString& path, QString* error) const {
  if (!result_) {
    if (error) *error = tr("nothing to export: compare first");
    return false;
  }
  return write_file(path, numerics::write_node_data(numerics::node_data_of(result_->report, metric_->currentData().toString().toStdString())),
                    error);
}

bool NumericsPanel::exportRunTimes(const QString& path, QString* error) const {
  const QHash<QString, double> times = run_times_ ? run_times_() : QHash<QString, double>{};
  if (times.isEmpty()) {
    if (error) *error = tr("no run times to export: run the program first (Run dock)");
    return false;
  }
  numerics::NodeData d;
  d.name = "run time (ms)";
  for (auto it = times.cbegin(); it != times.cend(); ++it) d.values[it.key().toStdString()] = it.value();
  d.gradient = {{0, "#e3f2fd"}, {1, "#ef6c00"}};
  return write_file(path, numerics::write_node_data(d), error);
}

bool NumericsPanel::importNodeData(const QString& path, QString* error) {
  QFile file(path);
  constexpr qint64 kMaxBytes = qint64(256) << 20;
  if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxBytes) {
    if (error) *error = file.size() > kMaxBytes ? tr("%1: over 256 MiB, not node data").arg(path) : tr("%1: cannot read it").arg(path);
    return false;
  }
  std::vector<numerics::NodeData> graphs;
  try {
    const QByteArray bytes = file.readAll();
    graphs = numerics::read_node_data(bytes.toStdString(), QFile::encodeName(path).toStdString());
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  // The graph whose node names this program has most of.
  const numerics::NodeData* best = nullptr;
  int best_matches = -1;
  for (const auto& g : graphs) {
    int matches = 0;
    for (const auto& [node, value] : g.values) matches += program_ && program_->program->graph().find(node) ? 1 : 0;
    if (matches > best_matches) best = &g, best_matches = matches;
  }
  if (!best || best_matches <= 0) {
    if (error) *error = tr("%1: no node of this program has a value in it").arg(path);
    return false;
  }
  QHash<QString, double> values;
  for (const auto& [node, value] : best->values) values.insert(QString::fromStdString(node), value);
  colour_->blockSignals(true);
  colour_->setChecked(true);
  colour_->blockSignals(false);
  overlay_->show(QString::fromStdString(best->name.empty() ? "node data" : best->name), values, true);
  emit statusMessage(tr("Node data: %1 of the program's nodes coloured from %2").arg(best_matches).arg(path));
  return true;
}

}  // namespace exportlens::ui
