#include "ui/shell/builtin_example.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <memory>

namespace exportlens::ui {
namespace {

QString& configured_path() {
  static QString path;
  return path;
}

// Extracted once per process; removed at exit.
QString extracted_resource() {
  static std::unique_ptr<QTemporaryDir> dir;
  if (!QFile::exists(QLatin1String(kBuiltinExampleResource))) return {};
  if (!dir) {
    dir = std::make_unique<QTemporaryDir>();
    if (!dir->isValid()) return {};
  }
  const QString target = dir->filePath(QStringLiteral("dynamic_model.pt2"));
  if (!QFile::exists(target) && !QFile::copy(QLatin1String(kBuiltinExampleResource), target)) return {};
  return target;
}

}  // namespace

void set_builtin_example_path(const std::string& path) { configured_path() = QString::fromStdString(path); }

QString builtin_example_file() {
  if (!configured_path().isEmpty() && QFile::exists(configured_path())) return configured_path();
  return extracted_resource();
}

}  // namespace exportlens::ui
