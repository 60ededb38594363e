#pragma once
// The program an export attempt left, best first: the exported program of a
// call that succeeded, the draft program draft_export made of a failed one,
// the partial graph torch logged when its trace stopped, or the program a
// verbose log printed. A plain trace log gives the last two. The program
// comes with what it is, so views can say "draft program" or "partial graph,
// up to the failure".
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/capture/attempt_diagnosis.h"
#include "engine/capture/capture_folder.h"
#include "engine/ir/exported_program.h"
#include "engine/serde/pt2_reader.h"

namespace exportlens::capture {

enum class ProgramKind { Exported, Draft, PartialGraph, LoggedProgram };
std::string_view program_kind_title(ProgramKind kind);  // "exported program", "draft program", ...

struct AttemptProgram {
  ir::ExportedProgram program;
  ProgramKind kind = ProgramKind::Exported;
  std::filesystem::path file;      // the .pt2 it was read from (empty for a graph read from text)
  std::vector<std::string> notes;  // statements of a graph text that were left out
};

/// The attempt's program, or nullopt when it left none (why_none says why).
std::optional<AttemptProgram> attempt_program(const Attempt& attempt, const AttemptDiagnosis& diagnosis,
                                              const serde::ReadOptions& options, std::string* why_none = nullptr);

/// The graph a plain trace log holds, or nullopt.
std::optional<AttemptProgram> logged_program(const AttemptDiagnosis& diagnosis, const serde::ReadLimits& limits,
                                             std::string* why_none = nullptr);

/// Which attempt `selector` names ("2", "attempt_002"), or by default the first
/// failed attempt, else the first one. Throws exportlens::Error (Usage) naming the choices.
const Attempt& select_attempt(const Capture& capture, const std::string& selector);

}  // namespace exportlens::capture
