#include "ui/numerics/numerics_settings.h"

#include <QObject>

namespace exportlens::ui {

QString NumericsSettings::wayTitle(Way way) {
  switch (way) {
    case Way::Device: return QObject::tr("as exported");
    case Way::BFloat16: return QObject::tr("bfloat16");
    case Way::Float16: return QObject::tr("float16");
    case Way::Float64: return QObject::tr("float64");
    case Way::Functional: return QObject::tr("functional IR");
    case Way::Core: return QObject::tr("Core ATen IR");
  }
  return {};
}

}  // namespace exportlens::ui
