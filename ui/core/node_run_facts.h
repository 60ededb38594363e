#pragma once
// What the latest run says about each node, for views outside ui/run (the
// inspector): its time, the kernels it launched and the device memory after it.
#include <QHash>
#include <QString>

#include "engine/runtime/run_report.h"

namespace exportlens::ui {

struct NodeRunFacts {
  runtime::NodeTime time;  // ms, kernels, live / peak bytes
  double share = 0;        // of the summed node times, 0..1
  QString device;          // "GPU (CUDA)"
  QString timeSource;      // "CUDA events", "host clock"
};

using NodeRunFactsMap = QHash<QString, NodeRunFacts>;

/// The inspector's Run section for one node (HTML; kernels as a table).
QString run_facts_html(const NodeRunFacts& facts, const QString& labelColor);

/// "1.50 MiB", "512 B".
QString byte_text(int64_t bytes);

}  // namespace exportlens::ui
