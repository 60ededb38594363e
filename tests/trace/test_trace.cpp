// The C++ tracer against real torch.export. Every gallery example is traced
// with the Python original's weights and inputs (saved by the oracle) and
// compared with torch's result for the same example: op sequence,
// placeholders, graph signature, range constraints, guards (as a normalized
// set), outputs on the same inputs; for failing ones the error type, kind and
// message (suggested fixes included). Where a port is documented to differ
// (the example's notes), the example's own expected outcome is checked and
// the difference logged.
#include <ATen/ops/allclose.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/randn.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/nn/module.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/ir/printer.h"
#include "engine/runtime/interpreter.h"
#include "engine/serde/pt2_reader.h"
#include "engine/symbolic/python_guard_parser.h"
#include "engine/symbolic/shape_env.h"
#include "engine/trace/export.h"
#include "engine/trace/gallery/gallery.h"
#include "engine/trace/trace_facade.h"
#include "support/known_differences.h"
#include "support/torch_values.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/json.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;

namespace {


/// The part of `text` before the first `sep` (all of it when there is none).
std::string before(const std::string& text, const std::string& sep) { return text.substr(0, text.find(sep)); }

/// Copies the Python original's state dict into the port (same names).
std::function<void(torch::nn::Module&)> load_weights(const std::string& fixture) {
  const std::string path = fixture_file(fixture, "state_dict.pt");
  if (!exists(path)) return {};
  return [path](torch::nn::Module& m) {
    const auto dict = torch::jit::pickle_load(read_bytes(path)).toGenericDict();
    torch::NoGradGuard no_grad;
    auto assign = [&](const std::string& name, at::Tensor& t) {
      for (const auto& item : dict)
        if (item.key().toStringRef() == name) return void(t.copy_(item.value().toTensor()));
      FAIL("the oracle's state dict has no " + name);
    };
    for (auto& p : m.named_parameters()) assign(p.key(), p.value());
    for (auto& b : m.named_buffers()) assign(b.key(), b.value());
  };
}

/// str(node.target) in torch: "aten.add.Tensor", "<built-in function getitem>", "cond".
std::string python_target(const ir::Target& t) {
  const std::string& q = t.qualified();
  if (t.is_higher_order()) return t.op_name();
  if (q.rfind("torch.ops.", 0) == 0) return q.substr(10);
  if (q.rfind("_operator.", 0) == 0) return "<built-in function " + q.substr(10) + ">";
  return q;
}

std::vector<std::string> our_ops(const ir::ExportedProgram& ep) {
  std::vector<std::string> ops;
  for (const ir::Node* n : ep.graph().nodes())
    if (n->op == ir::OpKind::CallFunction) ops.push_back(python_target(n->target));
  return ops;
}

/// Guards as a set of canonical relations over input sources.
std::set<std::string> normalized_guards(const std::vector<std::string>& code) {
  std::set<std::string> out;
  for (const auto& g : code) {
    try {
      out.insert(symbolic::canonical_relation(symbolic::parse_python_guard(g)).str());
    } catch (const std::exception&) {
      out.insert("unparsed: " + g);
    }
  }
  return out;
}

std::string join(const std::set<std::string>& s) { return unit::join({s.begin(), s.end()}, "; "); }

std::string kind_for_torch_error(const std::string& type) {
  if (type == "torch._dynamo.exc.Unsupported") return "dynamic_control_flow";
  if (type.ends_with("GuardOnDataDependentSymNode")) return "data_dependent";
  if (type == "torch._dynamo.exc.UserError" || type.ends_with("ConstraintViolationError")) return "constraint";
  return "?";
}

/// torch's message without the trailer export adds ("The error above occurred ...").
std::string message_head(const std::string& m) {
  return trimmed(before(m, "\n\nThe error above occurred when calling torch.export.export"));
}

trace::ExportResult trace_example(const trace::gallery::Example& e, const std::optional<std::string>& spec = {}) {
  const std::string& fixture = e.oracle;
  std::optional<std::vector<c10::IValue>> inputs;
  if (!fixture.empty() && exists(fixture_file(fixture, "inputs.pt")))
    inputs = load_tuple(fixture_file(fixture, "inputs.pt"));
  return trace::export_model(e.def, spec, {}, fixture.empty() ? nullptr : load_weights(fixture), inputs);
}

const trace::gallery::Example& example(const std::string& name) {
  const auto* e = trace::gallery::find(name);
  if (!e) FAIL("no gallery example " + name);
  return *e;
}

std::vector<std::string> nonblank_lines(const std::string& text) {
  std::vector<std::string> out;
  for (const std::string& l : split(text, '\n'))
    if (std::string t = trimmed(l); !t.empty()) out.push_back(std::move(t));
  return out;
}

/// torch's error, part by part. Where torch's text names Python sources or
/// torch-only debugging aids (environment variables, URLs), the parts that
/// carry meaning are compared and the source is checked to be the port's:
///  * constraint errors (UserError, ConstraintViolationError) and any other
///    type: the whole message, character for character;
///  * data-dependent guards: every line before "Caused by:", and a "Caused
///    by" that names the port's C++ file and function;
///  * Dynamo's Unsupported: the graph break's title line, the explanation's
///    first clause, the cond hint, and "from user code:" naming the C++ line.
void compare_failure(const trace::ExportResult& r, const json& meta) {
  const std::string type = as_string(field(meta, "error_type"));
  COMPARE(r.error_type, type);
  COMPARE(r.report.error_kind, kind_for_torch_error(type));
  const std::string want = message_head(as_string(field(meta, "error_message")));
  const std::string got = trimmed(r.report.message);
  const std::string both = "\nExportLens:\n" + got + "\ntorch:\n" + want;
  if (type.ends_with("GuardOnDataDependentSymNode")) {
    COMPARE(nonblank_lines(before(got, "Caused by:")), nonblank_lines(before(want, "Caused by:")));
    const size_t caused = got.find("Caused by:");
    const std::string cause = caused == std::string::npos ? "" : before(got.substr(caused + 10), "\n");
    VERIFY_MSG(contains(cause, ".cpp:") && contains(cause, " in forward)"), both);
  } else if (type == "torch._dynamo.exc.Unsupported") {
    const std::vector<std::string> ours = nonblank_lines(got), theirs = nonblank_lines(want);
    const std::string title = theirs.empty() ? "" : theirs[0];
    VERIFY_MSG(std::find(ours.begin(), ours.end(), title) != ours.end(), "the graph break's title is missing" + both);
    const auto explanation = [](const std::vector<std::string>& lines) {
      for (const std::string& l : lines)
        if (l.starts_with("Explanation:")) return before(l, " (e.g.");
      return std::string();
    };
    VERIFY_MSG(!explanation(theirs).empty() && explanation(ours) == explanation(theirs), both);
    static const std::regex hint("^Hint: Use `torch.cond`");
    VERIFY_MSG(std::count_if(ours.begin(), ours.end(),
                             [](const std::string& l) { return std::regex_search(l, hint); }) == 1,
               both);
    static const std::regex user_code("from user code:\\s+File \".*\\.cpp\", line \\d+, in forward");
    VERIFY_MSG(std::regex_search(got, user_code), both);
  } else {
    // violations and suggested fixes, word for word
    VERIFY_MSG(got == want, both);
  }
}

void compare_program(const ir::ExportedProgram& ep, const std::string& fixture, const json& meta) {
  COMPARE(our_ops(ep), as_strings(field(meta, "ops")));
  // Placeholders and their symbolic shapes.
  const json want_ph = as_object(field(meta, "placeholders"));
  std::vector<std::string> got_names;
  for (const ir::Node* p : ep.graph().placeholders()) {
    got_names.push_back(p->name);
    std::vector<std::string> dims;
    if (const ir::TensorMeta* m = p->value.tensor())
      for (const auto& d : m->sizes) dims.push_back(d.str());
    if (field(want_ph, got_names.back()).is_array()) COMPARE(dims, as_strings(want_ph.at(got_names.back())));
  }
  std::vector<std::string> want_names;  // a JSON object: compare as sets
  for (const auto& [key, value] : want_ph.items()) want_names.push_back(key);
  std::sort(want_names.begin(), want_names.end());
  std::sort(got_names.begin(), got_names.end());
  COMPARE(got_names, want_names);
  // Signature.
  const json sig = as_object(field(meta, "graph_signature"));
  const json want_in = as_array(field(sig, "input_specs"));
  COMPARE(ep.signature.inputs.size(), want_in.size());
  for (size_t i = 0; i < want_in.size(); ++i) {
    const auto& s = ep.signature.inputs[i];
    const json& w = want_in[i];
    COMPARE(std::string(ir::kind_name(s.kind)), as_string(field(w, "kind")));
    COMPARE(s.arg.name, as_string(field(w, "name")));
    COMPARE(s.target.value_or(""), as_string(field(w, "target")));
  }
  const json want_out = as_array(field(sig, "output_specs"));
  std::vector<std::string> output_names, torch_output_names;
  COMPARE(ep.signature.outputs.size(), want_out.size());
  for (size_t i = 0; i < want_out.size(); ++i) {
    const auto& s = ep.signature.outputs[i];
    const json& w = want_out[i];
    COMPARE(std::string(ir::kind_name(s.kind)), as_string(field(w, "kind")));
    COMPARE(s.target.value_or(""), as_string(field(w, "target")));
    output_names.push_back(s.arg.name);
    torch_output_names.push_back(as_string(field(w, "name")));
  }
  if (const KnownDifference* k = known_difference("trace", fixture, "output names")) {
    VERIFY_MSG(output_names != torch_output_names, "the output names are torch's now: drop them from known_differences.h");
    info(std::string("  output names differ: ") + k->reason);
  } else {
    COMPARE(output_names, torch_output_names);
  }
  // Range constraints.
  json got_ranges = json::object();
  for (const auto& [expr, range] : ep.range_constraints.entries) {
    auto bound = [](const symbolic::Expr& e) -> json {
      if (auto v = e.as_integer()) return int64_t(*v);
      return e.str();
    };
    got_ranges[expr.str()] = json::array({bound(range.lower), bound(range.upper)});
  }
  COMPARE(got_ranges, as_object(field(meta, "range_constraints")));
  // Guards: the same set as the .pt2's guards_code.
  const auto torch_ep = serde::read_pt2(fixture_file(fixture, "program.pt2"));
  const auto want_guards = normalized_guards(torch_ep.guards_code);
  const auto got_guards = normalized_guards(ep.guards_code);
  VERIFY_MSG(got_guards == want_guards,
             "guards\n  ExportLens: " + join(got_guards) + "\n  torch:      " + join(want_guards));
  // Outputs on the same inputs.
  if (const KnownDifference* k = known_difference("trace", fixture, "outputs")) {
    info(std::string("  outputs not compared: ") + k->reason);
    return;
  }
  runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
  const auto got = interp.run(load_tuple(fixture_file(fixture, "inputs.pt")));
  const auto want = load_tuple(fixture_file(fixture, "outputs.pt"));
  COMPARE(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const std::string diff = compare_values(got[i], want[i]);
    VERIFY_MSG(diff.empty(), "output " + std::to_string(i) + ": " + diff);
  }
}

}  // namespace

EL_TEST(every_seed_fixture_has_a_port) {
  std::set<std::string> ported;
  for (const auto& e : trace::gallery::examples()) ported.insert(e.oracle);
  for (const std::string status : {"ok", "error"})
    for (const std::string& f : fixtures_with_status(status))
      VERIFY_MSG(ported.count(f), "no gallery port of fixture " + f);
}

EL_TEST(matches_torch) {
  std::vector<std::string> rows;
  for (const auto& e : trace::gallery::examples())
    if (!e.oracle.empty()) rows.push_back(e.def.name);
  for_each_row(rows, [](const std::string& name) {
    const auto& e = example(name);
    const std::string& fixture = e.oracle;
    const json meta = fixture_meta(fixture);
    const bool torch_ok = as_string(field(meta, "status")) == "ok";
    const trace::ExportResult r = trace_example(e);
    const std::string ours = r.ok() ? "ok" : r.report.error_kind;
    std::ostringstream line;
    line << "trace " << name << " -> " << ours << " | torch: " << as_string(field(meta, "status")) << " "
         << as_string(field(meta, "error_type")) << " | " << r.trace_ms << " ms";
    info(line.str());
    // A port differs from torch only where the one list of known differences says so.
    const KnownDifference* known = known_difference("trace", name, "outcome");
    const bool notes_say_differs = e.notes.find("Differs from torch") != std::string::npos;
    VERIFY_MSG(bool(known) == notes_say_differs,
               "the port's notes and tests/support/known_differences.h disagree on whether it differs from torch");
    if (known) {
      COMPARE(ours, e.expected);
      const bool same_as_torch =
          r.ok() == torch_ok && (!r.ok() || our_ops(*r.program) == as_strings(field(meta, "ops")));
      VERIFY_MSG(!same_as_torch, "the port now matches torch: drop it from known_differences.h");
      info(std::string("  known difference: ") + known->reason);
      return;
    }
    VERIFY_MSG(r.ok() == torch_ok, "torch: " + as_string(field(meta, "status")) + " " +
                                       as_string(field(meta, "error_message")).substr(0, 400) +
                                       "\nExportLens: " + ours + " " + r.error_type + ": " + r.report.message);
    COMPARE(ours, e.expected);
    if (!torch_ok)
      compare_failure(r, meta);
    else
      compare_program(*r.program, fixture, meta);
  });
}

/// torch's suggested fixes, pasted back, until it has none left (the oracle's
/// gallery_example3_refixed): the tracer gives the same fixes and messages.
EL_TEST(suggested_fix_round_trip) {
  const json oracle = read_json(fixtures_dir() + "/gallery_example3_refixed/meta.json");
  const auto& e = example("dynamic_shapes_example3_unfixed");
  std::optional<std::string> spec;
  for (const auto& round : as_array(field(oracle, "rounds"))) {
    const trace::ExportResult r = trace_example(e, spec);
    VERIFY(!r.ok());
    const std::string got = r.report.message, want = as_string(field(round, "message"));
    VERIFY_MSG(got == want, "ExportLens:\n" + got + "\ntorch:\n" + want);
    std::vector<std::string> fixes;
    for (const auto& f : r.report.suggested_fixes) fixes.push_back(f.text);
    COMPARE(fixes, as_strings(field(round, "suggested_fixes")));
    if (fixes.empty()) break;
    VERIFY(!r.report.fixed_spec_text.empty());
    spec = r.report.fixed_spec_text;
  }
  COMPARE(as_string(field(oracle, "status")), std::string("violation"));
  // The seed's hand-written fix (min=17) exports.
  VERIFY(trace_example(example("dynamic_shapes_example3_fixed")).ok());
}

/// Guards from model code carry the C++ file and line that asked.
EL_TEST(guards_carry_source_lines) {
  const trace::ExportResult r = trace_example(example("dynamic_model_v2_auto"));
  VERIFY_MSG(r.ok(), r.report.message);
  bool found_assert = false, found_check = false, found_if = false;
  for (const auto& g : r.report.guards) {
    if (g.origin.location.find("dim_hints.cpp:") != 0) continue;
    found_assert = found_assert || g.origin.code.find("w.sym_size(0) <= 512") != std::string::npos;
    found_check = found_check || g.origin.code.find("x.sym_size(0)) >= 4") != std::string::npos;
    found_if = found_if || g.origin.code.find("w.sym_size(0) == x.sym_size(0) + 2") != std::string::npos;
  }
  VERIFY_MSG(found_assert && found_check && found_if, "model-code guards without their source line");
  // Nodes carry the gallery source line too (print(ep)'s "# File:" comments).
  const std::string text = ir::print_program(*r.program);
  VERIFY_MSG(text.find("dim_hints.cpp:") != std::string::npos, text);
}

/// A size read as a plain integer specializes that dimension, and says where.
EL_TEST(plain_size_read_specializes) {
  const trace::ForwardFn f = [](const std::vector<c10::IValue>& in) {
    const at::Tensor x = in[0].toTensor();
    return c10::IValue(x.view({x.size(0), -1}));  // x.size(0): a plain int64_t
  };
  const std::vector<c10::IValue> inputs = {at::ones({4, 3, 2})};
  auto r = trace::export_function(f, {"x"}, inputs, "dynamic_shapes = {'x': (Dim.AUTO, Dim.AUTO, None)}");
  VERIFY_MSG(r.ok(), r.report.message);
  COMPARE(int(r.specializations.size()), 1);
  VERIFY_MSG(r.specializations[0].where.find("test_trace.cpp:") == 0, r.specializations[0].where);
  const std::string shape = r.program->graph().placeholders()[0]->value.tensor()->annotation();
  VERIFY_MSG(shape.rfind("f32[4, s", 0) == 0 && shape.find(", 2]") != std::string::npos, shape);
  // With Dim.DYNAMIC that dimension must stay dynamic: a constraint violation.
  r = trace::export_function(f, {"x"}, inputs, "dynamic_shapes = {'x': (Dim.DYNAMIC, None, None)}");
  VERIFY(!r.ok());
  COMPARE(r.report.error_kind, std::string("constraint"));
}

/// Slices with symbolic, non-contiguous strides: the guards torch's
/// contiguity probe adds (oracle: gallery_layout_probe), channels-last included.
EL_TEST(layout_probe_guards_match_torch) {
  namespace el = exportlens::sdk;
  using el::None;
  using el::Slice;
  const std::map<std::string, trace::ForwardFn> models = {
      {"slice_channels",  // x[:, :2].relu()
       [](const std::vector<c10::IValue>& in) {
         return c10::IValue(el::index(in[0].toTensor(), {Slice(), Slice(None, 2)}).relu());
       }},
      {"slice_last_add",  // x[:, :4] + y
       [](const std::vector<c10::IValue>& in) {
         return c10::IValue(el::index(in[0].toTensor(), {Slice(), Slice(None, 4)}) + in[1].toTensor());
       }},
  };
  const json cases = as_array(field(read_json(fixtures_dir() + "/gallery_layout_probe/meta.json"), "cases"));
  COMPARE(cases.size(), models.size());
  for (const auto& o : cases) {
    const auto model = models.find(as_string(field(o, "name")));
    VERIFY_MSG(model != models.end(), "no C++ model for " + as_string(field(o, "name")));
    std::vector<c10::IValue> inputs;
    for (const auto& s : as_array(field(o, "shapes"))) {
      std::vector<int64_t> shape;
      for (const auto& d : as_array(s)) shape.push_back(as_int(d));
      inputs.push_back(at::randn(shape));
    }
    const std::vector<std::string> names = {"x", "y"};
    const auto r = trace::export_function(model->second, {names.begin(), names.begin() + long(inputs.size())},
                                          inputs, as_string(field(o, "spec")));
    VERIFY_MSG(r.ok(), r.report.message);
    COMPARE(our_ops(*r.program), as_strings(field(o, "ops")));
    const std::vector<std::string> torch_guards = as_strings(field(o, "guards_code"));
    const auto got = normalized_guards(r.program->guards_code), want = normalized_guards(torch_guards);
    VERIFY_MSG(got == want, as_string(field(o, "name")) + " guards\n  ExportLens: " + join(got) +
                                "\n  torch:      " + join(want));
  }
}

/// Data-dependent errors name the expression and the model's call site.
EL_TEST(data_dependent_error_names_call_site) {
  const trace::ExportResult r = trace_example(example("data_dependent_branch"));
  VERIFY(!r.ok());
  VERIFY_MSG(r.report.message.find("data_dependent.cpp\", line") != std::string::npos, r.report.message);
  VERIFY_MSG(r.report.message.find("if (a / 2 >= 5)") != std::string::npos, r.report.message);
  const trace::ExportResult strict = trace_example(example("bad1_strict"));
  COMPARE(strict.error_type, std::string("torch._dynamo.exc.Unsupported"));
  VERIFY(strict.report.message.find("Dynamic control flow is not supported") != std::string::npos);
  VERIFY(strict.report.message.find("cond") != std::string::npos);
  VERIFY(strict.report.message.find("graph_breaks.cpp") != std::string::npos);
}

EL_TEST(cond_restrictions_are_enforced) {
  for (const char* name : {"cond_closure", "cond_shape_mismatch"}) {
    const trace::ExportResult r = trace_example(example(name));
    VERIFY_MSG(!r.ok(), name);
    COMPARE(r.report.error_kind, std::string("unsupported"));
    VERIFY_MSG(r.report.message.find("torch.cond") != std::string::npos, r.report.message);
  }
}

/// The README's ten-line model, built as a shared library against the SDK
/// like a user's, loads and traces.
EL_TEST(readme_model_library_traces) {
  const auto models = trace::library_models(EXPORTLENS_README_MODEL);
  COMPARE(int(models.size()), 1);
  COMPARE(models[0].name, std::string("net"));
  const trace::TraceOutcome out = trace::trace_library_model(EXPORTLENS_README_MODEL, "");
  VERIFY_MSG(out.program.has_value(), out.report.message);
  const std::vector<std::string> ops = our_ops(*out.program);
  COMPARE(ops, (std::vector<std::string>{"aten.linear.default", "aten.relu.default", "aten.linear.default"}));
  COMPARE(out.program->graph().placeholders().back()->value.tensor()->annotation(), std::string("f32[s77, 10]"));
  const std::string text = ir::print_program(*out.program);
  VERIFY_MSG(text.find("readme_model.cpp:6 in forward") != std::string::npos, text);
  // The README shows exactly this file.
  const std::string readme = read_text(std::string(EXPORTLENS_SOURCE_DIR) + "/README.md");
  const std::string source = read_text(std::string(EXPORTLENS_SOURCE_DIR) + "/tests/trace/readme_model.cpp");
  VERIFY_MSG(contains(readme, source), "README.md does not show tests/trace/readme_model.cpp verbatim");
}
