#include "ui/compiled/kernels_model.h"

#include <QColor>
#include <QFileInfo>

#include "ui/compiled/compiled_session.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {
namespace {

// "kernel.cpp:111": inductor names its files by a content hash
// ("cihr2oeofx….kernel.cpp"), the same for every row; the tooltip has it whole.
QString place(const std::string& entry, int line) {
  if (entry.empty()) return {};
  QString file = QFileInfo(qs(entry)).fileName();
  if (const qsizetype dot = file.indexOf(QLatin1Char('.')); dot >= 20) file = file.mid(dot + 1);
  return line > 0 ? QStringLiteral("%1:%2").arg(file).arg(line) : file;
}

}  // namespace

KernelsModel::KernelsModel(CompiledSession* session, QObject* parent)
    : NodeTableModel({{tr("Kernel"), false, true},
                      {tr("Program nodes"), false, true},
                      {tr("Mapped by")},
                      {tr("Defined in"), false, true},
                      {tr("Launched at"), false, true},
                      {tr("Time (ms)"), true}},
                     parent),
      session_(session) {
  auto reset = [this] { resetRows([this] { milliseconds_ = session_->kernelMilliseconds(); }); };
  connect(session_, &CompiledSession::modelChanged, this, reset);
  connect(session_, &CompiledSession::mappingChanged, this, reset);
  connect(session_, &CompiledSession::runChanged, this, reset);
}

int KernelsModel::rows() const {
  const compiled::CompiledModel* m = session_->model();
  return m ? int(m->kernels.size()) : 0;
}

QVariant KernelsModel::text(int row, int column) const {
  const compiled::Kernel& k = session_->model()->kernels[row];
  switch (column) {
    case Kernel: return qs(k.name);
    case Nodes: {
      if (!session_->hasMapping()) {
        // Without a program: the names the kernel gives, as it gives them.
        QStringList named;
        for (const std::string& n : k.nodes) named << qs(n);
        return named.join(QStringLiteral(", "));
      }
      const QStringList nodes = session_->nodesOf(row);
      if (nodes.isEmpty() && !k.nodes.empty()) return tr("(names none of the program's nodes)");
      return nodes.join(QStringLiteral(", "));
    }
    case MappedBy: return k.mapped_by.empty() ? tr("(not known)") : qs(k.mapped_by);
    case DefinedIn: return k.defined_in.empty() ? tr("(ATen fallback)") : place(k.defined_in, k.definition_line);
    case Launch: return place(k.wrapper_entry, k.wrapper_line);
    case Time: {
      const auto it = milliseconds_.constFind(row);
      return it == milliseconds_.constEnd() ? QVariant() : QVariant(QString::number(*it, 'f', 4));
    }
  }
  return {};
}

QVariant KernelsModel::toolTip(int row, int column) const {
  const compiled::Kernel& k = session_->model()->kernels[row];
  if (column == Kernel) {
    QString tip = qs(k.name);
    if (!k.handle.empty()) tip += tr("\nprovenance handle %1").arg(qs(k.handle));
    if (!k.post_grad_nodes.empty()) {
      QStringList post;
      for (const std::string& n : k.post_grad_nodes) post << qs(n);
      tip += tr("\npost-grad nodes: %1").arg(post.join(QStringLiteral(", ")));
    }
    return tip + tr("\nClick: select its nodes. Double-click: open its source.");
  }
  if (column == Nodes) return text(row, column);
  if (column == DefinedIn) return qs(k.defined_in);
  if (column == Launch) return qs(k.wrapper_entry);
  return {};
}

QVariant KernelsModel::sortKey(int row, int column) const {
  if (column == Time) return milliseconds_.value(row, -1.0);
  return text(row, column);
}

QVariant KernelsModel::otherRole(int row, int column, int role) const {
  // A kernel the program shown has no node for is greyed out.
  if (role == Qt::ForegroundRole && session_->hasMapping() && session_->nodesOf(row).isEmpty() && column <= Nodes)
    return QColor(Qt::gray);
  return {};
}

}  // namespace exportlens::ui
