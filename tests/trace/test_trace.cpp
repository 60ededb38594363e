// The C++ tracer against real torch.export. Every gallery example is traced
// with the Python original's weights and inputs (saved by the oracle) and
// compared with torch's result for the same example: op sequence,
// placeholders, graph signature, range constraints, guards (as a normalized
// set), outputs on the same inputs; for failing ones the error type, kind and
// message (suggested fixes included). Where a port is documented to differ
// (the example's notes), the example's own expected outcome is checked and
// the difference logged.
// LibTorch headers come before Qt's: Qt's `slots` macro breaks them.
#include <ATen/ops/allclose.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/randn.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include "support/torch_values.h"
#include <torch/nn/module.h>

#include "engine/ir/printer.h"
#include "engine/runtime/interpreter.h"
#include "engine/serde/pt2_reader.h"
#include "engine/symbolic/python_guard_parser.h"
#include "engine/symbolic/shape_env.h"
#include "engine/trace/export.h"
#include "engine/trace/gallery/gallery.h"
#include "engine/trace/trace_facade.h"

#include <QtTest>
#include <QRegularExpression>
#include <fstream>
#include <map>
#include <set>

#include "support/fixtures.h"
#include "support/known_differences.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

/// Copies the Python original's state dict into the port (same names).
std::function<void(torch::nn::Module&)> load_weights(const QString& fixture) {
  const QString path = fixture_file(fixture, "state_dict.pt");
  if (!QFile::exists(path)) return {};
  return [path](torch::nn::Module& m) {
    const auto dict = torch::jit::pickle_load(read_bytes(path)).toGenericDict();
    torch::NoGradGuard no_grad;
    auto assign = [&](const std::string& name, at::Tensor& t) {
      for (const auto& item : dict)
        if (item.key().toStringRef() == name) return void(t.copy_(item.value().toTensor()));
      QFAIL(qPrintable("the oracle's state dict has no " + QString::fromStdString(name)));
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

QStringList our_ops(const ir::ExportedProgram& ep) {
  QStringList ops;
  for (const ir::Node* n : ep.graph().nodes())
    if (n->op == ir::OpKind::CallFunction) ops << QString::fromStdString(python_target(n->target));
  return ops;
}

QStringList strings(const QJsonArray& a) {
  QStringList out;
  for (const auto& v : a) out << v.toString();
  return out;
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

QString join(const std::set<std::string>& s) {
  QStringList l;
  for (const auto& x : s) l << QString::fromStdString(x);
  return l.join("; ");
}

std::string kind_for_torch_error(const QString& type) {
  if (type == "torch._dynamo.exc.Unsupported") return "dynamic_control_flow";
  if (type.endsWith("GuardOnDataDependentSymNode")) return "data_dependent";
  if (type == "torch._dynamo.exc.UserError" || type.endsWith("ConstraintViolationError")) return "constraint";
  return "?";
}

/// torch's message without the trailer export adds ("The error above occurred ...").
QString message_head(QString m) {
  m = m.section("\n\nThe error above occurred when calling torch.export.export", 0, 0);
  return m.trimmed();
}

trace::ExportResult trace_example(const trace::gallery::Example& e, const std::optional<std::string>& spec = {}) {
  const QString fixture = QString::fromStdString(e.oracle);
  std::optional<std::vector<c10::IValue>> inputs;
  if (!fixture.isEmpty() && QFile::exists(fixture_file(fixture, "inputs.pt")))
    inputs = load_tuple(fixture_file(fixture, "inputs.pt"));
  return trace::export_model(e.def, spec, {}, fixture.isEmpty() ? nullptr : load_weights(fixture), inputs);
}

const trace::gallery::Example& example(const std::string& name) {
  const auto* e = trace::gallery::find(name);
  if (!e) qFatal("no gallery example %s", name.c_str());
  return *e;
}

}  // namespace

class TestTrace : public QObject {
  Q_OBJECT

 private slots:
  void every_seed_fixture_has_a_port() {
    std::set<std::string> ported;
    for (const auto& e : trace::gallery::examples()) ported.insert(e.oracle);
    for (const QString& status : {"ok", "error"})
      for (const QString& f : fixtures_with_status(status))
        QVERIFY2(ported.count(f.toStdString()), qPrintable("no gallery port of fixture " + f));
  }

  void matches_torch_data() {
    QTest::addColumn<QString>("name");
    for (const auto& e : trace::gallery::examples())
      if (!e.oracle.empty()) QTest::newRow(e.def.name.c_str()) << QString::fromStdString(e.def.name);
  }

  void matches_torch() {
    QFETCH(QString, name);
    const auto& e = example(name.toStdString());
    const QString fixture = QString::fromStdString(e.oracle);
    const QJsonObject meta = fixture_meta(fixture);
    const bool torch_ok = meta["status"].toString() == "ok";
    const trace::ExportResult r = trace_example(e);
    const QString ours = r.ok() ? "ok" : QString::fromStdString(r.report.error_kind);
    qInfo().noquote() << "trace" << name << "->" << ours << "| torch:" << meta["status"].toString()
                      << meta["error_type"].toString() << "|" << r.trace_ms << "ms";
    // A port differs from torch only where the one list of known differences says so.
    const KnownDifference* known = known_difference("trace", name, "outcome");
    const bool notes_say_differs = e.notes.find("Differs from torch") != std::string::npos;
    QVERIFY2(bool(known) == notes_say_differs,
             "the port's notes and tests/support/known_differences.h disagree on whether it differs from torch");
    if (known) {
      QCOMPARE(ours.toStdString(), e.expected);
      const bool same_as_torch = r.ok() == torch_ok && (!r.ok() || our_ops(*r.program) == strings(meta["ops"].toArray()));
      QVERIFY2(!same_as_torch, "the port now matches torch: drop it from known_differences.h");
      qInfo().noquote() << "  known difference:" << known->reason;
      return;
    }
    QVERIFY2(r.ok() == torch_ok, qPrintable("torch: " + meta["status"].toString() + " " +
                                            meta["error_message"].toString().left(400) + "\nExportLens: " + ours + " " +
                                            QString::fromStdString(r.error_type + ": " + r.report.message)));
    QCOMPARE(ours.toStdString(), e.expected);
    if (!torch_ok)
      compare_failure(r, meta);
    else
      compare_program(*r.program, fixture, meta);
  }

  /// torch's suggested fixes, pasted back, until it has none left (the oracle's
  /// gallery_example3_refixed): the tracer gives the same fixes and messages.
  void suggested_fix_round_trip() {
    const QJsonObject oracle = read_json(fixtures_dir() + "/gallery_example3_refixed/meta.json");
    const auto& e = example("dynamic_shapes_example3_unfixed");
    std::optional<std::string> spec;
    for (const auto& round : oracle["rounds"].toArray()) {
      const trace::ExportResult r = trace_example(e, spec);
      QVERIFY(!r.ok());
      const QString got = QString::fromStdString(r.report.message), want = round.toObject()["message"].toString();
      QVERIFY2(got == want, qPrintable("ExportLens:\n" + got + "\ntorch:\n" + want));
      QStringList fixes;
      for (const auto& f : r.report.suggested_fixes) fixes << QString::fromStdString(f.text);
      QCOMPARE(fixes, strings(round.toObject()["suggested_fixes"].toArray()));
      if (fixes.isEmpty()) break;
      QVERIFY(!r.report.fixed_spec_text.empty());
      spec = r.report.fixed_spec_text;
    }
    QCOMPARE(oracle["status"].toString(), QString("violation"));
    // The seed's hand-written fix (min=17) exports.
    QVERIFY(trace_example(example("dynamic_shapes_example3_fixed")).ok());
  }

  /// Guards from model code carry the C++ file and line that asked.
  void guards_carry_source_lines() {
    const trace::ExportResult r = trace_example(example("dynamic_model_v2_auto"));
    QVERIFY2(r.ok(), r.report.message.c_str());
    bool found_assert = false, found_check = false, found_if = false;
    for (const auto& g : r.report.guards) {
      if (g.origin.location.find("dim_hints.cpp:") != 0) continue;
      found_assert = found_assert || g.origin.code.find("w.sym_size(0) <= 512") != std::string::npos;
      found_check = found_check || g.origin.code.find("x.sym_size(0)) >= 4") != std::string::npos;
      found_if = found_if || g.origin.code.find("w.sym_size(0) == x.sym_size(0) + 2") != std::string::npos;
    }
    QVERIFY2(found_assert && found_check && found_if, "model-code guards without their source line");
    // Nodes carry the gallery source line too (print(ep)'s "# File:" comments).
    const std::string text = ir::print_program(*r.program);
    QVERIFY2(text.find("dim_hints.cpp:") != std::string::npos, text.c_str());
  }

  /// A size read as a plain integer specializes that dimension, and says where.
  void plain_size_read_specializes() {
    const trace::ForwardFn f = [](const std::vector<c10::IValue>& in) {
      const at::Tensor x = in[0].toTensor();
      return c10::IValue(x.view({x.size(0), -1}));  // x.size(0): a plain int64_t
    };
    const std::vector<c10::IValue> inputs = {at::ones({4, 3, 2})};
    auto r = trace::export_function(f, {"x"}, inputs, "dynamic_shapes = {'x': (Dim.AUTO, Dim.AUTO, None)}");
    QVERIFY2(r.ok(), r.report.message.c_str());
    QCOMPARE(int(r.specializations.size()), 1);
    QVERIFY2(r.specializations[0].where.find("test_trace.cpp:") == 0, r.specializations[0].where.c_str());
    const std::string shape = r.program->graph().placeholders()[0]->value.tensor()->annotation();
    QVERIFY2(shape.rfind("f32[4, s", 0) == 0 && shape.find(", 2]") != std::string::npos, shape.c_str());
    // With Dim.DYNAMIC that dimension must stay dynamic: a constraint violation.
    r = trace::export_function(f, {"x"}, inputs, "dynamic_shapes = {'x': (Dim.DYNAMIC, None, None)}");
    QVERIFY(!r.ok());
    QCOMPARE(r.report.error_kind, std::string("constraint"));
  }

  /// Slices with symbolic, non-contiguous strides: the guards torch's
  /// contiguity probe adds (oracle: gallery_layout_probe), channels-last included.
  void layout_probe_guards_match_torch() {
    namespace el = exportlens::sdk;
    using el::None;
    using el::Slice;
    const std::map<QString, trace::ForwardFn> models = {
        {"slice_channels",  // x[:, :2].relu()
         [](const std::vector<c10::IValue>& in) {
           return c10::IValue(el::index(in[0].toTensor(), {Slice(), Slice(None, 2)}).relu());
         }},
        {"slice_last_add",  // x[:, :4] + y
         [](const std::vector<c10::IValue>& in) {
           return c10::IValue(el::index(in[0].toTensor(), {Slice(), Slice(None, 4)}) + in[1].toTensor());
         }},
    };
    const QJsonArray cases = read_json(fixtures_dir() + "/gallery_layout_probe/meta.json")["cases"].toArray();
    QCOMPARE(cases.size(), int(models.size()));
    for (const auto& c : cases) {
      const QJsonObject o = c.toObject();
      const auto model = models.find(o["name"].toString());
      QVERIFY2(model != models.end(), qPrintable("no C++ model for " + o["name"].toString()));
      std::vector<c10::IValue> inputs;
      for (const auto& s : o["shapes"].toArray()) {
        std::vector<int64_t> shape;
        for (const auto& d : s.toArray()) shape.push_back(d.toInt());
        inputs.push_back(at::randn(shape));
      }
      const std::vector<std::string> names = {"x", "y"};
      const auto r = trace::export_function(model->second, {names.begin(), names.begin() + long(inputs.size())},
                                            inputs, o["spec"].toString().toStdString());
      QVERIFY2(r.ok(), r.report.message.c_str());
      QCOMPARE(our_ops(*r.program), strings(o["ops"].toArray()));
      std::vector<std::string> torch_guards;
      for (const auto& g : o["guards_code"].toArray()) torch_guards.push_back(g.toString().toStdString());
      const auto got = normalized_guards(r.program->guards_code), want = normalized_guards(torch_guards);
      QVERIFY2(got == want, qPrintable(o["name"].toString() + " guards\n  ExportLens: " + join(got) +
                                       "\n  torch:      " + join(want)));
    }
  }

  /// Data-dependent errors name the expression and the model's call site.
  void data_dependent_error_names_call_site() {
    const trace::ExportResult r = trace_example(example("data_dependent_branch"));
    QVERIFY(!r.ok());
    QVERIFY2(r.report.message.find("data_dependent.cpp\", line") != std::string::npos, r.report.message.c_str());
    QVERIFY2(r.report.message.find("if (a / 2 >= 5)") != std::string::npos, r.report.message.c_str());
    const trace::ExportResult strict = trace_example(example("bad1_strict"));
    QCOMPARE(strict.error_type, std::string("torch._dynamo.exc.Unsupported"));
    QVERIFY(strict.report.message.find("Dynamic control flow is not supported") != std::string::npos);
    QVERIFY(strict.report.message.find("cond") != std::string::npos);
    QVERIFY(strict.report.message.find("graph_breaks.cpp") != std::string::npos);
  }

  void cond_restrictions_are_enforced() {
    for (const char* name : {"cond_closure", "cond_shape_mismatch"}) {
      const trace::ExportResult r = trace_example(example(name));
      QVERIFY2(!r.ok(), name);
      QCOMPARE(r.report.error_kind, std::string("unsupported"));
      QVERIFY2(r.report.message.find("torch.cond") != std::string::npos, r.report.message.c_str());
    }
  }

  /// The README's ten-line model, built as a shared library against the SDK
  /// like a user's, loads and traces.
  void readme_model_library_traces() {
    const auto models = trace::library_models(EXPORTLENS_README_MODEL);
    QCOMPARE(int(models.size()), 1);
    QCOMPARE(models[0].name, std::string("net"));
    const trace::TraceOutcome out = trace::trace_library_model(EXPORTLENS_README_MODEL, "");
    QVERIFY2(out.program.has_value(), out.report.message.c_str());
    QStringList ops = our_ops(*out.program);
    QCOMPARE(ops, QStringList({"aten.linear.default", "aten.relu.default", "aten.linear.default"}));
    QCOMPARE(out.program->graph().placeholders().back()->value.tensor()->annotation(), std::string("f32[s77, 10]"));
    const std::string text = ir::print_program(*out.program);
    QVERIFY2(text.find("readme_model.cpp:6 in forward") != std::string::npos, text.c_str());
    // The README shows exactly this file.
    const QString readme = read_text(QStringLiteral(EXPORTLENS_SOURCE_DIR) + "/README.md");
    const QString source = read_text(QStringLiteral(EXPORTLENS_SOURCE_DIR) + "/tests/trace/readme_model.cpp");
    QVERIFY2(readme.contains(source), "README.md does not show tests/trace/readme_model.cpp verbatim");
  }

 private:
  /// torch's error, part by part. Where torch's text names Python sources or
  /// torch-only debugging aids (environment variables, URLs), the parts that
  /// carry meaning are compared and the source is checked to be the port's:
  ///  * constraint errors (UserError, ConstraintViolationError) and any other
  ///    type: the whole message, character for character;
  ///  * data-dependent guards: every line before "Caused by:", and a "Caused
  ///    by" that names the port's C++ file and function;
  ///  * Dynamo's Unsupported: the graph break's title line, the explanation's
  ///    first clause, the cond hint, and "from user code:" naming the C++ line.
  void compare_failure(const trace::ExportResult& r, const QJsonObject& meta) {
    const QString type = meta["error_type"].toString();
    QCOMPARE(r.error_type, type.toStdString());
    QCOMPARE(r.report.error_kind, kind_for_torch_error(type));
    const QString want = message_head(meta["error_message"].toString());
    const QString got = QString::fromStdString(r.report.message).trimmed();
    const QString both = "\nExportLens:\n" + got + "\ntorch:\n" + want;
    if (type.endsWith("GuardOnDataDependentSymNode")) {
      QCOMPARE(nonblank_lines(got.section("Caused by:", 0, 0)), nonblank_lines(want.section("Caused by:", 0, 0)));
      const QString cause = got.section("Caused by:", 1).section('\n', 0, 0);
      QVERIFY2(cause.contains(".cpp:") && cause.contains(" in forward)"), qPrintable(both));
    } else if (type == "torch._dynamo.exc.Unsupported") {
      const QStringList ours = nonblank_lines(got), theirs = nonblank_lines(want);
      QVERIFY2(ours.contains(theirs.value(0)), qPrintable("the graph break's title is missing" + both));
      const auto explanation = [](const QStringList& lines) {
        for (const QString& l : lines)
          if (l.startsWith("Explanation:")) return l.section(" (e.g.", 0, 0);
        return QString();
      };
      QVERIFY2(!explanation(theirs).isEmpty() && explanation(ours) == explanation(theirs), qPrintable(both));
      QVERIFY2(ours.filter(QRegularExpression("^Hint: Use `torch.cond`")).size() == 1, qPrintable(both));
      QVERIFY2(got.contains(QRegularExpression("from user code:\\s+File \".*\\.cpp\", line \\d+, in forward")),
               qPrintable(both));
    } else {
      // violations and suggested fixes, word for word
      QVERIFY2(got == want, qPrintable(both));
    }
  }

  static QStringList nonblank_lines(const QString& text) {
    QStringList out;
    for (const QString& l : text.split('\n'))
      if (!l.trimmed().isEmpty()) out << l.trimmed();
    return out;
  }

  void compare_program(const ir::ExportedProgram& ep, const QString& fixture, const QJsonObject& meta) {
    QCOMPARE(our_ops(ep), strings(meta["ops"].toArray()));
    // Placeholders and their symbolic shapes.
    const QJsonObject want_ph = meta["placeholders"].toObject();
    QStringList got_names;
    for (const ir::Node* p : ep.graph().placeholders()) {
      got_names << QString::fromStdString(p->name);
      QStringList dims;
      if (const ir::TensorMeta* m = p->value.tensor())
        for (const auto& d : m->sizes) dims << QString::fromStdString(d.str());
      if (want_ph[got_names.back()].isArray())
        QCOMPARE(dims, strings(want_ph[got_names.back()].toArray()));
    }
    QStringList want_names = want_ph.keys();  // a JSON object: compare as sets
    want_names.sort();
    got_names.sort();
    QCOMPARE(got_names, want_names);
    // Signature.
    const QJsonObject sig = meta["graph_signature"].toObject();
    const QJsonArray want_in = sig["input_specs"].toArray();
    QCOMPARE(int(ep.signature.inputs.size()), want_in.size());
    for (int i = 0; i < want_in.size(); ++i) {
      const auto& s = ep.signature.inputs[size_t(i)];
      const QJsonObject w = want_in[i].toObject();
      QCOMPARE(QString::fromUtf8(ir::kind_name(s.kind).data()), w["kind"].toString());
      QCOMPARE(QString::fromStdString(s.arg.name), w["name"].toString());
      QCOMPARE(QString::fromStdString(s.target.value_or("")), w["target"].toString());
    }
    const QJsonArray want_out = sig["output_specs"].toArray();
    QStringList output_names, torch_output_names;
    QCOMPARE(int(ep.signature.outputs.size()), want_out.size());
    for (int i = 0; i < want_out.size(); ++i) {
      const auto& s = ep.signature.outputs[size_t(i)];
      const QJsonObject w = want_out[i].toObject();
      QCOMPARE(QString::fromUtf8(ir::kind_name(s.kind).data()), w["kind"].toString());
      QCOMPARE(QString::fromStdString(s.target.value_or("")), w["target"].toString());
      output_names << QString::fromStdString(s.arg.name);
      torch_output_names << w["name"].toString();
    }
    if (const KnownDifference* k = known_difference("trace", fixture, "output names")) {
      QVERIFY2(output_names != torch_output_names, "the output names are torch's now: drop them from known_differences.h");
      qInfo().noquote() << "  output names differ:" << k->reason;
    } else {
      QCOMPARE(output_names, torch_output_names);
    }
    // Range constraints.
    QJsonObject got_ranges;
    for (const auto& [expr, range] : ep.range_constraints.entries) {
      auto bound = [](const symbolic::Expr& e) -> QJsonValue {
        if (auto v = e.as_integer()) return qint64(*v);
        return QString::fromStdString(e.str());
      };
      got_ranges[QString::fromStdString(expr.str())] = QJsonArray{bound(range.lower), bound(range.upper)};
    }
    QCOMPARE(got_ranges, meta["range_constraints"].toObject());
    // Guards: the same set as the .pt2's guards_code.
    const auto torch_ep = serde::read_pt2(fixture_file(fixture, "program.pt2").toStdString());
    const auto want_guards = normalized_guards(torch_ep.guards_code);
    const auto got_guards = normalized_guards(ep.guards_code);
    QVERIFY2(got_guards == want_guards,
             qPrintable("guards\n  ExportLens: " + join(got_guards) + "\n  torch:      " + join(want_guards)));
    // Outputs on the same inputs.
    if (const KnownDifference* k = known_difference("trace", fixture, "outputs")) {
      qInfo().noquote() << "  outputs not compared:" << k->reason;
      return;
    }
    runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
    const auto got = interp.run(load_tuple(fixture_file(fixture, "inputs.pt")));
    const auto want = load_tuple(fixture_file(fixture, "outputs.pt"));
    QCOMPARE(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const QString diff = compare_values(got[i], want[i]);
      QVERIFY2(diff.isEmpty(), qPrintable("output " + QString::number(i) + ": " + diff));
    }
  }
};

QTEST_GUILESS_MAIN(TestTrace)
#include "test_trace.moc"
