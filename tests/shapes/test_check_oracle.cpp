// Re-solving dynamic_shapes specs on AUTO-exported programs against
// torch.export's own outcome for each spec (tests/oracle/check_cases.py):
// status; for violations torch's whole message (violated items, guards,
// suggested fixes) exactly; for successes the range constraints and input
// shapes. The cases are the seeds' examples plus one per op probe with every
// dim a fresh named Dim (so every op's guards are checked against torch's).
// Every case runs twice: as the product solves a .pt2 (the shape rules plus
// the guards the file recorded, replayed), and with the shape rules alone, so
// a rule that stops emitting torch's guards fails even where the file's
// recorded guards would have covered for it. The cases that need the file's
// guards (user code branching on sizes, and the op guards the rules do not
// make yet) are listed in support/known_differences.h ("rules only"), and
// must differ without them. Symbols are compared up to
// a consistent renaming (a bijection read off the input shapes), although
// ExportLens names symbols the way torch 2.13 does (s<sha256 % 100>), so the
// renaming is the identity in practice.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <thread>

#include "engine/ops/program_solver.h"
#include "engine/ops/spec_json.h"
#include "engine/serde/pt2_reader.h"
#include "engine/symbolic/python_printer.h"
#include "support/check_compare.h"
#include "support/known_differences.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/fixtures.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;
using symbolic::Expr;

namespace {

std::string cases_dir() { return fixtures_dir() + "/check_cases"; }

json case_meta(const std::string& name) { return read_json(cases_dir() + "/" + name + "/meta.json"); }

std::vector<std::string> case_names() {
  const std::string manifest = cases_dir() + "/manifest.json";
  if (!exists(manifest)) FAIL("no check cases at " + cases_dir() + " (build check_case_fixtures)");
  std::vector<std::string> out;
  for (const auto& v : read_json(manifest)) out.push_back(as_string(field(v, "name")));
  return out;
}


/// Programs are read and prepared once per model.
// As `exportlens check` reads a program: without its weights and example
// inputs (a dataclass program's example inputs pickle its class, which the
// reader's unpickler does not know; solving needs neither).
ir::ExportedProgram read_program(const std::string& program) {
  serde::ReadOptions options;
  options.load_weights = false;
  return serde::read_pt2(cases_dir() + "/" + program, "", options);
}

const ops::PreparedProgram& prepared(const std::string& program) {
  struct Entry {
    ir::ExportedProgram ep;
    std::unique_ptr<ops::PreparedProgram> prepared;
  };
  static std::map<std::string, std::unique_ptr<Entry>> cache;
  auto& e = cache[program];
  if (!e) {
    e = std::make_unique<Entry>();
    e->ep = read_program(program);
    e->prepared = std::make_unique<ops::PreparedProgram>(e->ep);
  }
  return *e->prepared;
}

/// How a case is solved: as the product does (rules + the file's recorded
/// guards), or with the shape rules alone.
enum class Guards { Replayed, RulesOnly };

ops::SolveResult solve_case(const json& meta, Guards guards = Guards::Replayed) {
  ops::SolveOptions options;
  options.replay_recorded_guards = guards == Guards::Replayed;
  return ops::solve(prepared(as_string(field(meta, "program"))), as_string(field(meta, "spec")), options);
}


/// A node's value as the file records it, in SymValue::str()'s form ("" if none).
std::string file_value(const ir::ValueInfo& v) {
  if (const ir::TensorMeta* t = v.tensor()) return t->annotation();
  if (const ir::SymInt* s = v.sym_int()) return "Sym(" + s->expr.str() + ")";
  if (const ir::ValueTuple* tup = v.tuple()) {
    std::string s = "(";
    for (size_t i = 0; i < tup->size(); ++i) {
      const std::string item = file_value((*tup)[i]);
      if (item.empty()) return "";
      s += (i ? ", " : "") + item;
    }
    return s + ")";
  }
  return "";
}

/// A data row: a case (or program) solved one way.
struct GuardsRow {
  std::string name;  // the row's name
  std::string subject;
  Guards guards;
};

std::vector<GuardsRow> both_ways(const std::vector<std::string>& subjects) {
  std::vector<GuardsRow> rows;
  for (const auto& n : subjects) {
    rows.push_back({n + "/replayed", n, Guards::Replayed});
    rows.push_back({n + "/rules_only", n, Guards::RulesOnly});
  }
  return rows;
}

}  // namespace

EL_TEST(matches_torch) {
  for_each_row(both_ways(case_names()), [](const GuardsRow& row) {
    const std::string& name = row.subject;
    const json meta = case_meta(name);
    const ops::SolveResult r = solve_case(meta, row.guards);
    const std::string difference = solve_difference(r, meta);
    if (row.guards == Guards::RulesOnly) {
      if (const KnownDifference* needs = known_difference("check", name, "rules only")) {
        VERIFY_MSG(!difference.empty(),
                   "the shape rules alone now give torch's outcome: drop " + name + " from known_differences.h");
        info(std::string("needs the file's guards (") + needs->reason +
             "): " + difference.substr(0, difference.find('\n')));
        return;
      }
    }
    VERIFY_MSG(difference.empty(), difference);
  });
}

// torch's refine_dynamic_shapes_from_suggested_fixes and ExportLens' own
// "apply fixes" give the same spec, and re-solving it gives torch's outcome.
EL_TEST(suggested_fixes_paste_back_like_torch) {
  std::vector<std::string> rows;
  for (const auto& n : case_names())
    if (case_meta(n).contains("refined_from")) rows.push_back(n);
  for_each_row(rows, [](const std::string& name) {
    const json refined = case_meta(name);
    const json original = case_meta(as_string(field(refined, "refined_from")));
    const ops::SolveResult first = solve_case(original);
    VERIFY(!first.fixed_spec_text.empty());
    const auto mine = symbolic::parse_dynamic_shapes(first.fixed_spec_text);
    const auto theirs = symbolic::parse_dynamic_shapes(as_string(field(refined, "spec")));
    COMPARE(mine.inputs.size(), theirs.inputs.size());
    // Each input's spec, nested ones item by item (a tuple argument's fixes stay a tuple of specs).
    const std::function<void(const symbolic::InputShapeSpec&, const symbolic::InputShapeSpec&)> same =
        [&](const symbolic::InputShapeSpec& x, const symbolic::InputShapeSpec& y) {
          COMPARE(x.container, y.container);
          COMPARE(x.items.size(), y.items.size());
          for (size_t k = 0; k < x.items.size(); ++k) {
            COMPARE(x.items[k].first, y.items[k].first);
            same(x.items[k].second, y.items[k].second);
          }
          const auto& a = x.dims;
          const auto& b = y.dims;
          COMPARE(a.size(), b.size());
          for (size_t k = 0; k < a.size(); ++k) {
            VERIFY(a[k].second.kind == b[k].second.kind);
            COMPARE(symbolic::DynamicShapesSpec::debug_name(a[k].second),
                    symbolic::DynamicShapesSpec::debug_name(b[k].second));
            COMPARE(a[k].second.value, b[k].second.value);
            if (!a[k].second.dim.empty()) VERIFY(mine.dims.at(a[k].second.dim) == theirs.dims.at(b[k].second.dim));
          }
        };
    for (size_t i = 0; i < mine.inputs.size(); ++i) {
      COMPARE(mine.inputs[i].first, theirs.inputs[i].first);
      same(mine.inputs[i].second, theirs.inputs[i].second);
    }
    const ops::SolveResult again = ops::solve(prepared(as_string(field(refined, "program"))), mine);
    COMPARE(std::string(ops::status_name(again.status)), as_string(field(refined, "status")));
  });
}

// ---- provenance: the guard and node behind a violation -------------------------
// A spec torch refuses (it does not mirror a nested input, a tensor's spec
// is not a shape, ...) is refused with torch's message, path included.
EL_TEST(refusals_are_torchs) {
  std::vector<std::string> rows;
  for (const auto& n : case_names())
    if (as_string(field(case_meta(n), "status")) == "error") rows.push_back(n);
  for_each_row(rows, [](const std::string& name) {
    const json meta = case_meta(name);
    const ops::SolveResult r = solve_case(meta);
    COMPARE(r.status, ops::SolveStatus::Error);
    COMPARE(r.error_kind, std::string("spec"));
    // torch's text without its pointer to the docs; ours without the "dynamic_shapes: " of a spec error
    std::string theirs = as_string(field(meta, "message"));
    if (const size_t docs = theirs.find("For more information about this error"); docs != std::string::npos)
      theirs = theirs.substr(0, docs);
    theirs = trimmed(theirs);
    const std::string mine = r.message;
    VERIFY_MSG(mine.starts_with("dynamic_shapes: "), mine);
    COMPARE(trimmed(mine.substr(16)), theirs);
  });
}

// A program whose arguments are tuples, lists, dicts or dataclasses: its
// inputs are the in_spec's leaves, named as torch's pytree paths name them
// (the ok cases compare the shapes by these names), and the guards torch
// recorded for them replay (Dim.AUTO everywhere, in the recorded spec's
// nested form, gives the file's guards).
EL_TEST(nested_programs_read_their_pytree) {
  const auto rows = both_ways({"nested_tuple", "nested_list", "nested_dict", "nested_dataclass", "nested_kwargs"});
  for_each_row(rows, [](const GuardsRow& row) {
    const std::string& program = row.subject;
    const Guards guards = row.guards;
    const auto& p = prepared("programs/" + program + ".pt2");
    VERIFY(p.input_tree());
    std::vector<std::string> names;
    for (const auto& in : p.inputs()) names.push_back(in.display_name());
    std::vector<std::string> theirs;  // torch's names, from a case on this program that exported
    for (const auto& n : case_names()) {
      const json meta = case_meta(n);
      if (as_string(field(meta, "model")) != program || as_string(field(meta, "status")) != "ok") continue;
      const json shapes = as_object(field(meta, "input_shapes"));
      for (const auto& [key, value] : shapes.items()) theirs.push_back(key);
      break;
    }
    VERIFY(!theirs.empty());
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    std::sort(theirs.begin(), theirs.end());
    COMPARE(sorted, theirs);
    ops::SolveOptions options;
    options.replay_recorded_guards = guards == Guards::Replayed;
    // Every dim Dim.AUTO, as the program was exported: the recorded spec mirrors the arguments.
    symbolic::DynamicShapesSpec all_auto = p.recorded_spec();
    for (auto& [name, in] : all_auto.inputs) {
      VERIFY(name != "x" || program != "nested_dict" || in.container);
      symbolic::DynamicShapesSpec::for_each_dim(in, [](symbolic::DimSpec& d) { d.kind = symbolic::DimSpec::Kind::Auto; });
    }
    const ops::SolveResult r = ops::solve(p, all_auto, options);
    COMPARE(r.status, ops::SolveStatus::Ok);
    VERIFY_MSG(r.diagnostics.empty(), r.diagnostics.empty() ? "" : r.diagnostics.front().message.c_str());
    std::vector<std::string> mine, recorded;
    for (const auto& g : r.guards) {
      if (guards == Guards::RulesOnly) VERIFY(g.origin.kind != symbolic::Provenance::Kind::RecordedGuard);
      mine.push_back(g.python);
    }
    for (const auto& g : p.program().guards_code) recorded.push_back(g);
    COMPARE(mine, recorded);
  });
}

EL_TEST(violations_name_their_guards) {
  const ops::SolveResult r = solve_case(case_meta("dynamic_model_named"));
  COMPARE(r.status, ops::SolveStatus::Violation);
  std::map<std::string, const ops::ViolationInfo*> by_name;
  for (const auto& v : r.violations) by_name[v.debug_name] = &v;
  const auto* w1 = by_name.at("w1");
  COMPARE(w1->kind, std::string("specialized"));
  VERIFY(w1->origin);
  COMPARE(w1->origin->node, std::string("linear"));
  VERIFY(w1->origin->location.starts_with("seed_models.py:"));  // the user's line, not torch's
  const auto* y1 = by_name.at("y1");
  COMPARE(y1->origin->node, std::string("add"));
  COMPARE(y1->origin->rule, std::string("broadcast"));
  // User-code guards come from the program's recorded guards.
  const ops::SolveResult v2 = solve_case(case_meta("dynamic_model_v2_named"));
  bool saw_recorded = false;
  for (const auto& v : v2.violations)
    if (v.kind == "range_not_satisfied" && v.origin &&
        v.origin->kind == symbolic::Provenance::Kind::RecordedGuard)
      saw_recorded = true;
  VERIFY(saw_recorded);
}

// The fake conv's guards come from the conv rule itself (no file guards):
// a kernel larger than the Dim's minimum names the conv and the check, and
// a conv converted to channels-last records its stride-order checks there.
EL_TEST(conv_guards_name_the_conv_rule) {
  const ops::SolveResult small = solve_case(case_meta("conv_kernel5_small_min"), Guards::RulesOnly);
  COMPARE(small.status, ops::SolveStatus::Violation);
  bool saw_kernel = false;
  for (const auto& v : small.violations)
    if (v.origin && contains(v.origin->rule, "input size >= kernel size")) {
      COMPARE(v.origin->node, std::string("conv2d"));
      saw_kernel = true;
    }
  VERIFY(saw_kernel);
  const ops::SolveResult norm = solve_case(case_meta("strided_conv_norm_named"), Guards::RulesOnly);
  int stride_order = 0;
  for (const auto& g : norm.guards)
    if (contains(g.origin.rule, "channels-last output")) {
      VERIFY_MSG(contains(g.expr, "Max(1, "), g.expr);
      ++stride_order;
    }
  COMPARE(stride_order, 8);  // as torch 2.13 records them: 2 for each of the first two down convs, 4 for the last
}

// With every dim Dim.AUTO, the guards ExportLens emits are the guards torch
// recorded in the program (guards_code), in the same order and text.
// DynamicModel's guards all come from its ops, so the shape rules alone
// must emit them; DynamicModelV2 adds user-code guards, which only the
// file's replayed guards carry.
EL_TEST(auto_guards_equal_the_recorded_ones) {
  const std::vector<GuardsRow> rows = {
      {"dynamic_model_auto/rules_only", "dynamic_model_auto", Guards::RulesOnly},
      {"dynamic_model_auto/replayed", "dynamic_model_auto", Guards::Replayed},
      {"dynamic_model_v2_auto/replayed", "dynamic_model_v2_auto", Guards::Replayed},
  };
  for_each_row(rows, [](const GuardsRow& row) {
    const json meta = case_meta(row.subject);
    const auto& program = prepared(as_string(field(meta, "program")));
    const ops::SolveResult r = solve_case(meta, row.guards);
    if (row.guards == Guards::RulesOnly)
      for (const auto& g : r.guards)
        VERIFY_MSG(g.origin.kind != symbolic::Provenance::Kind::RecordedGuard, g.python);
    std::vector<std::string> mine, recorded;
    for (const auto& g : r.guards) mine.push_back(g.python);
    for (const auto& g : program.program().guards_code) recorded.push_back(g);
    COMPARE(mine, recorded);
  });
}

// The seed's symbolic input shapes: w: [s0, 5], x: [s2], y: [s3, s2], z: [s2*s3].
EL_TEST(seed_dynamic_model_shapes) {
  const ops::SolveResult r = solve_case(case_meta("dynamic_model_auto"));
  std::map<std::string, std::vector<std::string>> shapes;
  for (const auto& in : r.input_shapes) shapes[in.name] = in.dims;
  COMPARE(shapes["w"][1], std::string("5"));
  COMPARE(shapes["y"][1], shapes["x"][0]);
  COMPARE(Expr::parse(shapes["z"][0]), Expr::parse(shapes["x"][0]) * Expr::parse(shapes["y"][0]));
}

// The shape rules against torch's own meta values: re-solving an AUTO-exported
// program with the spec it was exported with gives every node the symbolic
// shape torch recorded for it.
EL_TEST(node_shapes_equal_torch) {
  std::vector<std::string> rows;  // the programs' file names, sorted
  for (const auto& entry : std::filesystem::directory_iterator(cases_dir() + "/programs")) {
    const std::string f = entry.path().filename().string();
    if (entry.is_regular_file() && !f.starts_with(".") && entry.path().extension() == ".pt2") rows.push_back(f);
  }
  std::sort(rows.begin(), rows.end());
  for_each_row(rows, [](const std::string& f) {
    const std::string program = "programs/" + f;
    const auto& p = prepared(program);
    const ops::SolveResult r = ops::solve(p, p.recorded_spec());
    COMPARE(r.status, ops::SolveStatus::Ok);
    std::map<std::string, std::string> mine;
    for (const auto& n : r.node_shapes) mine[n.node] = n.value;
    std::vector<std::string> differences;
    for (const ir::Node* n : p.program().graph().nodes()) {
      if (n->op != ir::OpKind::CallFunction) continue;
      const std::string theirs = file_value(n->value);
      if (theirs.empty()) continue;
      if (mine[n->name] != theirs)
        differences.push_back(n->name + " (" + n->target.qualified() + "): ExportLens " + mine[n->name] +
                              ", torch " + theirs);
    }
    VERIFY_MSG(differences.empty(), join(differences, "\n"));
  });
}

// Every case's spec survives Python -> model -> JSON -> model -> Python.
EL_TEST(spec_forms_round_trip) {
  for (const auto& n : case_names()) {
    const auto spec = symbolic::parse_dynamic_shapes(as_string(field(case_meta(n), "spec")));
    const auto back = ops::spec_from_json(ops::spec_to_json(spec));
    COMPARE(symbolic::print_dynamic_shapes(back), symbolic::print_dynamic_shapes(spec));
    VERIFY_MSG(symbolic::parse_dynamic_shapes(symbolic::print_dynamic_shapes(spec)) == spec, n);
  }
}

// A program's solves share its memo (symbolic/solve_memo.h): what one
// solve kept must not change another's outcome. Every case solved on the
// program the other tests warmed (many specs before it) equals the same
// case on a program prepared afresh, in everything the CLI's --json prints;
// and two programs solved on two threads at once give what they give alone.
EL_TEST(a_programs_memo_changes_no_outcome) {
  auto outcome = [](ops::SolveResult r) {
    r.solve_ms = 0;
    return ops::to_json(r);
  };
  std::map<std::string, std::string> first_spec;  // per program: the case the threads solve
  for (const auto& n : case_names()) {
    const json meta = case_meta(n);
    const std::string program = as_string(field(meta, "program"));
    const ir::ExportedProgram ep = read_program(program);
    const ops::PreparedProgram fresh(ep);
    const std::string spec = as_string(field(meta, "spec"));
    COMPARE(outcome(ops::solve(prepared(program), spec)), outcome(ops::solve(fresh, spec)));
    first_spec.emplace(program, spec);
  }
  VERIFY(first_spec.size() >= 2);
  const auto a = first_spec.begin(), b = std::next(first_spec.begin());
  const ops::PreparedProgram& pa = prepared(a->first);
  const ops::PreparedProgram& pb = prepared(b->first);
  const std::string alone_a = outcome(ops::solve(pa, a->second)), alone_b = outcome(ops::solve(pb, b->second));
  // Two programs at once, and the first one twice at once (the second solve borrows a fresh memo).
  std::string together[3];
  std::thread threads[3] = {
      std::thread([&] { for (int i = 0; i < 3; ++i) together[0] = outcome(ops::solve(pa, a->second)); }),
      std::thread([&] { for (int i = 0; i < 3; ++i) together[1] = outcome(ops::solve(pb, b->second)); }),
      std::thread([&] { for (int i = 0; i < 3; ++i) together[2] = outcome(ops::solve(pa, a->second)); }),
  };
  for (auto& t : threads) t.join();
  COMPARE(together[0], alone_a);
  COMPARE(together[1], alone_b);
  COMPARE(together[2], alone_a);
}

EL_TEST(bad_spec_is_an_error) {
  const ops::SolveResult r = ops::solve(prepared("programs/foo.pt2"), "dynamic_shapes = {\"x\": (dx, None)}");
  COMPARE(r.status, ops::SolveStatus::Error);
  COMPARE(r.error_kind, std::string("spec"));
  VERIFY(contains(r.message, "line 1, column 25"));
  const ops::SolveResult keys = ops::solve(prepared("programs/foo.pt2"), "dynamic_shapes = {\"a\": None, \"y\": None}");
  COMPARE(keys.status, ops::SolveStatus::Error);
  VERIFY(contains(keys.message, "must be the arg names ['x', 'y']"));
}
