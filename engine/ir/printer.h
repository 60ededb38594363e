#pragma once
// The text torch prints for an ExportedProgram (`print(ep)`, i.e. str(ep) in
// torch 2.13) and for a GraphModule (`gm.print_readable()`), byte for byte,
// plus where each node landed in that text (for the GUI's code view).
#include <map>
#include <string>
#include <string_view>

#include "engine/ir/exported_program.h"

namespace exportlens::ir {

struct PrintOptions {
  /// The "# File: path:line in fn, code: ..." comments torch prints from each
  /// node's stack trace. Off: no comment lines at all (not torch's text).
  bool include_stack_comments = true;
  /// The `: "f32[3]"` after each name (verbose codegen); off, the code a
  /// GraphModule runs (gm.code).
  bool type_annotations = true;
};

/// 0-based, inclusive line numbers in a printed text.
struct LineSpan {
  int first = 0;
  int last = 0;
};

/// Printed text with each node's lines: a call's statement (from the stack
/// comment it opens, if any), the `def forward` line for placeholders, the
/// `return` line for the output. Covers the nodes of every printed subgraph.
struct PrintedText {
  std::string text;
  std::map<const Node*, LineSpan> node_lines;
  /// The node whose span holds `line` (the statement's node where a comment
  /// and a statement share one), or nullptr.
  const Node* node_at_line(int line) const;
};

/// str(ep): "ExportedProgram:\n    class GraphModule(torch.nn.Module): ..."
/// followed by the graph signature and the range constraints.
std::string print_program(const ExportedProgram& ep, const PrintOptions& options = {});
PrintedText print_program_annotated(const ExportedProgram& ep, const PrintOptions& options = {});

/// gm.print_readable(print_output=False): the forward as a class named
/// `class_name`, with cond/map subgraphs nested as classes.
std::string print_graph_module(const GraphModule& gm, std::string_view class_name = "GraphModule",
                               const PrintOptions& options = {});
PrintedText print_graph_module_annotated(const GraphModule& gm,
                                         std::string_view class_name = "GraphModule",
                                         const PrintOptions& options = {});

/// str(ExportGraphSignature): "\n# inputs\nx: USER_INPUT\n...\n\n# outputs\n...\n".
std::string print_signature(const GraphSignature& signature);

}  // namespace exportlens::ir
