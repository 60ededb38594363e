#pragma once
// A run's time per node, as every view that shows run times reads it (the
// Run dock's table, the canvas's heat tint, module time shares).
#include <QHash>
#include <QString>

namespace exportlens::ui {

/// Milliseconds per node name.
using NodeRunTimes = QHash<QString, double>;

/// Each timed node's time relative to the slowest, in (0, 1].
QHash<QString, qreal> heat_fractions(const NodeRunTimes& times);
/// "1.234 ms".
QString run_time_text(double milliseconds);

}  // namespace exportlens::ui
