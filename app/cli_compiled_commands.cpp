// What an archive holds beyond one program: `info`'s listing of programs and
// compiled models, and `kernels`, a compiled model's kernels with the program
// nodes each computes and its sources. Reading a package never loads its library.
#include <fstream>
#include <iostream>

#include "app/cli_command.h"
#include "engine/base/error.h"
#include "engine/compiled/archive_contents.h"
#include "engine/compiled/compiled_report.h"
#include "engine/compiled/kernel_map.h"

namespace exportlens::app {
namespace {

bool is_archive(const std::string& path) {
  return sources::match_source(path) == sources::SourceKind::ExportedProgram;
}

// The archive's one compiled model, or the one --compiled names.
const compiled::CompiledModel& chosen_model(const compiled::ArchiveContents& c, const ParsedArgs& a) {
  if (c.compiled.empty()) throw Error(ErrorKind::Usage, {.file = c.path.string()}, "the archive holds no compiled model");
  const std::string name = a.option("--compiled").value_or("");
  if (name.empty()) {
    if (c.compiled.size() > 1) {
      std::string names;
      for (const auto& m : c.compiled) names += (names.empty() ? "" : ", ") + m.name;
      throw UsageError(c.path.string() + " holds " + std::to_string(c.compiled.size()) +
                       " compiled models; --compiled NAME picks one (" + names + ")");
    }
    return c.compiled.front();
  }
  if (const auto* m = c.compiled_model(name)) return *m;
  throw UsageError(c.path.string() + ": no compiled model named '" + name + "'");
}

// The program the kernels map onto: --program-file, else the archive's program of the model's name.
std::optional<ir::ExportedProgram> program_for(const ParsedArgs& a, const compiled::ArchiveContents& c,
                                               const compiled::CompiledModel& m) {
  if (a.option("--program-file")) return load_program_argument(a, "kernels");
  if (const std::string p = c.program_of(m); !p.empty()) {
    ParsedArgs named = a;
    named.options["--program"] = p;
    return load_program_source(named, a.positionals[0]);
  }
  return std::nullopt;
}

int cmd_kernels(const ParsedArgs& a) {
  if (a.positionals.size() != 1) throw UsageError("kernels takes exactly one PACKAGE.pt2");
  const auto contents = compiled::read_archive_contents(a.positionals[0], limits_option(a));
  const compiled::CompiledModel& model = chosen_model(contents, a);
  if (const auto entry = a.option("--source")) {
    // A source by its file name (or whole entry), or "wrapper".
    for (const auto& f : model.files) {
      const std::string name = f.entry.substr(f.entry.rfind('/') + 1);
      if (f.entry == *entry || name == *entry || (*entry == "wrapper" && f.role == "wrapper")) {
        if (!f.is_text()) throw UsageError(name + " is a " + f.role + " file, not a source");
        std::cout << compiled::read_source(contents.path, f.entry, limits_option(a));
        return 0;
      }
    }
    throw UsageError("compiled model '" + model.name + "' has no source '" + *entry + "'");
  }
  const auto program = program_for(a, contents, model);
  std::optional<compiled::KernelMap> map;
  if (program) map = compiled::map_kernels(model, *program);
  if (const auto out = a.option("--json")) {
    std::ofstream f(*out);
    f << compiled::contents_json(contents, &model, map ? &*map : nullptr) << "\n";
    if (!f) throw Error(ErrorKind::Usage, {.file = *out}, "cannot write the JSON report");
  }
  std::cout << compiled::kernels_text(model, map ? &*map : nullptr);
  if (!program)
    std::cout << "(no program to map onto: the archive does not hold the program '" << model.name
              << "'; --program-file FILE.pt2 names it)\n";
  return 0;
}

}  // namespace

bool print_archive_contents(const ParsedArgs& a) {
  if (a.positionals.size() != 1 || !is_archive(a.positionals[0])) return true;
  const auto contents = compiled::read_archive_contents(a.positionals[0], limits_option(a));
  const bool has_program = !contents.programs.empty() || a.option("--program-file");
  if (contents.programs.size() > 1 || !contents.compiled.empty()) {
    std::string shown = a.option("--program").value_or("");
    if (shown.empty() && !contents.programs.empty())
      shown = std::find(contents.programs.begin(), contents.programs.end(), "model") != contents.programs.end()
                  ? "model" : contents.programs.front();
    std::cout << compiled::archive_text(contents, a.option("--program-file") ? "" : shown);
    if (has_program) std::cout << "\n";
  }
  if (!has_program) std::cout << "(no exported program: --program-file FILE.pt2 names the one it was compiled from)\n";
  return has_program;
}

void print_kernel_maps(const ParsedArgs& a, const ir::ExportedProgram& ep) {
  if (a.positionals.size() != 1 || !is_archive(a.positionals[0])) return;
  const auto contents = compiled::read_archive_contents(a.positionals[0], limits_option(a));
  for (const auto& m : contents.compiled) {
    // A model maps onto the program it was compiled from: the one named so, or the --program-file.
    if (!a.option("--program-file") && contents.program_of(m) != ep.name) continue;
    std::cout << "compiled model '" << m.name << "': " << compiled::map_kernels(m, ep).summary(m) << "\n";
  }
}

std::vector<Command> compiled_commands() {
  return {{"kernels", "a compiled model's kernels (AOTInductor package): the program nodes each computes, sources",
           "usage: exportlens kernels PACKAGE.pt2 [--compiled NAME] [--program-file FILE.pt2] [--json OUT]\n"
           "       exportlens kernels PACKAGE.pt2 [--compiled NAME] --source FILE|wrapper\n\n"
           "Lists the kernels a compiled model launches, in launch order: its name and\n"
           "inductor's debug handle, the wrapper line that launches it and the source\n"
           "line that defines it, and the program nodes it computes: from inductor's\n"
           "provenance (kernel_information.json, written when the package was compiled\n"
           "with torch._inductor.config.trace.provenance_tracking_level=1), else from the\n"
           "wrapper's \"Topologically Sorted Source Nodes\" comments (ATen fallbacks only).\n"
           "Nodes are checked against the program the model was compiled from: the\n"
           "archive's program of the same name, or --program-file; names it lacks are\n"
           "marked `?`. --source prints one of the model's sources (the wrapper, a kernel\n"
           "file by name). Nothing is loaded or run.\n"
           "\n--json OUT also writes the archive's contents and the model's kernels as JSON.\n",
           {"--compiled", "--program-file", "--program", "--source", "--json", "--limit"}, {}, cmd_kernels}};
}

}  // namespace exportlens::app
