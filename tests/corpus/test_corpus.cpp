// The real-architecture corpus against torch 2.13 (tests/oracle/corpus_cases.py:
// language models, vision transformers, CNNs, mixture-of-experts, recurrent
// layers and timm's vision zoo, nobody here wrote, and programs of torch's
// higher-order ops and pt2e quantization, exported with Dim.AUTO). Per program and aspect:
//
//   print        print(ep) of the loaded program, byte for byte
//   run          the interpreter's outputs on the oracle's inputs vs ep.module()'s
//   functional   run_decompositions({}): print text and op multiset
//   core         run_decompositions(): print text and op multiset, and the
//                lowered program's outputs vs torch's Core ATen program's
//   saved print  torch's Core ATen program as torch saved it, read: print(ep)
//                as torch.export.load's program prints, byte for byte
//   check        every spec case: status, input shapes and range constraints,
//                or torch's violation message and suggested fixes exactly;
//                and the program's own Dim.AUTO spec ("auto"), whose answer
//                is the range constraints torch exported it with (in its memory)
//
// Where torch's text cannot be matched (a token torch makes from a
// per-process counter), the difference is listed in support/known_differences.h
// (suite "corpus") and compared with that token normalised; the entry must
// still be needed. The suite ends by printing the per-aspect counts.
#include "support/torch_values.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/ir/printer.h"
#include "engine/ops/program_solver.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/serde/pt2_reader.h"
#include "corpus/corpus_fixture.h"
#include "support/check_compare.h"
#include "support/known_differences.h"
#include "support/program_text.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

json checks_of(const std::string& arch) {
  const std::string path = corpus_file(arch, "checks.json");
  if (!exists(path)) FAIL("no checks.json for " + arch);
  return as_array(read_json(path));
}

/// Programs are read once per architecture.
struct Loaded {
  ir::ExportedProgram ep;
  std::unique_ptr<ops::PreparedProgram> prepared;
};
Loaded& loaded(const std::string& arch) {
  static std::map<std::string, std::unique_ptr<Loaded>> cache;
  auto& e = cache[arch];
  if (!e) {
    e = std::make_unique<Loaded>();
    e->ep = serde::read_pt2(corpus_file(arch, "program.pt2"));
  }
  return *e;
}
const ops::PreparedProgram& prepared(const std::string& arch) {
  Loaded& l = loaded(arch);
  if (!l.prepared) l.prepared = std::make_unique<ops::PreparedProgram>(l.ep);
  return *l.prepared;
}

/// Per aspect: rows seen, rows that agree (printed at the end).
std::map<std::string, std::pair<int, int>>& tally() {
  static std::map<std::string, std::pair<int, int>> t;
  return t;
}
struct Count {
  std::string aspect;
  bool agreed = false;
  explicit Count(std::string a) : aspect(std::move(a)) { ++tally()[aspect].first; }
  ~Count() {
    if (agreed) ++tally()[aspect].second;
  }
};

/// The per-aspect counts, printed when the suite ends (whichever tests ran).
const AtSuiteEnd print_summary([] {
  if (tally().empty()) return;
  std::string summary = "corpus agreement with torch 2.13 (rows that agree of rows run):";
  for (const auto& [aspect, counts] : tally()) {
    char line[128];
    std::snprintf(line, sizeof line, "\n  %-22s: %d of %d", aspect.c_str(), counts.second, counts.first);
    summary += line;
  }
  std::printf("INFO   : %s\n", summary.c_str());
});

/// `text` with the tokens torch makes from per-process counters normalised:
/// node numbering after its retrace (renumbered by order of first use, as
/// the lowering suite does) and the `<eval_with_key>.N` file name of an
/// inlined subgraph's generated code.
std::string normalised(const std::string& text) {
  static const std::regex eval_key(R"(<eval_with_key>\.\d+)");
  static const std::regex ident(R"(\b([A-Za-z_][A-Za-z0-9_]*)\b)");
  // A stack-trace comment quotes code with names of its own (an inlined
  // subgraph's `mul = ...`): those are numbered apart from the graph's nodes.
  std::vector<std::string> lines = split(std::regex_replace(text, eval_key, "<eval_with_key>.N"), '\n');
  for (std::string& line : lines)
    if (trimmed(line).starts_with('#')) line = std::regex_replace(line, ident, "comment_$1");
  return renumbered(join(lines, "\n"), false);
}

/// Whether some lowered program differed from torch's only in those tokens
/// (so the normalisation's known_differences entry is still needed).
bool& normalisation_was_needed() {
  static bool needed = false;
  return needed;
}

/// "" when `ours` is torch's text: byte for byte (print), or for a lowered
/// program with the per-process tokens normalised (known_differences.h,
/// "corpus", "lowered programs").
std::string text_difference(const std::string& ours, const std::string& want, bool lowered) {
  if (ours == want) return {};
  if (lowered && normalised(ours) == normalised(want)) {
    normalisation_was_needed() = true;
    return {};
  }
  return "print(ep) differs from torch's" + std::string(lowered ? " (numbering normalised)" : "") + ", " +
         first_difference(lowered ? normalised(ours) : ours, lowered ? normalised(want) : want);
}

/// `text` with every `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// The verdict on one aspect of one program: "" when it passes. A subject
/// listed in known_differences.h ("corpus", aspect "open <aspect>") must
/// still differ (its reason is logged, the row does not count as agreeing);
/// any other difference fails. `agreed` tells whether ExportLens agreed.
std::string verdict(const std::string& subject, const char* aspect, const std::string& difference, bool* agreed) {
  *agreed = difference.empty();
  const KnownDifference* open = known_difference("corpus", subject, std::string("open ") + aspect);
  if (!open) return difference;
  if (difference.empty()) return subject + " (" + aspect + ") now agrees with torch: drop it from known_differences.h";
  std::printf("INFO   : %s (%s) differs, listed: %s\n    %s\n", subject.c_str(), aspect, open->reason,
              replaced(difference.substr(0, 400), "\n", "\n    ").c_str());
  return {};
}

std::string compare_outputs(const std::vector<c10::IValue>& got, const std::vector<c10::IValue>& want) {
  if (got.size() != want.size())
    return std::to_string(got.size()) + " outputs, torch " + std::to_string(want.size());
  for (size_t i = 0; i < want.size(); ++i)
    if (auto err = compare_values(got[i], want[i]); !err.empty()) return "output " + std::to_string(i) + ": " + err;
  return {};
}

std::vector<c10::IValue> run(const ir::ExportedProgram& ep, const std::string& inputs) {
  runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
  return interp.run(load_tuple(inputs));
}

/// A row of lowers_like_torch: an architecture at an IR level.
struct LevelRow {
  std::string name;  // "<arch>/<level>"
  std::string arch, level;
};

/// A row of checks_like_torch: one of an architecture's spec cases.
struct CheckRow {
  std::string name;  // "<arch>/<case>"
  std::string arch;
  size_t index = 0;  // in checks.json; kAutoCase: the program's own spec
};
constexpr size_t kAutoCase = SIZE_MAX;

/// The program's own export as a check case: its Dim.AUTO spec, whose
/// outcome torch gave as the program's range constraints and input shapes.
/// The range constraints of torch's program in its memory (print_original.txt's
/// last line, {u0: VR[1, int_oo], s77: VR[2, int_oo]}) as meta.json writes them:
/// torch.export.save leaves out a symbol no node holds (a while_loop's
/// iteration count), so the loaded program's are not what export answered.
json exported_range_constraints(const std::string& arch) {
  static const std::regex entry(R"(([A-Za-z_]\w*): VR\[(-?\w+), (-?\w+)\])");
  const std::string text = read_text(corpus_file(arch, "print_original.txt"));
  const size_t at = text.rfind("Range constraints: {");
  if (at == std::string::npos) FAIL("no range constraints in " + arch + "'s print_original.txt");
  const std::string line = text.substr(at, text.find('\n', at) - at);
  json out = json::object();
  auto bound = [](const std::string& b) { return b.find("oo") != std::string::npos ? json(b) : json(std::stoll(b)); };
  for (auto it = std::sregex_iterator(line.begin(), line.end(), entry); it != std::sregex_iterator(); ++it)
    out[(*it)[1].str()] = json::array({bound((*it)[2].str()), bound((*it)[3].str())});
  return out;
}

json auto_case(const std::string& arch) {
  const json meta = as_object(read_json(corpus_file(arch, "meta.json")));
  const json placeholders = as_object(field(meta, "placeholders"));
  json shapes = json::object();
  for (const auto& name : as_array(field(meta, "arg_names")))
    shapes[as_string(name)] = field(placeholders, as_string(name));
  return {{"name", "auto"}, {"spec", field(meta, "dynamic_shapes")}, {"status", "ok"}, {"input_shapes", shapes},
          {"range_constraints", exported_range_constraints(arch)}};
}

}  // namespace

EL_TEST(prints_like_torch) {
  for_each_row(corpus_architectures(), [](const std::string& arch) {
    Count c("print");
    const std::string d =
        text_difference(ir::print_program(loaded(arch).ep), read_text(corpus_file(arch, "print.txt")), false);
    const std::string v = verdict(arch, "print", d, &c.agreed);
    VERIFY_MSG(v.empty(), v);
  });
}

// torch's own Core ATen program, saved by torch and read back, prints as
// torch.export.load's does: the reader on lowered programs (symbolic-size
// nodes, auto_functionalized_v2 and its operator operand, the as_none
// getitems torch makes for None results, ...), not only on exported ones.
EL_TEST(reads_torch_saved_lowering_like_torch) {
  int read = 0;
  for_each_row(corpus_architectures(), [&](const std::string& arch) {
    const json core = as_object(field(read_json(corpus_file(arch, "decomp.json")), "core"));
    if (!core.contains("saved")) return;  // torch's own lowering failed: nothing saved
    const json saved = as_object(field(core, "saved"));
    if (saved.contains("error")) {
      info(arch + ": torch cannot read back the lowering it saved: " + as_string(field(saved, "error")));
      return;
    }
    Count c("saved core print");
    ++read;
    std::string d;
    try {
      d = text_difference(ir::print_program(serde::read_pt2(corpus_file(arch, as_string(field(saved, "program"))))),
                          read_text(corpus_file(arch, as_string(field(saved, "print")))), false);
    } catch (const std::exception& e) {
      d = e.what();
    }
    const std::string v = verdict(arch + "/core", "saved print", d, &c.agreed);
    VERIFY_MSG(v.empty(), v);
  });
  VERIFY(read > 0);
}

EL_TEST(runs_like_torch) {
  for_each_row(corpus_architectures(), [](const std::string& arch) {
    Count c("run");
    std::string d;
    try {
      d = compare_outputs(run(loaded(arch).ep, corpus_file(arch, "inputs.pt")),
                          load_tuple(corpus_file(arch, "outputs.pt")));
    } catch (const std::exception& e) {
      d = e.what();
    }
    const std::string v = verdict(arch, "run", d, &c.agreed);
    VERIFY_MSG(v.empty(), v);
  });
}

EL_TEST(lowers_like_torch) {
  std::vector<LevelRow> rows;
  for (const auto& a : corpus_architectures())
    for (const char* level : {"functional", "core"}) rows.push_back({a + "/" + level, a, level});
  for_each_row(rows, [](const LevelRow& row) {
    const std::string& arch = row.arch;
    const std::string& level = row.level;
    const json record = as_object(field(read_json(corpus_file(arch, "decomp.json")), level));
    Count text(level + " text"), multiset(level + " op multiset");
    std::optional<ir::ExportedProgram> ours;
    std::string error;
    try {
      ours = passes::lower_to(loaded(arch).ep, *passes::parse_ir_level(level));
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (as_string(field(record, "status")) == "error") {  // torch's lowering refuses the program: so must ours
      const std::string v = verdict(arch + "/" + level, "lowering",
                                    ours ? "torch refuses to lower it; ExportLens lowered it" : "", &text.agreed);
      multiset.agreed = text.agreed;
      VERIFY_MSG(v.empty(), v);
      return;
    }
    const std::string subject = arch + "/" + level;
    if (!ours) {
      const std::string v = verdict(subject, "lowering", error, &text.agreed);
      VERIFY_MSG(v.empty(), v);
      return;
    }
    std::multiset<std::string> our_ops;
    collect_ops(ours->graph_module, our_ops);
    const auto torch_ops = json_ops(as_array(field(record, "ops")));
    const std::string ops_difference =
        our_ops == torch_ops
            ? std::string()
            : "op multisets differ\nours:\n" + describe(our_ops) + "torch:\n" + describe(torch_ops);
    const std::string v_ops = verdict(subject, "ops", ops_difference, &multiset.agreed);
    VERIFY_MSG(v_ops.empty(), v_ops);
    const std::string ours_text = ir::print_program(*ours), want = read_text(corpus_file(arch, level + ".txt"));
    std::string d = text_difference(ours_text, want, true);
    if (known_difference("corpus", subject, "file round trip")) {  // compared as torch prints the file's program
      auto as_read = [](const std::string& t) { return without_unbacked_ranges(operand_containers_as_lists(t)); };
      d = !d.empty() ? text_difference(as_read(ours_text), as_read(want), true)
                     : subject + " prints as torch's program in memory does now: drop it from known_differences.h";
    }
    const std::string v_text = verdict(subject, "text", d, &text.agreed);
    VERIFY_MSG(v_text.empty(), v_text);
    if (level == "core" && record.contains("outputs")) {
      Count run_core("core run");
      std::string o;
      try {
        o = compare_outputs(run(*ours, corpus_file(arch, "inputs.pt")),
                            load_tuple(corpus_file(arch, "core_outputs.pt")));
      } catch (const std::exception& e) {
        o = e.what();
      }
      const std::string v = verdict(subject, "run", o, &run_core.agreed);
      VERIFY_MSG(v.empty(), v);
    }
  });
}

EL_TEST(checks_like_torch) {
  std::vector<CheckRow> rows;
  for (const auto& a : corpus_architectures()) {
    const json cases = checks_of(a);
    for (size_t i = 0; i < cases.size(); ++i) rows.push_back({a + "/" + as_string(field(cases[i], "name")), a, i});
    rows.push_back({a + "/auto", a, kAutoCase});
  }
  for_each_row(rows, [](const CheckRow& row) {
    const json cases = checks_of(row.arch);
    const json meta = row.index == kAutoCase ? auto_case(row.arch)
                                             : as_object(row.index < cases.size() ? cases[row.index] : json());
    Count c("check");
    ops::SolveOptions options;
    options.log = false;
    const ops::SolveResult r = ops::solve(prepared(row.arch), as_string(field(meta, "spec")), options);
    const std::string v =
        verdict(row.arch + "/" + as_string(field(meta, "name")), "check", solve_difference(r, meta), &c.agreed);
    VERIFY_MSG(v.empty(), v);
  });
}

// The normalisation of per-process tokens is listed once in known_differences.h; it must still be needed.
EL_TEST(zz_normalisation_is_still_needed) {
  VERIFY(known_difference("corpus", "lowered programs", "per-process tokens"));
  VERIFY_MSG(normalisation_was_needed(), "every lowered program now prints like torch byte for byte: drop the "
                                         "'lowered programs' entry from known_differences.h");
}
