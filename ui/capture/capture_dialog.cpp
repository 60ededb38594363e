#include "ui/capture/capture_dialog.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "engine/capture/capture_folder.h"
#include "ui/capture/capture_process.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {
namespace {

constexpr char kScriptKey[] = "capture/lastScript";
constexpr char kPythonKey[] = "capture/python";

std::filesystem::path path_of(const QString& text) { return QFile::encodeName(text).toStdString(); }

// A new folder under the user's cache for each capture: captures are kept
// (they are what the window shows) but never written beside the user's code.
QString fresh_folder(const QString& script) {
  const QString root = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/captures");
  return root + QLatin1Char('/') + QFileInfo(script).completeBaseName() + QLatin1Char('-') +
         QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
}

QLineEdit* with_browse(QWidget* parent, QFormLayout* form, const QString& label, const QString& object,
                       std::function<void(QLineEdit*)> browse) {
  auto* edit = new QLineEdit(parent);
  edit->setObjectName(object);
  auto* row = new QHBoxLayout;
  row->addWidget(edit, 1);
  if (browse) {
    auto* button = new QPushButton(QObject::tr("Browse…"), parent);
    QObject::connect(button, &QPushButton::clicked, parent, [edit, browse] { browse(edit); });
    row->addWidget(button);
  }
  form->addRow(label, row);
  return edit;
}

}  // namespace

CaptureDialog::CaptureDialog(QWidget* parent) : QDialog(parent), process_(new CaptureProcess(this)) {
  setObjectName(QStringLiteral("captureDialog"));
  setWindowTitle(tr("Capture Python Export"));
  auto* intro = new QLabel(tr("Runs your script in your own Python and records every torch.export call it makes, "
                              "failed or not: the error, the guards and the user lines behind them, the spec, and "
                              "the program. The script runs exactly as it would without ExportLens."),
                           this);
  intro->setWordWrap(true);
  auto* form = new QFormLayout;
  QSettings settings;
  script_ = with_browse(this, form, tr("Script:"), QStringLiteral("captureScript"), [this](QLineEdit* edit) {
    const QString path = QFileDialog::getOpenFileName(this, tr("Python script"), QFileInfo(edit->text()).absolutePath(),
                                                      tr("Python scripts (*.py);;All files (*)"));
    if (!path.isEmpty()) edit->setText(path);
  });
  script_->setText(settings.value(kScriptKey).toString());
  python_ = with_browse(this, form, tr("Interpreter:"), QStringLiteral("capturePython"), [this](QLineEdit* edit) {
    const QString path = QFileDialog::getOpenFileName(this, tr("Python interpreter"), QFileInfo(edit->text()).absolutePath());
    if (!path.isEmpty()) edit->setText(path);
  });
  python_->setText(settings.value(kPythonKey).toString());
  python_->setPlaceholderText(qs(capture::find_python("")).isEmpty() ? tr("python3 on PATH (none found)")
                                                                     : qs(capture::find_python("")));
  arguments_ = with_browse(this, form, tr("Arguments:"), QStringLiteral("captureArguments"), nullptr);
  arguments_->setPlaceholderText(tr("the script's own arguments, as on a command line"));
  folder_ = with_browse(this, form, tr("Capture into:"), QStringLiteral("captureFolder"), [this](QLineEdit* edit) {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Capture folder"), edit->text());
    if (!dir.isEmpty()) edit->setText(dir);
  });
  folder_->setPlaceholderText(tr("a new folder in ExportLens' cache"));
  draft_ = new QCheckBox(tr("Also run each failed call through draft_export (a draft program and its report)"), this);
  draft_->setObjectName(QStringLiteral("captureDraft"));
  draft_->setChecked(true);
  form->addRow(QString(), draft_);

  output_ = new QPlainTextEdit(this);
  output_->setObjectName(QStringLiteral("captureOutput"));
  output_->setReadOnly(true);
  output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  output_->setMaximumBlockCount(20000);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("captureStatus"));
  status_->setWordWrap(true);

  auto* buttons = new QDialogButtonBox(this);
  run_ = buttons->addButton(tr("Capture"), QDialogButtonBox::AcceptRole);
  run_->setObjectName(QStringLiteral("captureRun"));
  stop_ = buttons->addButton(tr("Cancel"), QDialogButtonBox::RejectRole);
  stop_->setObjectName(QStringLiteral("captureCancel"));
  connect(run_, &QPushButton::clicked, this, &CaptureDialog::start);
  connect(stop_, &QPushButton::clicked, this, [this] {
    if (isRunning()) cancel();
    else reject();
  });

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(form);
  layout->addWidget(output_, 1);
  layout->addWidget(status_);
  layout->addWidget(buttons);
  resize(760, 560);

  connect(process_, &CaptureProcess::started, this, [this](const QString& command) {
    output_->appendPlainText(QStringLiteral("$ ") + command);
  });
  connect(process_, &CaptureProcess::output, this, [this](const QString& text) {
    output_->moveCursor(QTextCursor::End);
    output_->insertPlainText(text);
    output_->ensureCursorVisible();
  });
  connect(process_, &CaptureProcess::failed, this, [this](const QString& message) {
    setRunning(false);
    status_->setText(tr("Could not capture: %1").arg(message));
  });
  connect(process_, &CaptureProcess::finished, this, [this](int exit, bool cancelled) {
    setRunning(false);
    const QString folder = process_->folder();
    const bool written = capture::is_capture(path_of(folder));
    status_->setText(cancelled ? tr("Cancelled; what was recorded so far is in %1").arg(folder)
                     : written ? tr("The script exited with %1; the capture is in %2").arg(exit).arg(folder)
                               : tr("The script exited with %1 and left no capture: is torch importable by "
                                    "this interpreter?")
                                     .arg(exit));
    if (written) emit captured(folder, exit);
  });
}

void CaptureDialog::setRequest(const capture::CaptureRequest& request) {
  script_->setText(QFile::decodeName(request.script.string().c_str()));
  python_->setText(qs(request.python));
  QStringList args;
  for (const std::string& a : request.script_args) args << qs(a);
  arguments_->setText(args.join(QLatin1Char(' ')));
  folder_->setText(QFile::decodeName(request.output_dir.string().c_str()));
  draft_->setChecked(request.draft);
  spec_override_ = request.spec_override;
}

capture::CaptureRequest CaptureDialog::request() const {
  capture::CaptureRequest r;
  r.script = path_of(script_->text().trimmed());
  r.python = python_->text().trimmed().toStdString();
  for (const QString& a : QProcess::splitCommand(arguments_->text())) r.script_args.push_back(a.toStdString());
  const QString folder = folder_->text().trimmed();
  r.output_dir = path_of(folder.isEmpty() ? fresh_folder(script_->text()) : folder);
  r.draft = draft_->isChecked();
  r.spec_override = spec_override_;
  return r;
}

void CaptureDialog::start() {
  if (isRunning()) return;
  const capture::CaptureRequest r = request();
  QSettings settings;
  settings.setValue(kScriptKey, script_->text());
  settings.setValue(kPythonKey, python_->text());
  QDir().mkpath(QFile::decodeName(r.output_dir.parent_path().string().c_str()));
  output_->clear();
  status_->setText(tr("Running %1…").arg(QFileInfo(script_->text()).fileName()));
  setRunning(true);
  process_->start(r);
}

void CaptureDialog::cancel() { process_->cancel(); }

bool CaptureDialog::isRunning() const { return process_->isRunning(); }

void CaptureDialog::setRunning(bool running) {
  run_->setEnabled(!running);
  stop_->setText(running ? tr("Cancel") : tr("Close"));
  for (QWidget* w : {static_cast<QWidget*>(script_), static_cast<QWidget*>(python_), static_cast<QWidget*>(arguments_),
                     static_cast<QWidget*>(folder_), static_cast<QWidget*>(draft_)})
    w->setEnabled(!running);
}

}  // namespace exportlens::ui
