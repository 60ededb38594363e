#include "ui/compiled/compiled_overview_model.h"

#include <QLocale>
#include <QHash>

#include "ui/compiled/compiled_session.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {
namespace {

QString joined(const std::vector<std::string>& names) {
  QStringList out;
  for (const std::string& n : names) out << qs(n);
  return out.isEmpty() ? QObject::tr("(none)") : out.join(QStringLiteral(", "));
}

// wrapper_metadata.json's keys as a person reads them; others keep their key.
QString metadata_title(const QString& key) {
  static const QHash<QString, QString> titles{
      {QStringLiteral("AOTI_DEVICE_KEY"), QObject::tr("Device")},
      {QStringLiteral("AOTI_PLATFORM"), QObject::tr("Platform")},
      {QStringLiteral("AOTI_MACHINE"), QObject::tr("Machine")},
      {QStringLiteral("AOTI_CPU_ISA"), QObject::tr("CPU ISA")},
      {QStringLiteral("AOTI_COMPUTE_CAPABILITY"), QObject::tr("Compute capability")},
      {QStringLiteral("AOTI_VERSION"), QObject::tr("AOTI version")},
  };
  return titles.value(key, key);
}

}  // namespace

CompiledOverviewModel::CompiledOverviewModel(CompiledSession* session, QObject* parent)
    : NodeTableModel({{tr("What")}, {tr("Value"), false, true}}, parent), session_(session) {
  connect(session_, &CompiledSession::modelChanged, this, &CompiledOverviewModel::rebuild);
  connect(session_, &CompiledSession::mappingChanged, this, &CompiledOverviewModel::rebuild);
  rebuild();
}

QString CompiledOverviewModel::value(const QString& what) const {
  for (const auto& [title, value] : rows_)
    if (title == what) return value;
  return {};
}

void CompiledOverviewModel::rebuild() {
  resetRows([this] {
    rows_.clear();
    const compiled::CompiledModel* m = session_->model();
    if (!m) return;
    const compiled::ArchiveContents& contents = *session_->contents();
    rows_.append({tr("Compiled model"), qs(m->name)});
    rows_.append({tr("Archive holds"), qs(contents.kind())});
    rows_.append({tr("Archive version"), contents.archive_version.empty() ? tr("(not recorded)") : qs(contents.archive_version)});
    rows_.append({tr("Device"), qs(m->device)});
    for (const auto& [key, value] : m->metadata) {
      if (key == "AOTI_DEVICE_KEY") continue;  // the Device row
      rows_.append({metadata_title(qs(key)), value.empty() ? tr("(none)") : qs(value)});
    }
    rows_.append({tr("Inputs"), joined(m->inputs)});
    rows_.append({tr("Outputs"), joined(m->outputs)});
    rows_.append({tr("Input spec"), m->in_spec.empty() ? tr("(none)") : qs(m->in_spec)});
    rows_.append({tr("Output spec"), m->out_spec.empty() ? tr("(none)") : qs(m->out_spec)});
    uint64_t bytes = 0;
    for (const compiled::ConstantInfo& c : m->constants) bytes += c.data_size;
    rows_.append({tr("Constants"), tr("%1, %2, %3")
                                       .arg(m->constants.size())
                                       .arg(QLocale().formattedDataSize(qint64(bytes)))
                                       .arg(m->constants_in_library ? tr("stored in the shared library")
                                                                    : tr("stored as separate weights entries"))});
    rows_.append({tr("Kernels"), QString::number(m->kernels.size())});
    rows_.append({tr("Provenance"), m->has_provenance ? tr("kernel_information.json (compiled with provenance tracking)")
                                                     : tr("none (compiled without provenance tracking)")});
    rows_.append({tr("Mapped onto"), session_->hasMapping() ? session_->programOrigin() : tr("(no program)")});
    rows_.append({tr("Mapping"), session_->mappingText()});
    for (const std::string& note : m->notes) rows_.append({tr("Note"), qs(note)});
  });
}

QVariant CompiledOverviewModel::text(int row, int column) const {
  return column == What ? rows_[row].first : rows_[row].second;
}

QVariant CompiledOverviewModel::toolTip(int row, int column) const {
  return column == Value ? rows_[row].second : QVariant();
}

}  // namespace exportlens::ui
