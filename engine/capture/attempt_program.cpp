#include "engine/capture/attempt_program.h"

#include <cctype>

#include "engine/base/error.h"
#include "engine/capture/failure_class.h"
#include "engine/capture/fx_code_reader.h"

namespace exportlens::capture {
namespace {

std::optional<AttemptProgram> from_text(const GraphText& text, const serde::ReadLimits& limits) {
  FxCodeProgram read = read_fx_code(text.code, limits);
  AttemptProgram p;
  p.program = std::move(read.program);
  p.kind = text.kind == "make_fx_fail_partial" ? ProgramKind::PartialGraph : ProgramKind::LoggedProgram;
  p.notes = std::move(read.notes);
  return p;
}

}  // namespace

std::string_view program_kind_title(ProgramKind kind) {
  switch (kind) {
    case ProgramKind::Exported: return "exported program";
    case ProgramKind::Draft: return "draft program (draft_export)";
    case ProgramKind::PartialGraph: return "partial graph, up to the failure";
    case ProgramKind::LoggedProgram: return "program from the trace log";
  }
  return "program";
}

std::optional<AttemptProgram> attempt_program(const Attempt& attempt, const AttemptDiagnosis& diagnosis,
                                              const serde::ReadOptions& options, std::string* why_none) {
  auto read = [&](const std::filesystem::path& file, ProgramKind kind) {
    AttemptProgram p;
    p.program = serde::read_pt2(file, "", options);
    p.kind = kind;
    p.file = file;
    return p;
  };
  std::error_code ec;
  if (!attempt.program.empty() && std::filesystem::exists(attempt.program, ec))
    return read(attempt.program, ProgramKind::Exported);
  if (attempt.draft && !attempt.draft->program.empty() && std::filesystem::exists(attempt.draft->program, ec))
    return read(attempt.draft->program, ProgramKind::Draft);
  if (diagnosis.graph_text) return from_text(*diagnosis.graph_text, options.limits);
  if (why_none) {
    if (attempt.ok)
      *why_none = "its program was not saved" + (attempt.save_error.empty() ? "" : " (" + attempt.save_error + ")");
    else
      *why_none = "it failed before torch made a program" +
                  (attempt.failure_class().empty() ? std::string() : " (" + failure_class_title(attempt.failure_class()) + ")") +
                  "; capture with --draft, or ask for a draft export in the GUI, for a draft program";
  }
  return std::nullopt;
}

std::optional<AttemptProgram> logged_program(const AttemptDiagnosis& diagnosis, const serde::ReadLimits& limits,
                                             std::string* why_none) {
  if (diagnosis.graph_text) return from_text(*diagnosis.graph_text, limits);
  if (why_none) *why_none = "the log holds no graph (no partial graph, no printed program)";
  return std::nullopt;
}

const Attempt& select_attempt(const Capture& capture, const std::string& selector) {
  if (capture.attempts.empty())
    throw Error(ErrorKind::Usage, {.file = capture.dir.string()}, "the script made no torch.export call");
  if (selector.empty()) {
    for (const Attempt& a : capture.attempts)
      if (!a.ok) return a;
    return capture.attempts.front();
  }
  std::string digits;
  for (char c : selector)
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  if (!digits.empty() && digits.size() < 7)
    if (const Attempt* a = capture.attempt(std::stoi(digits))) return *a;
  throw Error(ErrorKind::Usage, {.file = capture.dir.string()},
              "no attempt '" + selector + "': the capture holds attempts 1 to " +
                  std::to_string(capture.attempts.back().index));
}

}  // namespace exportlens::capture
