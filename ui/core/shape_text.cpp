#include "ui/core/shape_text.h"

#include <QStringList>

namespace exportlens::ui {
namespace {

template <typename T, typename ToText>
QString bracketed(const std::vector<T>& items, ToText to_text) {
  QStringList parts;
  for (const T& item : items) parts << to_text(item);
  return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

}  // namespace

QString shape_text(const std::vector<int64_t>& sizes) {
  return bracketed(sizes, [](int64_t s) { return QString::number(s); });
}

QString shape_text(const std::vector<std::string>& sizes) {
  return bracketed(sizes, [](const std::string& s) { return QString::fromStdString(s); });
}

}  // namespace exportlens::ui
