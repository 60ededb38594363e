// Running an AOTInductor compiled model (runtime::run_compiled, through
// LibTorch's package loader) and comparing it with the program as ExportLens
// interprets it (numerics::compare_compiled), against real torch 2.13:
// outputs equal to torch's own aoti_load_package(...)(x) (outputs_*.pt),
// the interpreted program close, per-kernel times for the ATen fallbacks;
// without consent nothing is loaded (the wrapper library is not mapped into
// this process); a broken package or a wrong model is refused in one line;
// `exportlens run PKG.pt2 --compiled NAME` (exit codes, report, --json, --out).
#include "support/torch_values.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/base/error.h"
#include "engine/compiled/archive_contents.h"
#include "engine/numerics/compiled_comparison.h"
#include "engine/runtime/compiled_run_values.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/zip_archive.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

std::string aoti(const std::string& file) { return std::string(EXPORTLENS_AOTI_FIXTURES) + "/" + file; }

// What initTestCase did: the suite's temporary folder, and the fixtures every test reads are there.
struct Suite {
  TempDir tmp;
  Suite() {
    for (const char* f : {"plain.pt2", "both.pt2", "program.pt2", "inputs.pt", "outputs_plain.pt", "outputs_both.pt"})
      VERIFY_MSG(exists(aoti(f)), f);
  }
};
const Suite& suite() {
  static const Suite s;
  return s;
}
const TempDir& tmp() { return suite().tmp; }

std::shared_ptr<const ir::ExportedProgram> program_of(const std::string& path, const std::string& name = "") {
  return std::make_shared<const ir::ExportedProgram>(serde::read_pt2(path, name, runtime::pt2_read_options()));
}

runtime::CompiledRunRequest request_for(const std::string& package, bool consent = true) {
  runtime::CompiledRunRequest r;
  r.package = package;
  r.model = "model";
  r.consent = consent;
  r.inputs_file = aoti("inputs.pt");
  return r;
}

// The file names of the shared libraries a package holds.
std::vector<std::string> libraries_in(const std::string& package) {
  std::vector<std::string> names;
  const serde::ZipArchive zip(package);
  for (const auto& e : zip.entries())
    if (e.name.ends_with(".so")) names.push_back(std::filesystem::path(e.name).filename().string());
  return names;
}

// Lines of /proc/self/maps naming any of `names`.
std::vector<std::string> mapped(const std::vector<std::string>& names) {
  std::ifstream maps("/proc/self/maps");
  std::vector<std::string> hits;
  for (std::string line; std::getline(maps, line);)
    for (const std::string& n : names)
      if (contains(line, "/" + n)) hits.push_back(line);
  return hits;
}

// The compiled outputs against torch's own run of the same package (same code, same inputs).
std::string against_torch(const std::vector<at::Tensor>& ours, const std::string& torch_outputs) {
  const std::vector<c10::IValue> want = load_tuple(torch_outputs);
  if (want.size() != ours.size())
    return std::to_string(ours.size()) + " outputs, torch " + std::to_string(want.size());
  for (size_t i = 0; i < ours.size(); ++i)
    if (const std::string why = compare_values(ours[i], want[i]); !why.empty())
      return "output " + std::to_string(i) + ": " + why;
  return {};
}

// An ATen fallback timed: recorded as its op (aten::convolution, aten::_convolution) or, in a
// package compiled with cpp.enable_kernel_profile, under its own name (aoti_torch_cpu_convolution).
bool has_aten_fallback(const runtime::CompiledRunReport& r) {
  for (const auto& k : r.kernels)
    if ((k.event.rfind("aten::", 0) == 0 || k.kernel.rfind("aoti_torch_", 0) == 0) && k.total_ms > 0 && k.calls > 0)
      return true;
  return false;
}

size_t lines_in(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

// First, before any consented run: a refused request loads nothing, so the
// package's wrapper library is not mapped into this process.
EL_TEST(withoutConsentNothingIsLoaded) {
  suite();
  const std::vector<std::string> libraries = libraries_in(aoti("plain.pt2"));
  VERIFY(!libraries.empty());
  VERIFY(mapped(libraries).empty());
  for (bool compare : {false, true}) {
    try {
      if (compare) {
        numerics::CompiledComparisonRequest r;
        r.run = request_for(aoti("plain.pt2"), /*consent=*/false);
        r.run.program = program_of(aoti("program.pt2"));
        numerics::compare_compiled(r);
      } else {
        runtime::run_compiled(request_for(aoti("plain.pt2"), /*consent=*/false));
      }
      FAIL("ran without consent");
    } catch (const Error& e) {
      COMPARE(e.kind(), ErrorKind::Usage);
      VERIFY_MSG(contains(e.what(), "consent"), e.what());
    }
  }
  VERIFY_MSG(mapped(libraries).empty(), join(mapped(libraries), "\n"));
}

// plain.pt2 (compiled code only) with the program it was compiled from given beside it.
EL_TEST(plainEqualsTorchsRunAndTheInterpretedProgram) {
  suite();
  // While the consented run runs, its library is mapped: the check above could see it.
  auto consented = request_for(aoti("plain.pt2"));
  std::vector<std::string> seen_while_running;
  consented.progress = [&](int done, int) {
    if (done > 0 && seen_while_running.empty()) seen_while_running = mapped(libraries_in(aoti("plain.pt2")));
  };
  const runtime::CompiledRunValues run = runtime::run_compiled_values(consented);
  VERIFY(!seen_while_running.empty());
  const std::string why = against_torch(run.outputs, aoti("outputs_plain.pt"));
  VERIFY_MSG(why.empty(), why);
  COMPARE(run.report.outputs.size(), size_t(1));
  COMPARE(run.report.outputs[0].shape, (std::vector<int64_t>{2, 4}));
  VERIFY(run.report.median_ms > 0);
  VERIFY(has_aten_fallback(run.report));

  numerics::CompiledComparisonRequest r;
  r.run = request_for(aoti("plain.pt2"));
  r.run.program = program_of(aoti("program.pt2"));
  r.run.warmup = 1;
  r.run.repeat = 3;
  const numerics::CompiledComparison c = numerics::compare_compiled(r);
  VERIFY(c.compared);
  VERIFY(c.all_close);
  COMPARE(c.outputs.size(), size_t(1));
  VERIFY(c.outputs[0].stats);
  VERIFY(!c.outputs[0].stats->beyond_tolerance);
  VERIFY(c.outputs[0].stats->cosine > 0.9999);
  VERIFY(c.outputs[0].stats->max_abs < 1e-4);
  COMPARE(c.compiled.run_ms.size(), size_t(3));
  VERIFY(c.interpreted_ms > 0);
  VERIFY(has_aten_fallback(c.compiled));
  VERIFY(!c.compiled.kernels_note.empty());
}

// both.pt2: the program and its compiled model in one archive (dynamic batch).
EL_TEST(bothEqualsTorchsRunAndItsOwnProgram) {
  suite();
  const runtime::CompiledRunValues run = runtime::run_compiled_values(request_for(aoti("both.pt2")));
  const std::string why = against_torch(run.outputs, aoti("outputs_both.pt"));
  VERIFY_MSG(why.empty(), why);

  numerics::CompiledComparisonRequest r;
  r.run = request_for(aoti("both.pt2"));
  r.run.program = program_of(aoti("both.pt2"), "model");
  const compiled::ArchiveContents contents = compiled::read_archive_contents(aoti("both.pt2"));
  VERIFY(contents.compiled_model("model"));
  r.model = std::make_shared<const compiled::CompiledModel>(*contents.compiled_model("model"));
  const numerics::CompiledComparison c = numerics::compare_compiled(r);
  VERIFY(c.compared);
  VERIFY(c.all_close);
  VERIFY(has_aten_fallback(c.compiled));
  // Timed kernels carry the program nodes torch's provenance gives them (kernel_information.json).
  const json provenance = as_object(field(field(read_json(aoti("manifest.json")), "both.pt2"), "kernels"));
  int mapped_kernels = 0;
  for (const runtime::CompiledKernelTime& k : c.compiled.kernels) {
    if (k.kernel_index < 0) continue;
    VERIFY(k.kernel == r.model->kernels[k.kernel_index].name);
    std::vector<std::string> want;
    for (const auto& [key, value] : provenance.items())
      if (key.starts_with(k.kernel + ":"))
        for (const auto& n : as_array(value)) want.push_back(as_string(n));
    std::vector<std::string> got(k.nodes.begin(), k.nodes.end());
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    VERIFY(!want.empty());
    COMPARE(got, want);
    ++mapped_kernels;
  }
  VERIFY(mapped_kernels >= 1);
  VERIFY(!c.kernel_map.empty());

  // Random inputs from the program's signature (another batch size is not needed: its example's).
  r.run.inputs_file.reset();
  r.run.random_inputs = true;
  r.run.seed = 7;
  const numerics::CompiledComparison random = numerics::compare_compiled(r);
  VERIFY(random.all_close);
  COMPARE(random.compiled.inputs.size(), size_t(1));
  COMPARE(random.compiled.inputs[0].shape, (std::vector<int64_t>{2, 3, 8, 8}));
}

// The compiled model alone: no program, no comparison, and no random inputs.
EL_TEST(withoutAProgramRunsAlone) {
  suite();
  numerics::CompiledComparisonRequest r;
  r.run = request_for(aoti("plain.pt2"));
  const numerics::CompiledComparison c = numerics::compare_compiled(r);
  VERIFY(!c.compared);
  VERIFY(!c.not_compared.empty());
  COMPARE(c.compiled.outputs.size(), size_t(1));
  r.run.inputs_file.reset();
  r.run.random_inputs = true;
  try {
    numerics::compare_compiled(r);
    FAIL("random inputs without a program");
  } catch (const Error& e) {
    COMPARE(e.kind(), ErrorKind::Usage);
  }
}

// Wrong model names, a package whose library is not one, a file that is no
// package: each refused in one line naming the file.
EL_TEST(brokenPackagesAreOneLine) {
  suite();
  // A copy of plain.pt2 whose shared library is garbage (a package that lies about its code).
  const std::string broken = tmp().file("broken.pt2");
  const ProcessResult made = run_python(
      "import sys, zipfile\n"
      "src, dst = sys.argv[1], sys.argv[2]\n"
      "with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, 'w') as b:\n"
      "    for i in a.infolist():\n"
      "        b.writestr(i, b'not a shared library' if i.filename.endswith('.so') else a.read(i))\n",
      {aoti("plain.pt2"), broken});
  VERIFY_MSG(made.code == 0, made.err);
  const std::string junk = tmp().file("junk.pt2");
  write_text(junk, "this is not a zip archive");
  struct Case {
    std::string package;
    std::string model;
  };
  for (const Case& c : {Case{broken, "model"}, Case{aoti("plain.pt2"), "no_such_model"}, Case{junk, "model"}}) {
    auto r = request_for(c.package);
    r.model = c.model;
    try {
      runtime::run_compiled(r);
      FAIL("ran " + c.package);
    } catch (const Error& e) {
      COMPARE(e.kind(), ErrorKind::Run);
      COMPARE(e.place().file, c.package);
      VERIFY_MSG(!contains(e.what(), "\n"), e.what());
      VERIFY_MSG(!contains(e.what(), "Exception raised from"), e.what());
    }
  }
}

// Cancel stops the run at its next step; progress counts the runs (warmup, timed, profiled).
EL_TEST(cancelAndProgress) {
  suite();
  auto r = request_for(aoti("plain.pt2"));
  r.warmup = 2;
  r.repeat = 3;
  std::vector<std::pair<int, int>> steps;
  r.progress = [&](int done, int total) { steps.emplace_back(done, total); };
  runtime::run_compiled(r);
  VERIFY(!steps.empty());
  // 2 warmup + 3 timed + the profiled step
  COMPARE(steps.back().first, 6);
  COMPARE(steps.back().second, 6);
  CancelToken cancel;
  r.cancel = &cancel;
  r.progress = [&](int done, int) {
    if (done == 1) cancel.cancel();
  };
  try {
    runtime::run_compiled(r);
    FAIL("not cancelled");
  } catch (const Cancelled&) {
  }
}

EL_TEST(profilerNamesOfKernels) {
  COMPARE(runtime::profiler_name_of_kernel("aoti_torch_cpu_addmm_out"), std::string("aten::addmm"));
  COMPARE(runtime::profiler_name_of_kernel("aoti_torch_cuda_convolution"), std::string("aten::convolution"));
  COMPARE(runtime::profiler_name_of_kernel("cpp_fused_relu_0"), std::string("cpp_fused_relu_0"));
  COMPARE(runtime::profiler_name_of_kernel("triton_poi_fused_0"), std::string("triton_poi_fused_0"));
}

// The CLI: naming --compiled is the consent; the report; exit codes.
EL_TEST(cli) {
  suite();
  const std::string json_file = tmp().file("report.json"), out = tmp().file("outputs.pt");
  ProcessResult r = run_exportlens({"run", aoti("plain.pt2"), "--compiled", "model", "--program-file", aoti("program.pt2"),
                                    "--inputs", aoti("inputs.pt"), "--json", json_file, "--out", out});
  VERIFY_MSG(r.code == 0, r.out + r.err);
  VERIFY_MSG(contains(r.out, "all outputs close"), r.out);
  VERIFY_MSG(contains(r.out, "kernels (slowest first)") && contains(r.out, "aten::"), r.out);
  VERIFY_MSG(contains(r.out, "SNR"), r.out);
  const json report = read_json(json_file);
  VERIFY(as_bool(field(report, "compared")));
  VERIFY(as_bool(field(report, "all_close")));
  const json outputs = as_array(field(report, "outputs"));
  COMPARE(outputs.size(), 1);
  VERIFY(as_bool(field(outputs.empty() ? json() : outputs[0], "close")));
  VERIFY(!as_array(field(report, "kernels")).empty());
  // --out: the compiled model's outputs, as torch's own run gives them.
  std::vector<at::Tensor> written;
  for (const auto& v : load_tuple(out)) written.push_back(v.toTensor());
  const std::string why = against_torch(written, aoti("outputs_plain.pt"));
  VERIFY_MSG(why.empty(), why);

  // both.pt2 holds its program: compared without --program-file.
  r = run_exportlens({"run", aoti("both.pt2"), "--compiled", "model", "--random", "--seed", "3"});
  VERIFY_MSG(r.code == 0, r.out + r.err);
  VERIFY_MSG(contains(r.out, "all outputs close"), r.out);

  // plain.pt2 alone: run, not compared, and the report says what would compare it.
  r = run_exportlens({"run", aoti("plain.pt2"), "--compiled", "model", "--inputs", aoti("inputs.pt")});
  VERIFY_MSG(r.code == 0, r.out + r.err);
  VERIFY_MSG(contains(r.out, "not compared") && contains(r.out, "--program-file"), r.out);

  // Usage errors: exit 2, one line.
  using Args = std::vector<std::string>;
  for (const Args& args :
       {Args{"run", aoti("plain.pt2"), "--compiled", "model", "--random"},
        Args{"run", aoti("plain.pt2"), "--compiled", "nope", "--inputs", aoti("inputs.pt")},
        Args{"run", aoti("plain.pt2"), "--compiled", "model", "--inputs", aoti("inputs.pt"), "--dtype", "bf16"},
        Args{"run", aoti("plain.pt2"), "--compiled", "model", "--random", "--inputs", aoti("inputs.pt"),
             "--program-file", aoti("program.pt2")}}) {
    r = run_exportlens(args);
    VERIFY_MSG(r.code == 2, join(args, " ") + " -> " + std::to_string(r.code) + ": " + r.err);
    VERIFY_MSG(r.err.starts_with("exportlens run: error: "), r.err);
  }
  // The help says plainly what --compiled does.
  r = run_exportlens({"run", "--help"});
  VERIFY(contains(r.out, "LOADS AND RUNS THE PACKAGE'S COMPILED CODE"));
}

// Through the CLI, only --compiled loads the package's library: a library
// whose constructor leaves a file behind, planted as the wrapper, leaves it
// only when the user names the model (and then the loader refuses the
// library in one line: it is not a compiled model).
EL_TEST(cliLoadsTheLibraryOnlyWithCompiled) {
  suite();
  const std::string marker = tmp().file("loaded.txt"), source = tmp().file("planted.c"),
                    library = tmp().file("planted.so"), planted = tmp().file("planted.pt2");
  write_text(source, "#include <stdio.h>\n__attribute__((constructor)) static void loaded(void) {\n"
                     "  FILE* f = fopen(\"" + marker + "\", \"w\"); if (f) { fputs(\"loaded\", f); fclose(f); }\n}\n");
  const ProcessResult cc = run_process("cc", {"-shared", "-fPIC", "-o", library, source}, {}, 60);
  VERIFY_MSG(cc.code == 0, cc.err);
  const ProcessResult made = run_python(
      "import sys, zipfile\n"
      "src, lib, dst = sys.argv[1], sys.argv[2], sys.argv[3]\n"
      "with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, 'w') as b:\n"
      "    for i in a.infolist():\n"
      "        b.writestr(i, open(lib, 'rb').read() if i.filename.endswith('.so') else a.read(i))\n",
      {aoti("plain.pt2"), library, planted});
  VERIFY_MSG(made.code == 0, made.err);
  using Args = std::vector<std::string>;
  for (const Args& args : {Args{"info", planted}, Args{"run", planted, "--inputs", aoti("inputs.pt")},
                           Args{"run", planted, "--program-file", aoti("program.pt2"), "--inputs", aoti("inputs.pt")},
                           Args{"run", planted, "--compiled", "model", "--random"}}) {
    run_exportlens(args);
    VERIFY_MSG(!exists(marker), "loaded by: exportlens " + join(args, " "));
  }
  const ProcessResult r = run_exportlens({"run", planted, "--compiled", "model", "--inputs", aoti("inputs.pt")});
  VERIFY_MSG(exists(marker), r.out + r.err);
  COMPARE(r.code, 1);
  VERIFY_MSG(r.err.starts_with("exportlens run: error: ") && lines_in(r.err) == 1, r.err);
}

// A program with other weights than the compiled model's: outputs beyond tolerance, exit 1.
EL_TEST(cliExitsOneBeyondTolerance) {
  suite();
  const std::string other = tmp().file("other_weights.pt2");
  const ProcessResult made = run_python(
      "import sys, torch\n"
      "sys.path.insert(0, sys.argv[1])\n"
      "from aoti_packages import SmallNet\n"
      "torch.manual_seed(1)\n"
      "torch.export.save(torch.export.export(SmallNet().eval(), (torch.randn(2, 3, 8, 8),)), sys.argv[2])\n",
      {std::string(EXPORTLENS_SOURCE_DIR) + "/tests/oracle", other});
  VERIFY_MSG(made.code == 0, made.err);
  const ProcessResult r = run_exportlens({"run", aoti("plain.pt2"), "--compiled", "model", "--program-file", other,
                                          "--inputs", aoti("inputs.pt")});
  VERIFY_MSG(r.code == 1, std::to_string(r.code) + r.out + r.err);
  VERIFY_MSG(contains(r.out, "NOT all outputs close") && contains(r.out, "beyond tolerance"), r.out);
}
