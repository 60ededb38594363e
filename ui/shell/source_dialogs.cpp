#include "ui/shell/source_dialogs.h"

#include <QFile>
#include <QObject>
#include <QUrl>

#include <filesystem>

namespace exportlens::ui {

QString file_filter(sources::SourceKind kind) {
  return QString::fromStdString(sources::dialog_filter(kind)) + QStringLiteral(";;") + QObject::tr("All files (*)");
}

QString open_filter() {
  QStringList filters;
  for (auto kind : {sources::SourceKind::ExportedProgram, sources::SourceKind::Capture, sources::SourceKind::TraceLog})
    filters << QString::fromStdString(sources::dialog_filter(kind));
  return filters.join(QStringLiteral(";;")) + QStringLiteral(";;") + QObject::tr("All files (*)");
}

sources::SourceKind source_kind(const QString& path) {
  return sources::match_source(std::filesystem::path(QFile::encodeName(path).toStdString()));
}

bool is_program_source(const QUrl& url) {
  return url.isLocalFile() && source_kind(url.toLocalFile()) != sources::SourceKind::Unknown;
}

}  // namespace exportlens::ui
