#include "ui/compiled/constants_model.h"

#include <QLocale>

#include "ui/compiled/compiled_session.h"
#include "ui/core/qstring_from.h"
#include "ui/core/shape_text.h"

namespace exportlens::ui {

ConstantsModel::ConstantsModel(CompiledSession* session, QObject* parent)
    : NodeTableModel({{tr("Name"), false, true},
                      {tr("Module's name"), false, true},
                      {tr("Kind")},
                      {tr("Dtype"), false, true},
                      {tr("Shape"), false, true},
                      {tr("Bytes"), true}},
                     parent),
      session_(session) {
  connect(session_, &CompiledSession::modelChanged, this, [this] { resetRows([] {}); });
}

int ConstantsModel::rows() const {
  const compiled::CompiledModel* m = session_->model();
  return m ? int(m->constants.size()) : 0;
}

QVariant ConstantsModel::text(int row, int column) const {
  const compiled::ConstantInfo& c = session_->model()->constants[row];
  switch (column) {
    case Name: return qs(c.name);
    case OriginalName: return qs(c.original_fqn);
    case Kind: return c.from_folded ? tr("%1 (folded)").arg(qs(c.type)) : qs(c.type);
    case Dtype: return qs(c.dtype);
    case Shape: return shape_text(c.shape);
    case Bytes: return QLocale().formattedDataSize(qint64(c.data_size));
  }
  return {};
}

QVariant ConstantsModel::sortKey(int row, int column) const {
  if (column == Bytes) return qulonglong(session_->model()->constants[row].data_size);
  return text(row, column);
}

}  // namespace exportlens::ui
