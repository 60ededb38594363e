#pragma once
// Facts about a program at a glance: op histogram, inputs and outputs,
// parameter count and bytes (what `exportlens info` prints and the GUI shows).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::ir {

struct ProgramSummary {
  std::map<std::string, int> op_histogram;  // "aten.linear.default" -> count (all subgraphs)
  int node_count = 0;                       // call_function nodes, all subgraphs
  int subgraph_count = 0;
  std::vector<std::string> inputs;   // "x: USER_INPUT f32[s0, 5]"
  std::vector<std::string> outputs;  // "add_1: USER_OUTPUT f32[s0*s1]"
  int64_t parameter_count = 0;       // elements in PARAMETER inputs
  int64_t parameter_bytes = 0;
  int64_t buffer_count = 0;          // elements in BUFFER / CONSTANT_TENSOR inputs
  int64_t buffer_bytes = 0;
};

ProgramSummary summarize(const ExportedProgram& ep);
/// The text `exportlens info` prints.
std::string format_summary(const ExportedProgram& ep, const ProgramSummary& s);

}  // namespace exportlens::ir
