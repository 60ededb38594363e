#pragma once
// Everything the window shows for one opened file, computed off the GUI
// thread: the program, its module hierarchy and folded weights, the layout
// engine the canvas browses it with and the picture it opens with, its
// printed text and its shapes prepared for re-solving dynamic_shapes specs.
// Immutable once made (the layout engine caches what it lays out).
#include <QString>

#include <memory>

#include "engine/ir/exported_program.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/ir/printer.h"
#include "engine/ir/weight_folding.h"
#include "engine/layout/scoped_layout.h"

namespace exportlens::ops {
class PreparedProgram;  // engine/ops/program_solver.h: only the files that solve include it
}

namespace exportlens::ui {

struct LoadedProgram {
  QString path;         // the file it came from
  QString displayName;  // what the title shows ("model.pt2")
  std::shared_ptr<const ir::ExportedProgram> program;
  /// The module calls the canvas and the Modules dock browse by.
  std::shared_ptr<const ir::ModuleHierarchy> hierarchy;
  /// Parameters, buffers and constants folded into the nodes that read them.
  std::shared_ptr<const ir::WeightFolding> weights;
  /// Lays out any expansion of the hierarchy with the weights folded (each
  /// level once; shared by every view of this program).
  std::shared_ptr<layout::ScopedLayoutEngine> layouts;
  /// What the canvas opens with: the hierarchy's upper levels, to the depth
  /// that draws about 150 items or fewer, laid out already.
  layout::ScopeExpansion opening;
  int openingDepth = 0;
  std::shared_ptr<const layout::ScopedLayout> openingPicture;
  ir::PrintedText printed;
  /// For re-solving specs; null when the program could not be prepared
  /// (prepareError says why: the rest of the window still works).
  std::shared_ptr<const ops::PreparedProgram> prepared;
  QString prepareError;
  double seconds = 0;   // time to read + lay out the opening picture + print

  const ir::Graph& graph() const { return program->graph(); }
};

using LoadedProgramPtr = std::shared_ptr<const LoadedProgram>;

}  // namespace exportlens::ui
