#pragma once
// The diff as `exportlens diff` prints it: the summary (counts, how the
// nodes were matched, the module lines), then the details (signature,
// guards, weights, each changed, added and removed node); and as JSON
// (`--json`), with every match (A's node, B's node, confidence, reason)
// for tools that follow the matching.
#include <string>

#include "engine/diff/program_diff.h"

namespace exportlens::diff {

struct ReportNames {
  std::string a = "A", b = "B";  // what the user called the programs (their files)
};

std::string format_diff(const matching::IndexedProgram& a, const matching::IndexedProgram& b, const ProgramDiff& d,
                        const ReportNames& names = {});

std::string diff_to_json(const matching::IndexedProgram& a, const matching::IndexedProgram& b, const ProgramDiff& d,
                         const ReportNames& names = {});

}  // namespace exportlens::diff
