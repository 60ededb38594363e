#pragma once
// View › Node Colours: one swatch per node category in the canvas's current
// palette (filled when the menu opens, so it follows light / dark changes).
class QMenu;

namespace exportlens::ui {

class GraphScene;

/// Adds the legend submenu to `parent`.
QMenu* add_colour_legend(QMenu* parent, const GraphScene* scene);

}  // namespace exportlens::ui
