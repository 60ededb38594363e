// What a .pt2 holds beyond one program, against torch 2.13's own archives
// (oracle/aoti_packages.py): package_pt2 with two programs, an AOTInductor
// package without provenance (and the program it was compiled from), and one
// with provenance beside its program. Programs are checked against torch's
// print of each, compiled models against torch's own loader (metadata,
// constants) and kernel_information.json, kernel lines against the sources.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/base/error.h"
#include "engine/compiled/archive_contents.h"
#include "engine/compiled/kernel_map.h"
#include "engine/ir/printer.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/sources/program_source.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

std::string aoti(const std::string& name) { return std::string(EXPORTLENS_AOTI_FIXTURES) + "/" + name; }
json manifest(const std::string& package) { return as_object(field(read_json(aoti("manifest.json")), package)); }

ir::ExportedProgram open(const std::string& package, const std::string& program = "") {
  sources::OpenRequest r;
  r.read = runtime::pt2_read_options();
  r.read.load_weights = false;
  r.program = program;
  return sources::open_program(aoti(package), r);
}

// torch's view of a package, asked of torch itself: print(ep) per program, or the compiled model's metadata and constants.
json torch_view(const std::string& package) {
  const auto r = run_python(
      "import json, sys, torch\n"
      "from torch.export.pt2_archive._package import load_pt2\n"
      "c = load_pt2(sys.argv[1])\n"
      "out = {'programs': {k: str(v) for k, v in c.exported_programs.items()}, 'compiled': {}}\n"
      "for k, m in c.aoti_runners.items():\n"
      "    l = m.loader\n"
      "    out['compiled'][k] = {'metadata': l.get_metadata(), 'constant_fqns': l.get_constant_fqns()}\n"
      "print(json.dumps(out))\n",
      {aoti(package)});
  if (r.code != 0) FAIL("torch could not load " + package + ": " + r.err);
  const json view = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  if (view.is_discarded() || !view.is_object()) FAIL("torch's view of " + package + " is not a JSON object: " + r.out);
  return view;
}

}  // namespace

EL_TEST(several_programs_each_as_torch_prints_it) {
  const auto contents = compiled::read_archive_contents(aoti("multi.pt2"));
  COMPARE(contents.programs, as_strings(field(manifest("multi.pt2"), "programs")));
  VERIFY(contents.compiled.empty());
  COMPARE(contents.kind(), std::string("2 exported programs"));
  const json torch = as_object(field(torch_view("multi.pt2"), "programs"));
  COMPARE(torch.size(), 2);
  for (const auto& name : contents.programs)
    COMPARE(ir::print_program(open("multi.pt2", name)), as_string(field(torch, name)));
  try {
    open("multi.pt2", "nope");
    FAIL("a program the archive lacks opened");
  } catch (const Error& e) {
    VERIFY_MSG(std::string(e.what()).find("no program named 'nope' in the archive (it holds: forward, other)") !=
                   std::string::npos,
               e.what());
  }
}

EL_TEST(compiled_model_as_torchs_loader_reads_it) {
  for (const std::string package : {"plain.pt2", "both.pt2"}) {
    const auto contents = compiled::read_archive_contents(aoti(package));
    COMPARE(contents.compiled.size(), size_t(1));
    const compiled::CompiledModel& m = contents.compiled.front();
    const json torch = as_object(field(field(torch_view(package), "compiled"), m.name));
    // Every metadata key torch's loader reports from the wrapper's metadata, with its value.
    const json metadata = as_object(field(torch, "metadata"));
    for (const auto& [key, value] : m.metadata) COMPARE(as_string(field(metadata, key)), value);
    COMPARE(m.device, std::string("cpu"));
    std::set<std::string> fqns, ours;
    for (const auto& v : as_array(field(torch, "constant_fqns"))) fqns.insert(as_string(v));
    for (const auto& c : m.constants) ours.insert(c.original_fqn);
    COMPARE(ours, fqns);
    COMPARE(m.inputs.size(), size_t(1));
    COMPARE(m.outputs.size(), size_t(1));
    VERIFY(m.in_spec.find("builtins.tuple") != std::string::npos);
    COMPARE(m.libraries().size(), size_t(1));
    VERIFY(m.wrapper());
    VERIFY_MSG(m.notes.empty(), m.notes.empty() ? "" : m.notes.front());
    // Each kernel's launch line and definition line name it, in the sources themselves.
    VERIFY(!m.kernels.empty());
    std::map<std::string, std::vector<std::string>> lines;
    auto line = [&](const std::string& entry, int n) {
      auto& text = lines[entry];
      if (text.empty()) {
        const std::string all = compiled::read_source(contents.path, entry);
        for (size_t p = 0; p <= all.size();) {
          const size_t e = std::min(all.find('\n', p), all.size());
          text.push_back(all.substr(p, e - p));
          p = e + 1;
        }
      }
      return text.at(size_t(n - 1));
    };
    for (const auto& k : m.kernels) {
      VERIFY_MSG(line(k.wrapper_entry, k.wrapper_line).find(k.name + "(") != std::string::npos, k.name);
      if (k.name.starts_with("cpp_fused")) {
        VERIFY_MSG(k.definition_line > 0, k.name);
        VERIFY_MSG(line(k.defined_in, k.definition_line).find(k.name) != std::string::npos, k.name);
      }
    }
  }
}

EL_TEST(provenance_maps_kernels_onto_the_programs_nodes) {
  const auto contents = compiled::read_archive_contents(aoti("both.pt2"));
  const compiled::CompiledModel& m = contents.compiled.front();
  VERIFY(m.has_provenance);
  COMPARE(contents.program_of(m), std::string("model"));
  // Kernels by handle with the nodes torch's kernel_information.json names.
  const json kernels = as_object(field(manifest("both.pt2"), "kernels"));
  COMPARE(m.kernels.size(), size_t(kernels.size()));
  for (const auto& k : m.kernels) {
    VERIFY_MSG(kernels.contains(k.handle), k.handle);
    COMPARE(k.nodes, as_strings(field(kernels, k.handle)));
    COMPARE(k.mapped_by, std::string("provenance"));
  }
  const auto program = open("both.pt2");
  const auto map = compiled::map_kernels(m, program);
  VERIFY(map.unknown_nodes.empty());
  COMPARE(map.mapped_kernels, int(m.kernels.size()));
  // conv2d is computed by two launches (the fused layout copy and the ATen convolution).
  COMPARE(map.kernels_of_node.at("conv2d").size(), size_t(2));
  VERIFY(!map.kernels_of_node.count("x"));
}

EL_TEST(without_provenance_source_comments_map_the_fallbacks) {
  const auto contents = compiled::read_archive_contents(aoti("plain.pt2"));
  const compiled::CompiledModel& m = contents.compiled.front();
  VERIFY(!m.has_provenance);
  VERIFY(contents.programs.empty());
  COMPARE(contents.program_of(m), std::string());
  try {
    open("plain.pt2");
    FAIL("a package without its program opened as one");
  } catch (const Error& e) {
    VERIFY_MSG(std::string(e.what()).find("with no exported program: compiled model 'model'") != std::string::npos,
               e.what());
  }
  const auto program = sources::open_program(aoti("program.pt2"));
  const auto map = compiled::map_kernels(m, program);
  VERIFY(map.unknown_nodes.empty());
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const bool fallback = m.kernels[i].name.starts_with("aoti_torch_cpu_");
    // ATen fallbacks follow a source comment; inductor's fused kernels are not guessed.
    COMPARE(!map.nodes_of_kernel[i].empty(), fallback);
    if (fallback) COMPARE(m.kernels[i].mapped_by, std::string("source comment"));
  }
  VERIFY(map.summary(m).find("(source comment)") != std::string::npos);
}

EL_TEST(cli_lists_archives_and_kernels) {
  auto r = run_exportlens({"info", aoti("multi.pt2"), "--program", "other"});
  COMPARE(r.code, 0);
  VERIFY_MSG(r.out.starts_with("archive: 2 exported programs"), r.out);
  VERIFY(contains(r.out, "programs: forward other (shown)"));
  r = run_exportlens({"print", aoti("multi.pt2"), "--program", "other"});
  COMPARE(r.code, 0);
  COMPARE(r.out, as_string(field(field(torch_view("multi.pt2"), "programs"), "other")) + "\n");
  r = run_exportlens({"print", aoti("multi.pt2"), "--program", "nope"});
  COMPARE(r.code, 2);
  r = run_exportlens({"info", aoti("plain.pt2")});
  COMPARE(r.code, 0);
  VERIFY_MSG(contains(r.out, "archive: AOTInductor package with 1 compiled model"), r.out);
  VERIFY(contains(r.out, "(not loaded)"));
  VERIFY(contains(r.out, "--program-file"));
  r = run_exportlens({"info", aoti("plain.pt2"), "--program-file", aoti("program.pt2")});
  COMPARE(r.code, 0);
  VERIFY_MSG(contains(r.out, "compiled model 'model': 2 of 5 kernels mapped"), r.out);
  r = run_exportlens({"print", aoti("plain.pt2")});
  COMPARE(r.code, 1);
  COMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  TempDir dir;
  r = run_exportlens({"kernels", aoti("both.pt2"), "--json", dir.file("k.json")});
  COMPARE(r.code, 0);
  VERIFY(contains(r.out, "5 of 5 kernels mapped onto 8 nodes (provenance)"));
  const json models = as_array(field(read_json(dir.file("k.json")), "compiled_models"));
  const json model = models.empty() ? json::object() : as_object(models[0]);
  const json kernels = as_object(field(manifest("both.pt2"), "kernels"));
  for (const json& k : as_array(field(model, "kernels"))) {
    COMPARE(as_array(field(k, "nodes_in_program")), as_array(field(kernels, as_string(field(k, "handle")))));
  }
  r = run_exportlens({"kernels", aoti("both.pt2"), "--source", "wrapper"});
  COMPARE(r.code, 0);
  VERIFY(contains(r.out, "AOTInductorModel::run_impl"));
}
