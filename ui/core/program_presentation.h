#pragma once
// What the window needs to show a program, made on a worker thread: its
// module hierarchy, folded weights, a layout engine (boxes sized with the
// canvas's fonts) and the picture the canvas opens with, its printed text
// and prepared shapes. Shared by the file loader and the IR-level switch.
#include <QString>

#include <functional>
#include <memory>

#include "engine/base/cancel_token.h"
#include "ui/core/loaded_program.h"
#include "ui/core/node_metrics.h"

namespace exportlens::ui {

struct PresentationRequest {
  QString path;
  QString displayName;
  NodeMetrics metrics;  // made on the GUI thread; measuring is reentrant
  qreal clusterLabelHeight = 16;
  std::shared_ptr<CancelToken> token;
};

/// Fraction of the work done in [0, 1] and what is being done.
using PresentationProgress = std::function<void(double fraction, const QString& stage)>;

/// The label height the canvas's cluster boxes leave room for with `font`.
qreal cluster_label_height(const QFont& font);

/// The items the canvas opens with at most (the depth of the module tree is chosen to fit).
constexpr size_t kOpeningItemBudget = 150;

/// A layout engine for `program`'s canvas: node and scope boxes sized by
/// `metrics`; weights folded into their users, or drawn as nodes beside them.
std::shared_ptr<layout::ScopedLayoutEngine> make_layout_engine(const LoadedProgram& program,
                                                               const NodeMetrics& metrics, qreal labelHeight,
                                                               bool weightsFolded);

/// Lays out, prints and prepares `program`. Throws Cancelled when the
/// request's token is cancelled, std::exception when the layout fails (a
/// program whose shapes cannot be prepared still comes back, with prepareError).
std::shared_ptr<LoadedProgram> present_program(std::shared_ptr<const ir::ExportedProgram> program,
                                               const PresentationRequest& request,
                                               const PresentationProgress& progress = {});

}  // namespace exportlens::ui
