// The .pt2 writer against real torch: every program ExportLens holds — each
// oracle fixture as read, each lowered to the functional and the Core ATen IR
// (and with the seed's custom table), each gallery port traced from C++ — is
// saved, and torch.export.load (2.13) reads it back: print(ep) there equals
// `exportlens print` of the saved file (and, for a fixture, torch's own
// print.txt), ep.module()(*inputs) there equals torch's outputs (fixtures,
// lowered programs) or ExportLens' run (traced programs), ep.example_inputs
// holds the inputs, and the recorded guards survive. One Python process loads
// them all (tests/engine/load_saved.py).
#include "support/torch_values.h"

#include "engine/ir/printer.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/pt2_writer.h"
#include "engine/trace/gallery/gallery_models.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;

namespace {


struct Case {
  std::string label;
  ir::ExportedProgram program;
  std::string inputs;            // torch.save'd inputs (empty: run on ep.example_inputs)
  std::string expected_print;    // torch's own print of the same program (fixtures as read)
  std::string expected_outputs;  // torch's outputs on `inputs` (empty: compare with ExportLens' run)
};

// What the QtTest suite's initTestCase built: every case saved, and torch's
// result.json of loading each.
struct State {
  TempDir tmp;
  std::vector<Case> cases;
  std::map<std::string, json> results;

  std::string saved(const std::string& label) const { return tmp.file(label + ".pt2"); }
  std::string torch_dir(const std::string& label) const { return tmp.file("torch/" + label); }
};

void build(State& s) {
  serde::ReadOptions with_weights;
  for (const auto& name : fixtures_with_status("ok")) {
    auto ep = serde::read_pt2(fixture_file(name, "program.pt2"), "", with_weights);
    std::vector<Case> lowered_cases;
    for (auto [level, tag] : {std::pair{passes::IrLevel::Functional, "functional"}, {passes::IrLevel::Core, "core"}}) {
      // Lowering has its own suite; a program it cannot lower whole (as torch
      // cannot lower bad2_strict's mutated constant) is not this suite's subject.
      passes::LoweringReport report;
      std::optional<ir::ExportedProgram> lowered_or;
      try {
        lowered_or = passes::lower_to(ep, level, nullptr, &report);
      } catch (const passes::DecompositionError&) {
        continue;
      }
      if (!report.warnings.empty()) continue;
      auto lowered = std::move(*lowered_or);
      // Dropout in training mode draws new numbers on each run; its outputs are not comparable.
      const bool random = name.ends_with("_train");
      lowered_cases.push_back({name + "@" + tag, std::move(lowered), fixture_file(name, "inputs.pt"), "",
                               random ? "" : fixture_file(name, "outputs.pt")});
    }
    s.cases.push_back({name, std::move(ep), fixture_file(name, "inputs.pt"), fixture_file(name, "print.txt"),
                       fixture_file(name, "outputs.pt")});
    for (auto& c : lowered_cases) s.cases.push_back(std::move(c));
  }
  {
    const auto ep = serde::read_pt2(fixture_file("decomp_example", "program.pt2"), "", with_weights);
    const auto table = passes::decomposition_table("double_conv2d");
    s.cases.push_back({"decomp_example@double_conv2d", passes::lower_to(ep, passes::IrLevel::Core, &table),
                       fixture_file("decomp_example", "inputs.pt"), "",
                       fixture_file("decomp_example", "core_double_conv2d_outputs.pt")});
  }
  int traced = 0;
  for (const auto& m : trace::gallery_models()) {
    auto out = trace::trace_gallery_model(m.name);
    if (!out.program) continue;
    s.cases.push_back({"gallery_" + m.name, std::move(*out.program), "", "", ""});
    ++traced;
  }
  VERIFY_MSG(traced >= 20, "only " + std::to_string(traced) + " gallery ports traced");

  json list = json::array();
  for (const auto& c : s.cases) {
    try {
      serde::write_pt2(c.program, s.saved(c.label), runtime::pt2_write_options());
    } catch (const std::exception& e) {
      FAIL(c.label + ": " + e.what());
    }
    list.push_back(json{{"pt2", s.saved(c.label)},
                        {"inputs", c.inputs.empty() ? json(nullptr) : json(c.inputs)},
                        {"out", s.torch_dir(c.label)}});
  }
  const std::string cases_file = s.tmp.file("cases.json");
  write_text(cases_file, list.dump(4));
  const auto p = run_process(EXPORTLENS_PYTHON, {std::string(EXPORTLENS_SOURCE_DIR) + "/tests/engine/load_saved.py",
                                                 cases_file},
                             {}, 900);
  std::cerr << p.err;  // the QtTest suite forwarded the script's stderr
  COMPARE(p.code, 0);
  for (const auto& c : s.cases) s.results[c.label] = read_json(s.torch_dir(c.label) + "/result.json");
  info(std::to_string(s.cases.size()) + " programs saved and loaded by torch");
}

// Built once, on first use; a failure building it fails every test that uses it
// (as a failed initTestCase did), without building it again.
const State& state() {
  static SetUp<State> once;
  return once.get(build);
}

const Case& find(const std::string& label) {
  for (const auto& c : state().cases)
    if (c.label == label) return c;
  FAIL("no case " + label);
}

// Every case, by label (the rows of most tests).
std::vector<std::string> labels() {
  std::vector<std::string> out;
  for (const auto& c : state().cases) out.push_back(c.label);
  return out;
}

}  // namespace

EL_TEST(torch_loads) {
  for_each_row(labels(), [](const std::string& label) {
    const auto& r = state().results.at(label);
    VERIFY_MSG(as_bool(field(r, "loaded")), as_string(field(r, "error")));
  });
}

// print(ep) of torch's load equals `exportlens print` of the same file.
EL_TEST(torch_print_equals_exportlens_print) {
  for_each_row(labels(), [](const std::string& label) {
    VERIFY(as_bool(field(state().results.at(label), "loaded")));
    const auto back = serde::read_pt2(state().saved(label));
    COMPARE(ir::print_program(back), read_text(state().torch_dir(label) + "/print.txt"));
  });
}

// A fixture saved again is the program torch exported: the same print(ep).
EL_TEST(fixture_round_trip_prints_as_torch) {
  std::vector<std::string> rows;
  for (const auto& c : state().cases)
    if (!c.expected_print.empty()) rows.push_back(c.label);
  for_each_row(rows, [](const std::string& label) {
    VERIFY(as_bool(field(state().results.at(label), "loaded")));
    COMPARE(read_text(state().torch_dir(label) + "/print.txt"), read_text(find(label).expected_print));
  });
}

// ep.module()(*inputs) in torch on the saved file: torch's outputs for the
// program as exported (or lowered by torch), ExportLens' run for traced ones.
EL_TEST(torch_runs_saved_program) {
  for_each_row(labels(), [](const std::string& label) {
    const Case& c = find(label);
    const auto& r = state().results.at(label);
    VERIFY_MSG(as_bool(field(r, "runs")), as_string(field(r, "run_error")) + as_string(field(r, "error")));
    const auto got = load_tuple(state().torch_dir(label) + "/outputs.pt");
    std::vector<c10::IValue> want;
    if (!c.expected_outputs.empty()) {
      want = load_tuple(c.expected_outputs);
    } else if (label.ends_with("_train@functional") || label.ends_with("_train@core")) {
      COMPARE(int(got.size()), int(c.program.signature.user_outputs().size()));
      return;  // training dropout: the outputs' count is what can be compared
    } else {
      try {
        runtime::Interpreter interp(c.program, c10::Device(c10::kCPU));
        want = interp.run(load_tuple(c.inputs.empty() ? state().torch_dir(label) + "/inputs_used.pt" : c.inputs));
      } catch (const std::exception& e) {
        FAIL(std::string("ExportLens cannot run the program to compare with: ") + e.what());
      }
    }
    COMPARE(int(got.size()), int(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const auto err = compare_values(got[i], want[i]);
      VERIFY_MSG(err.empty(), "output " + std::to_string(i) + ": " + err);
    }
  });
}

EL_TEST(example_inputs_survive) {
  for_each_row(labels(), [](const std::string& label) {
    const Case& c = find(label);
    const auto& r = state().results.at(label);
    VERIFY(as_bool(field(r, "loaded")));
    if (c.program.example_inputs)
      VERIFY_MSG(as_bool(field(r, "example_inputs_weights_only")), as_string(field(r, "example_inputs_error")));
    if (c.inputs.empty()) {
      // It ran on them.
      VERIFY_MSG(as_bool(field(r, "runs")), "a traced program's example inputs did not run in torch");
    } else {
      COMPARE(as_string(field(r, "example_inputs")), std::string("matches"));
    }
  });
}

// The guards the trace recorded (what re-solving a stricter spec replays).
EL_TEST(guards_code_survives) {
  for_each_row(labels(), [](const std::string& label) {
    std::vector<std::string> want;
    for (const auto& g : find(label).program.guards_code) want.push_back(g);
    const auto got = as_strings(field(state().results.at(label), "guards_code"));
    COMPARE(got, want);
  });
}

// The schemas the fixtures' saver recorded for their Python-registered ops
// (exportlens_capture.op_schemas: the custom_op example's my_custom_library::custom_op)
// are written back and read again, for the program as read and lowered.
EL_TEST(recorded_op_schemas_survive) {
  int with_schemas = 0;
  for (const auto& c : state().cases) {
    if (c.program.recorded_op_schemas.empty()) continue;
    ++with_schemas;
    const auto back = serde::read_pt2(state().saved(c.label));
    COMPARE(back.recorded_op_schemas.size(), c.program.recorded_op_schemas.size());
    for (size_t i = 0; i < back.recorded_op_schemas.size(); ++i) {
      COMPARE(back.recorded_op_schemas[i].schema, c.program.recorded_op_schemas[i].schema);
      COMPARE(back.recorded_op_schemas[i].tags, c.program.recorded_op_schemas[i].tags);
    }
    const auto sig = back.file_signatures.find("my_custom_library::custom_op");
    VERIFY_MSG(sig != back.file_signatures.end() && sig->second.complete, c.label + ": no recorded signature");
  }
  VERIFY(with_schemas >= 3);  // custom_op as read, and lowered to both levels
}

// Reading the saved file and writing it again gives the same bytes: nothing
// the writer writes is lost by the reader.
EL_TEST(rewrite_is_byte_identical) {
  for_each_row(labels(), [](const std::string& label) {
    const auto back = serde::read_pt2(state().saved(label));
    const std::string folder = state().tmp.file("again");
    std::error_code ignored;
    std::filesystem::create_directories(folder, ignored);
    VERIFY(std::filesystem::is_directory(folder));
    const std::string again = folder + "/" + label + ".pt2";  // the same name: the archive's folder is the stem
    serde::write_pt2(back, again, runtime::pt2_write_options());
    VERIFY(read_text(again) == read_text(state().saved(label)));
  });
}

EL_TEST(unwritable_programs_fail_naming_the_place_and_leave_no_file) {
  // An op neither this process nor the file describes.
  auto ep = serde::read_pt2(fixture_file("book_mlp", "program.pt2"));
  for (ir::Node* n : ep.graph().nodes())
    if (n->op == ir::OpKind::CallFunction) {
      n->target = ir::Target("torch.ops.nowhere.made_up.default");
      break;
    }
  const TempDir tmp;
  const std::string path = tmp.file("bad.pt2");
  try {
    serde::write_pt2(ep, path, runtime::pt2_write_options());
    FAIL("an unknown op was written");
  } catch (const serde::Pt2WriteError& e) {
    VERIFY_MSG(contains(e.what(), "node 'linear'") && contains(e.what(), "nowhere::made_up"), e.what());
  }
  VERIFY(!exists(path));
  // Weights that were never read.
  const auto no_weights =
      serde::read_pt2(fixture_file("book_mlp", "program.pt2"), "", serde::ReadOptions{{}, false});
  try {
    serde::write_pt2(no_weights, path, runtime::pt2_write_options());
    FAIL("a program without its weights was written");
  } catch (const serde::Pt2WriteError& e) {
    VERIFY_MSG(contains(e.what(), "weight 'fc1.weight'"), e.what());
  }
  VERIFY(!exists(path));
  VERIFY(!exists(path + ".partial"));
}
