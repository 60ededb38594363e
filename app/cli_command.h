#pragma once
// One CLI command: its name, help and handler. Families of commands live in
// their own files (cli_program_commands.cpp, ...) and are listed in cli.cpp.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "engine/ir/exported_program.h"
#include "engine/ops/solve_result.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/additional_inputs.h"
#include "engine/serde/read_limits.h"
#include "engine/sources/program_source.h"

namespace exportlens::app {

struct Command {
  std::string name;
  std::string summary;  // one line for `exportlens --help`
  std::string usage;    // the whole `exportlens NAME --help` text
  std::set<std::string> valued;  // options taking a value
  std::set<std::string> flags;   // options without one
  std::function<int(const ParsedArgs&)> run;  // returns the exit code; throws on error
  int error_exit = 1;  // the exit code when `run` throws (a usage error is always 2)
};

/// Reads the single FILE.pt2 positional argument of `command`, under the
/// limits `--limit` sets; weights are read only when the command runs the program.
enum class Weights { Skip, Load };
ir::ExportedProgram load_program_argument(const ParsedArgs& a, const std::string& command,
                                          Weights weights = Weights::Skip);
/// One program source (a positional of a command taking several), read as load_program_argument reads its one.
ir::ExportedProgram load_program_source(const ParsedArgs& a, const std::string& source, Weights weights = Weights::Skip);

/// The read limits with `--limit KEY=VALUE[,KEY=VALUE...]` applied.
serde::ReadLimits limits_option(const ParsedArgs& a);

/// The help paragraphs shared by the commands that read a FILE.pt2: other
/// program sources, and --limit.
std::string file_help();

/// The FILE.pt2 argument lowered to the IR `--ir training|functional|core`
/// asks for (default training) with `--table NAME` (core only).
ir::ExportedProgram load_program_at_ir(const ParsedArgs& a, const std::string& command,
                                      Weights weights = Weights::Skip);
/// The level `--ir` asks for (training without it); a usage error for a bad `--ir` or `--table`.
passes::IrLevel ir_level_option(const ParsedArgs& a);
/// `ep` lowered as `--ir` / `--table` ask (as it is without them).
ir::ExportedProgram lower_to_ir_option(const ParsedArgs& a, ir::ExportedProgram ep);
/// `ep` lowered to the IR `--ir functional|core` / `--table` ask for (a usage error without --ir).
ir::ExportedProgram lowered_as_asked(const ParsedArgs& a, const ir::ExportedProgram& ep);
/// `info --ir core`: the ops outside the Core ATen set, or that there are none.
std::string core_ir_report(const ir::ExportedProgram& ep);

/// `info --structure [--time]`: the module tree with stacks folded (cli_structure_command.cpp).
int info_structure(const ParsedArgs& a);

/// `--out FILE.pt2`: writes `ep` there as torch.export.save would (nothing without the option).
void save_program_option(const ParsedArgs& a, const ir::ExportedProgram& ep);
/// Its help line(s).
std::string save_help();

/// `info` on a .pt2 that holds several programs or compiled models: what it
/// holds (cli_compiled_commands.cpp). False when there is no program to summarize
/// after it (a package without its program and no --program-file).
bool print_archive_contents(const ParsedArgs& a);
/// `info`: each compiled model's kernels mapped onto `ep` in one line.
void print_kernel_maps(const ParsedArgs& a, const ir::ExportedProgram& ep);

/// kernels.
std::vector<Command> compiled_commands();

/// print, info, dot.
std::vector<Command> program_commands();

/// run, devices.
std::vector<Command> run_commands();
/// `--warmup N`-like options: an integer from `least` to 1000000 (`fallback` without it).
int count_option(const ParsedArgs& a, const std::string& name, int fallback, int least);
/// `--inputs IN.pt` or `--random` (one of them, a usage error otherwise) and `--seed N`.
void inputs_options(const ParsedArgs& a, std::optional<std::filesystem::path>& file, bool& random, uint64_t& seed);
/// `run PKG.pt2 --compiled NAME`: an AOTInductor compiled model run and compared
/// with the program as interpreted (cli_compiled_run.cpp), and its help paragraph.
int run_compiled_model(const ParsedArgs& a);
std::string compiled_run_help();
/// `--additional-inputs IN.pt` (repeatable): the input sets, read; empty without the option.
std::vector<runtime::InputsFile> additional_inputs_option(const ParsedArgs& a);
/// The dynamic_shapes spec (Python text) those sets imply for a program with
/// the example inputs of `example_program` (torch's AdditionalInputs.dynamic_shapes).
std::string spec_from_additional_inputs(const ir::ExportedProgram& example_program,
                                        const std::vector<runtime::InputsFile>& files);
std::string additional_inputs_help();
/// AdditionalInputs.verify: a set `program` refuses turns `result` into a
/// violation naming the file and the failed check.
void check_additional_inputs(const ir::ExportedProgram& program, const std::vector<runtime::InputsFile>& files,
                             ops::SolveResult& result);

/// render (the graph as SVG / PNG / PDF).
std::vector<Command> render_commands();

/// open (the GUI on a program source; the headless build says it has none).
std::vector<Command> open_commands();

/// "a .pt2 archive, a model library, example:NAME, a capture folder or a torch trace log".
std::string file_kinds();

/// check (dynamic_shapes solving).
std::vector<Command> check_commands();

/// decompose (functional / Core ATen IR).
std::vector<Command> decompose_commands();

/// `info` of a capture folder (its attempts; --program N: one attempt's report)
/// or of a torch trace log (what it holds).
int info_capture(const ParsedArgs& a, sources::SourceKind kind);

/// numerics (two runs of a program compared node by node).
std::vector<Command> numerics_commands();

/// capture (a Python script's torch.export calls, failed or not).
std::vector<Command> capture_commands();

/// This executable's path (what finds the files installed beside it).
std::filesystem::path executable_path();

/// example, trace (tracing C++ models: the gallery, model libraries).
std::vector<Command> trace_commands();

/// diff (two programs: what changed).
std::vector<Command> diff_commands();

}  // namespace exportlens::app
