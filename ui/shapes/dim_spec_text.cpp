#include "ui/shapes/dim_spec_text.h"

namespace exportlens::ui {

using symbolic::DimSpec;

QString bounds_text(const std::optional<int64_t>& min, const std::optional<int64_t>& max) {
  if (!min && !max) return {};
  const QString low = min ? QString::number(*min) : QStringLiteral("0");
  return max ? QStringLiteral("[%1, %2]").arg(low).arg(*max) : QStringLiteral("[%1, ∞)").arg(low);
}

QString dim_spec_text(const DimSpec& dim, const symbolic::DynamicShapesSpec& spec) {
  auto with_bounds = [](QString text, const QString& bounds) {
    return bounds.isEmpty() ? text : text + QLatin1Char(' ') + bounds;
  };
  switch (dim.kind) {
    case DimSpec::Kind::Unspecified:
    case DimSpec::Kind::None:
    case DimSpec::Kind::Static: return QStringLiteral("STATIC");
    case DimSpec::Kind::Auto: return with_bounds(QStringLiteral("AUTO"), bounds_text(dim.min, dim.max));
    case DimSpec::Kind::Dynamic: return with_bounds(QStringLiteral("DYNAMIC"), bounds_text(dim.min, dim.max));
    case DimSpec::Kind::Int: return QString::number(dim.value);
    case DimSpec::Kind::Named: {
      auto it = spec.dims.find(dim.dim);
      const QString bounds = it == spec.dims.end() ? QString() : bounds_text(it->second.min, it->second.max);
      return with_bounds(QString::fromStdString(dim.dim), bounds);
    }
    case DimSpec::Kind::Derived:
      return QString::fromStdString(symbolic::DynamicShapesSpec::derived_name(dim));
  }
  return {};
}

}  // namespace exportlens::ui
