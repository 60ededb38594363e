#include "ui/run/run_settings.h"

#include <QObject>

namespace exportlens::ui {

QString device_display_name(const QString& device) {
  if (device == QLatin1String("cpu")) return QObject::tr("CPU");
  if (device.startsWith(QLatin1String("cuda"))) return QObject::tr("GPU (%1)").arg(device.toUpper());
  return device;
}

}  // namespace exportlens::ui
