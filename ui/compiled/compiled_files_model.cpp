#include "ui/compiled/compiled_files_model.h"

#include <QLocale>

#include "ui/compiled/compiled_session.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {

CompiledFilesModel::CompiledFilesModel(CompiledSession* session, QObject* parent)
    : NodeTableModel({{tr("Entry"), false, true}, {tr("Role")}, {tr("Size"), true}}, parent), session_(session) {
  connect(session_, &CompiledSession::modelChanged, this, [this] { resetRows([] {}); });
}

int CompiledFilesModel::rows() const {
  const compiled::CompiledModel* m = session_->model();
  return m ? int(m->files.size()) : 0;
}

QString CompiledFilesModel::entryAt(int row) const {
  const compiled::CompiledModel* m = session_->model();
  return m && row >= 0 && row < int(m->files.size()) ? qs(m->files[row].entry) : QString();
}

bool CompiledFilesModel::isText(int row) const {
  const compiled::CompiledModel* m = session_->model();
  return m && row >= 0 && row < int(m->files.size()) && m->files[row].is_text();
}

QVariant CompiledFilesModel::text(int row, int column) const {
  const compiled::SourceFile& f = session_->model()->files[row];
  switch (column) {
    case Entry: {
      // The model's folder is the same for every row: shown once, in the tooltip.
      const std::string& folder = session_->model()->folder;
      return qs(f.entry.rfind(folder, 0) == 0 ? f.entry.substr(folder.size()) : f.entry);
    }
    case Role: return f.role == "library" ? tr("library (never loaded by reading)") : qs(f.role);
    case Size: return QLocale().formattedDataSize(qint64(f.size));
  }
  return {};
}

QVariant CompiledFilesModel::toolTip(int row, int column) const {
  const compiled::SourceFile& f = session_->model()->files[row];
  if (column == Entry) return f.is_text() ? tr("%1\nDouble-click to read it").arg(qs(f.entry)) : qs(f.entry);
  if (column == Size) return tr("%1 bytes").arg(f.size);
  return {};
}

QVariant CompiledFilesModel::sortKey(int row, int column) const {
  if (column == Size) return qulonglong(session_->model()->files[row].size);
  return text(row, column);
}

}  // namespace exportlens::ui
