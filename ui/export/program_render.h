#pragma once
// A whole program drawn as the Graph tab draws it, without a window: laid
// out, put on a GraphScene with the application's palette and font, and
// written as SVG, PNG or PDF. `exportlens render` calls it (under a
// QApplication on the offscreen platform); the Export menu uses the scene
// already on screen instead.
#include <QString>

#include <memory>

#include "engine/ir/exported_program.h"
#include "ui/export/graph_image.h"

namespace exportlens::ui {

struct RenderResult {
  int nodes = 0;         // boxes drawn
  QSizeF scene_size;     // of the drawn area, in scene units
};

/// Needs a QApplication. Throws std::runtime_error (layout or writing failed).
RenderResult render_program_image(std::shared_ptr<const ir::ExportedProgram> program, ImageFormat format,
                                  const QString& path, const ImageOptions& options = {});

}  // namespace exportlens::ui
