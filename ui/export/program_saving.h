#pragma once
// Saving the program on screen as a .pt2 (File › Save As…): whatever level
// it is shown at (as opened, lowered, traced, re-traced with applied fixes).
// A program whose weights were not read (a lazily opened file) gets them
// from the file it came from first. Runs on a worker (weights can be large).
#include <QString>

#include "engine/ir/exported_program.h"

namespace exportlens::ui {

/// Writes `program` to `path` as torch.export.save would. `source_path` is the
/// .pt2 it was read from (empty for a trace). Throws std::runtime_error.
void save_program(const ir::ExportedProgram& program, const QString& source_path, const QString& path);

/// models/model.json of the .pt2 it would be saved as (File › Export › Program as JSON).
std::string program_as_json(const ir::ExportedProgram& program);

}  // namespace exportlens::ui
