#pragma once
// The inspector's page for one node, as HTML (Qt's rich-text subset).
#include <QColor>
#include <QString>

#include "engine/ir/exported_program.h"
#include "ui/canvas/canvas_palette.h"
#include "ui/core/node_solve_facts.h"

namespace exportlens::ui {

struct ReportColors {
  QColor heading;  // section titles
  QColor label;    // left column
  CanvasPalette canvas;  // category swatches as the canvas paints them
};

/// `solved`: what the latest dynamic-shapes solve says about the node, if any.
QString node_report_html(const ir::Node& node, const ir::ExportedProgram& program, const ReportColors& colors,
                         const NodeSolveFacts* solved = nullptr);
/// The page shown with no node selected.
QString program_summary_html(const ir::ExportedProgram& program, const QString& name, const QString& path,
                             const ReportColors& colors);

}  // namespace exportlens::ui
