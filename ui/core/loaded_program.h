#pragma once
// Everything the window shows for one opened file, computed off the GUI
// thread: the program, its layout, its printed text and its shapes prepared
// for re-solving dynamic_shapes specs. Immutable once made.
#include <QString>

#include <memory>

#include "engine/ir/exported_program.h"
#include "engine/ir/printer.h"
#include "engine/layout/graph_layout.h"
#include "engine/ops/program_solver.h"

namespace exportlens::ui {

struct LoadedProgram {
  QString path;         // the file it came from
  QString displayName;  // what the title shows ("model.pt2")
  std::shared_ptr<const ir::ExportedProgram> program;
  layout::GraphLayout layout;
  ir::PrintedText printed;
  /// For re-solving specs; null when the program could not be prepared
  /// (prepareError says why: the rest of the window still works).
  std::shared_ptr<const ops::PreparedProgram> prepared;
  QString prepareError;
  double seconds = 0;   // time to read + lay out + print

  const ir::Graph& graph() const { return program->graph(); }
};

using LoadedProgramPtr = std::shared_ptr<const LoadedProgram>;

}  // namespace exportlens::ui
