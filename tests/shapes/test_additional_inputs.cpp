// torch.export.AdditionalInputs against real torch (additional_inputs_cases.py):
// the spec inferred from more example input sets (which dims become
// Dim.DYNAMIC) equals AdditionalInputs.dynamic_shapes; `check FILE
// --additional-inputs` (re-solving the AUTO-exported program) and `example
// PORT --additional-inputs` (tracing the C++ port) give torch.export's
// outcome with those sets: ok with torch's range constraints and symbolic
// input shapes, or an error where torch's export or verify fails.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/runtime/additional_inputs.h"
#include "engine/serde/pt2_reader.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

std::string cases_dir() { return fixtures_dir() + "/additional_inputs"; }

// The C++ gallery port of each case's model.
const std::map<std::string, std::string>& ports() {
  static const std::map<std::string, std::string> m = {
      {"book_mlp_batch", "book_mlp"},          {"book_mlp_rank", "book_mlp"},
      {"dynamic_model_all", "dynamic_model_static"}, {"dynamic_model_some", "dynamic_model_static"},
      {"example2_matmul", "dynamic_shapes_example2"}, {"example2_mismatch", "dynamic_shapes_example2"},
      {"derived_specialized", "derived_dim_example1"}, {"example1_size_one", "dynamic_shapes_example1"},
  };
  return m;
}

/// The case's extra_*.pt files (its additional input sets), by name.
std::vector<std::string> extra_files(const std::string& name) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(cases_dir() + "/" + name)) {
    const std::string f = entry.path().filename().string();
    if (entry.is_regular_file() && f.starts_with("extra_") && f.ends_with(".pt")) files.push_back(f);
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(cases_dir() + "/" + name + "/" + f);
  return out;
}

std::vector<std::string> additional_args(const std::string& name) {
  std::vector<std::string> args;
  for (const auto& f : extra_files(name)) {
    args.push_back("--additional-inputs");
    args.push_back(f);
  }
  return args;
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

json torch_result(const std::string& name) { return read_json(cases_dir() + "/" + name + "/torch.json"); }

// torch's placeholders, user inputs only (the program's parameters are not inputs).
json user_placeholders(const json& torch, const json& ours) {
  json out = json::object();
  const json placeholders = as_object(field(torch, "placeholders"));
  for (const auto& [key, value] : ours.items())
    if (placeholders.contains(key)) out[key] = placeholders[key];
  return out;
}

void compare_outcome(const std::string& name, const ProcessResult& r) {
  const auto torch = torch_result(name);
  if (as_string(field(torch, "status")) != "ok") {
    VERIFY_MSG(r.code != 0, "torch refuses (" + as_string(field(torch, "error_message")).substr(0, 200) +
                                ") but ExportLens accepted: " + r.out.substr(0, 400));
    return;
  }
  VERIFY_MSG(r.code == 0, r.err + r.out.substr(0, 800));
  json ours = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  if (!ours.is_object()) ours = json::object();
  COMPARE(as_string(field(ours, "status")), std::string("ok"));
  COMPARE(as_object(field(ours, "range_constraints")), as_object(field(torch, "range_constraints")));
  const auto shapes = as_object(field(ours, "input_shapes"));
  COMPARE(shapes, user_placeholders(torch, shapes));
}

/// The cases (the manifest's order); each has a gallery port.
std::vector<std::string> rows() {
  const std::string manifest = cases_dir() + "/manifest.json";
  if (!exists(manifest)) FAIL("no AdditionalInputs cases at " + cases_dir());
  std::vector<std::string> out;
  for (const auto& v : read_json(manifest)) {
    const std::string name = as_string(field(v, "name"));
    if (!ports().contains(name)) FAIL("case " + name + " has no gallery port listed");
    out.push_back(name);
  }
  return out;
}

}  // namespace

EL_TEST(inferred_spec_is_torchs) {
  for_each_row(rows(), [](const std::string& name) {
    const auto ep = serde::read_pt2(cases_dir() + "/" + name + "/program.pt2");
    std::vector<symbolic::ExampleSet> sets;
    for (const auto& f : extra_files(name))
      sets.push_back(runtime::file_examples(runtime::read_inputs_file(f), runtime::user_input_names(ep)));
    const auto torch = torch_result(name);
    if (torch.contains("inferred") && torch["inferred"].is_null()) {  // a missing one is not null (compared below)
      VERIFY_THROWS(symbolic::AdditionalInputsError,
                    symbolic::infer_dynamic_shapes(runtime::program_examples(ep), sets));
      return;
    }
    const auto spec = symbolic::infer_dynamic_shapes(runtime::program_examples(ep), sets);
    json ours = json::object();
    for (const auto& [arg, shape] : spec.inputs) {
      json dims = json::array();
      for (const auto& [i, d] : shape.dims)
        dims.push_back(d.kind == symbolic::DimSpec::Kind::Dynamic ? json("DYNAMIC") : json());
      ours[arg] = dims;
    }
    COMPARE(ours, as_object(field(torch, "inferred")));
  });
}

EL_TEST(check_matches_torch_export) {
  for_each_row(rows(), [](const std::string& name) {
    compare_outcome(name, run_exportlens(std::vector<std::string>{"check", cases_dir() + "/" + name + "/program.pt2",
                                                                  "--json"} +
                                         additional_args(name)));
  });
}

EL_TEST(example_trace_matches_torch_export) {
  for_each_row(rows(), [](const std::string& name) {
    compare_outcome(name, run_exportlens(std::vector<std::string>{"example", ports().at(name), "--json"} +
                                         additional_args(name)));
  });
}

EL_TEST(a_spec_and_additional_inputs_together_are_a_usage_error) {
  const auto r = run_exportlens({"check", cases_dir() + "/book_mlp_batch/program.pt2", "--spec",
                                 "dynamic_shapes = None", "--additional-inputs",
                                 cases_dir() + "/book_mlp_batch/extra_0.pt"});
  COMPARE(r.code, 2);
  VERIFY_MSG(contains(r.err, "--additional-inputs infers the spec"), r.err);
}
