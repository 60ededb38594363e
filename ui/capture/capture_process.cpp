#include "ui/capture/capture_process.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcessEnvironment>
#include <QTimer>

#include "ui/core/qstring_from.h"

namespace exportlens::ui {

CaptureProcess::CaptureProcess(QObject* parent) : QObject(parent), process_(new QProcess(this)) {
  process_->setProcessChannelMode(QProcess::MergedChannels);
  connect(process_, &QProcess::readyRead, this,
          [this] { emit output(QString::fromLocal8Bit(process_->readAll())); });
  connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
    const int exit = status == QProcess::CrashExit ? 128 : code;
    emit finished(exit, cancelled_);
  });
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) emit failed(tr("the interpreter did not start: %1").arg(process_->errorString()));
  });
}

CaptureProcess::~CaptureProcess() {
  if (process_->state() != QProcess::NotRunning) {
    process_->kill();
    process_->waitForFinished(2000);
  }
}

std::filesystem::path CaptureProcess::packageDir() {
  return capture::find_capture_package(QFile::encodeName(QCoreApplication::applicationFilePath()).toStdString());
}

void CaptureProcess::start(capture::CaptureRequest request) {
  if (isRunning()) return;
  if (request.package_dir.empty()) request.package_dir = packageDir();
  capture::CaptureCommand command;
  try {
    command = capture::capture_command(request);
  } catch (const std::exception& e) {
    emit failed(QString::fromUtf8(e.what()));
    return;
  }
  cancelled_ = false;
  folder_ = QFile::decodeName(request.output_dir.string().c_str());
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const auto& [key, value] : command.environment) env.insert(qs(key), qs(value));
  process_->setProcessEnvironment(env);
  process_->setWorkingDirectory(QFile::decodeName(command.working_dir.string().c_str()));
  QStringList arguments;
  for (const std::string& a : command.arguments) arguments << qs(a);
  emit started(qs(command.program) + QLatin1Char(' ') + arguments.join(QLatin1Char(' ')));
  process_->start(qs(command.program), arguments);
}

void CaptureProcess::cancel() {
  if (!isRunning()) return;
  cancelled_ = true;
  process_->terminate();
  QTimer::singleShot(2000, process_, [p = process_] {
    if (p->state() != QProcess::NotRunning) p->kill();
  });
}

bool CaptureProcess::isRunning() const { return process_->state() != QProcess::NotRunning; }

}  // namespace exportlens::ui
