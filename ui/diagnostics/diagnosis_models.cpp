#include "ui/diagnostics/diagnosis_models.h"

#include <QFileInfo>
#include <QFont>
#include <QFontDatabase>

#include "ui/core/qstring_from.h"

namespace exportlens::ui {
namespace {

QString frame_text(const std::optional<capture::PythonFrame>& f) { return f ? short_location(*f) : QString(); }
QString code_of(const std::optional<capture::PythonFrame>& f) { return f ? qs(f->code) : QString(); }
QString joined(const std::vector<std::string>& items, const QString& separator) {
  QStringList out;
  for (const std::string& s : items) out << qs(s);
  return out.join(separator);
}

// Guard rows carry an internal id of 0; a frame row, its guard's row + 1.
constexpr quintptr kGuardRow = 0;

}  // namespace

QString short_location(const capture::PythonFrame& frame) {
  return QFileInfo(qs(frame.file)).fileName() + QLatin1Char(':') + QString::number(frame.line);
}

// ---- violated spec entries ----------------------------------------------------------

ViolatedEntriesModel::ViolatedEntriesModel(QObject* parent)
    : NodeTableModel({{tr("Spec entry"), false, true}, {tr("Input dim"), false, true},
                      {tr("Suggested fixes"), false, true}, {tr("torch says")}},
                     parent) {}

void ViolatedEntriesModel::setDiagnosis(const DiagnosisPtr& diagnosis) { resetRows([&] { d_ = diagnosis; }); }

int ViolatedEntriesModel::rows() const { return d_ ? int(d_->violations.size()) : 0; }

QVariant ViolatedEntriesModel::text(int row, int column) const {
  const capture::ViolatedEntry& v = d_->violations[size_t(row)];
  switch (column) {
    case Dim: return qs(v.dim);
    case Input: return v.input ? qs(v.input->text()) : qs(v.source);
    case Message: return qs(v.message);
    case Fixes: return joined(v.fixes, QStringLiteral("; "));
  }
  return {};
}

QString ViolatedEntriesModel::rowNode(int row) const {
  const capture::ViolatedEntry& v = d_->violations[size_t(row)];
  for (int g : v.guards)
    if (!d_->guards[size_t(g)].nodes.empty()) return qs(d_->guards[size_t(g)].nodes.front());
  return {};
}

QVariant ViolatedEntriesModel::toolTip(int row, int column) const {
  if (column == Message) return qs(d_->violations[size_t(row)].message);
  if (column == Fixes) return joined(d_->violations[size_t(row)].fixes, QStringLiteral("\n"));
  return {};
}

// ---- guards ----------------------------------------------------------------------

GuardTreeModel::GuardTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void GuardTreeModel::setDiagnosis(const DiagnosisPtr& diagnosis) {
  beginResetModel();
  d_ = diagnosis;
  frames_ = capture::FrameFilter(d_ ? d_->torch_dir : std::string());
  endResetModel();
}

QList<int> GuardTreeModel::guardsOfNode(const QString& node) const {
  QList<int> rows;
  if (!d_ || node.isEmpty()) return rows;
  const std::string name = node.toStdString();
  for (size_t i = 0; i < d_->guards.size(); ++i)
    for (const std::string& n : d_->guards[i].nodes)
      if (n == name) {
        rows << int(i);
        break;
      }
  return rows;
}

QModelIndex GuardTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  return createIndex(row, column, parent.isValid() ? quintptr(parent.row()) + 1 : kGuardRow);
}

QModelIndex GuardTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == kGuardRow) return {};
  return createIndex(int(child.internalId() - 1), 0, kGuardRow);
}

int GuardTreeModel::rowCount(const QModelIndex& parent) const {
  if (!d_) return 0;
  if (!parent.isValid()) return int(d_->guards.size());
  if (parent.internalId() != kGuardRow || parent.column() != 0) return 0;
  return int(d_->guards[size_t(parent.row())].stack.size());
}

int GuardTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant GuardTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !d_) return {};
  const bool frame_row = index.internalId() != kGuardRow;
  const capture::GuardLine& g = d_->guards[size_t(frame_row ? index.internalId() - 1 : index.row())];
  if (frame_row) {
    const capture::PythonFrame& f = g.stack[size_t(index.row())];
    if (role == Qt::DisplayRole) {
      switch (index.column()) {
        case Guard: return qs(f.function);
        case Line: return short_location(f);
        case Code: return qs(f.code);
        default: return {};
      }
    }
    if (role == Qt::ToolTipRole) return qs(f.location());
    if (role == Qt::FontRole && !frames_.is_framework(f.file)) {
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    return {};
  }
  if (role == NodeNameRole) return g.nodes.empty() ? QString() : qs(g.nodes.front());
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Guard: return qs(g.over_inputs);
      case Line: return frame_text(g.user_frame);
      case Code: return qs(g.user_code);
      case Nodes: return joined(g.nodes, QStringLiteral(", "));
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Guard) return qs(g.expr);
  if (role == Qt::ToolTipRole && index.column() == Line && g.user_frame) return qs(g.user_frame->location());
  if (role == Qt::FontRole && (index.column() == Guard || index.column() == Code))
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
  return {};
}

QVariant GuardTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Guard: return tr("Guard (over the inputs)");
    case Line: return tr("User line");
    case Code: return tr("Code");
    case Nodes: return tr("Nodes");
  }
  return {};
}

// ---- symbols -------------------------------------------------------------------------

SymbolsModel::SymbolsModel(QObject* parent)
    : NodeTableModel({{tr("Symbol"), false, true}, {tr("Input dim"), false, true}, {tr("Spec entry"), false, true},
                      {tr("Range"), false, true}, {tr("Example"), true}, {tr("Made at")}},
                     parent) {}

void SymbolsModel::setDiagnosis(const DiagnosisPtr& diagnosis) { resetRows([&] { d_ = diagnosis; }); }

int SymbolsModel::rows() const { return d_ ? int(d_->symbols.size()) : 0; }

QVariant SymbolsModel::text(int row, int column) const {
  const capture::SymbolBinding& s = d_->symbols[size_t(row)];
  switch (column) {
    case Symbol: return qs(s.symbol) + (s.unbacked ? tr(" (data)") : QString());
    case Input: return s.input ? qs(s.input->text()) : qs(s.source);
    case SpecEntry: return qs(s.spec_entry);
    case Range: return qs(s.range);
    case Example: return qs(s.hint);
    case MadeAt: return s.origin ? short_location(*s.origin) + QStringLiteral(": ") + qs(s.origin->code) : QString();
  }
  return {};
}

// ---- specializations ----------------------------------------------------------------

SpecializationsModel::SpecializationsModel(QObject* parent)
    : NodeTableModel({{tr("Input dim"), false, true}, {tr("Value"), true}, {tr("Reason")}, {tr("User line")},
                      {tr("Code"), false, true}},
                     parent) {}

void SpecializationsModel::setDiagnosis(const DiagnosisPtr& diagnosis) { resetRows([&] { d_ = diagnosis; }); }

int SpecializationsModel::rows() const { return d_ ? int(d_->specializations.size()) : 0; }

QVariant SpecializationsModel::text(int row, int column) const {
  const capture::SpecializationLine& s = d_->specializations[size_t(row)];
  switch (column) {
    case Input: return s.input ? qs(s.input->text()) : qs(s.record.symbol);
    case Value: return qs(s.record.value);
    case Reason: return qs(s.record.reason);
    case Line: return frame_text(s.user_frame);
    case Code: return code_of(s.user_frame);
  }
  return {};
}

// ---- data-dependent values ----------------------------------------------------------

QString data_dependent_html(const capture::AttemptDiagnosis& d) {
  auto line = [](const std::optional<capture::PythonFrame>& f) {
    return f ? QStringLiteral("<b>%1</b> in %2: <code>%3</code>")
                   .arg(short_location(*f).toHtmlEscaped(), qs(f->function).toHtmlEscaped(), qs(f->code).toHtmlEscaped())
             : QObject::tr("(not recorded)");
  };
  QString html;
  for (const capture::DataDependentLine& x : d.data_dependent) {
    html += QObject::tr("<p>The trace needed to know <code><b>%1</b></code>, which depends on the data.</p>")
                .arg(qs(x.expr).toHtmlEscaped());
    const QString value = x.symbols.empty() ? QObject::tr("The value") : qs(x.symbols.front()).toHtmlEscaped();
    html += QObject::tr("<p>%1 is made at %2<br/>and needed at %3</p>").arg(value, line(x.origin), line(x.guard_frame));
    if (!x.hints.empty()) {
      html += QObject::tr("<p>torch suggests one of these checks before the line that needs it:</p><pre>");
      for (const std::string& h : x.hints) html += qs(h).toHtmlEscaped() + QLatin1Char('\n');
      html += QStringLiteral("</pre>");
    }
    if (!x.advice.empty()) html += QObject::tr("<p><i>What to do:</i> %1.</p>").arg(qs(x.advice).toHtmlEscaped());
  }
  return html;
}

}  // namespace exportlens::ui
