#include "ui/core/node_run_times.h"

#include <QObject>

#include <algorithm>

namespace exportlens::ui {

QHash<QString, qreal> heat_fractions(const NodeRunTimes& times) {
  double slowest = 0;
  for (double ms : times) slowest = std::max(slowest, ms);
  QHash<QString, qreal> heat;
  if (slowest <= 0) return heat;
  for (auto it = times.cbegin(); it != times.cend(); ++it) heat.insert(it.key(), it.value() / slowest);
  return heat;
}

QString run_time_text(double milliseconds) { return QObject::tr("%1 ms").arg(milliseconds, 0, 'f', 3); }

}  // namespace exportlens::ui
