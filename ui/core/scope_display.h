#pragma once
// What a module scope's box says on the canvas, in the Modules dock and the
// breadcrumbs: its class ("Block"), where it is and how big ("blocks.3 ·
// 38 ops") and the shapes of the tensors crossing its boundary ("f32[2, 6,
// 16] → f32[2, 6, 16]"; weights folded into their users do not count).
// Made on the worker that lays the program out and on the GUI thread alike.
#include <QString>
#include <QStringList>

#include "engine/ir/graph.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/ir/weight_folding.h"

namespace exportlens::ui {

struct ScopeText {
  QString title;     // the class, or the path's last part when the class is unknown
  QString detail;    // "blocks.3 · 38 ops", "(call 2)" for a module's second call
  QString boundary;  // "in → out" shapes; empty when nothing crosses
  QString tooltip;   // all of it, with every boundary value by name (HTML)
};

/// `nodes`: the graph's nodes (Graph::nodes()); `folded`: weights left out of the boundary (may be null).
ScopeText scope_text(const ir::ModuleHierarchy& hierarchy, int scope, const std::vector<ir::Node*>& nodes,
                     const ir::WeightFolding* folded);

/// "f32[2, 6, 16]" per value, at most `limit` of them, then "+N".
QString shapes_text(const std::vector<const ir::Node*>& values, int limit = 2);

}  // namespace exportlens::ui
