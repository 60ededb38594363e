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
#include <QtTest>

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
#include "support/fixtures.h"
#include "support/check_compare.h"
#include "support/known_differences.h"

using namespace exportlens;
using namespace exportlens::testing;
using symbolic::Expr;

namespace {

QString cases_dir() { return fixtures_dir() + "/check_cases"; }

QJsonObject case_meta(const QString& name) { return read_json(cases_dir() + "/" + name + "/meta.json"); }

QStringList case_names() {
  QFile f(cases_dir() + "/manifest.json");
  if (!f.open(QIODevice::ReadOnly)) qFatal("no check cases at %s (build check_case_fixtures)", qPrintable(cases_dir()));
  QStringList out;
  for (const auto& v : QJsonDocument::fromJson(f.readAll()).array()) out << v.toObject()["name"].toString();
  return out;
}

/// Programs are read and prepared once per model.
// As `exportlens check` reads a program: without its weights and example
// inputs (a dataclass program's example inputs pickle its class, which the
// reader's unpickler does not know; solving needs neither).
ir::ExportedProgram read_program(const QString& program) {
  serde::ReadOptions options;
  options.load_weights = false;
  return serde::read_pt2((cases_dir() + "/" + program).toStdString(), "", options);
}

const ops::PreparedProgram& prepared(const QString& program) {
  struct Entry {
    ir::ExportedProgram ep;
    std::unique_ptr<ops::PreparedProgram> prepared;
  };
  static std::map<QString, std::unique_ptr<Entry>> cache;
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

ops::SolveResult solve_case(const QJsonObject& meta, Guards guards = Guards::Replayed) {
  ops::SolveOptions options;
  options.replay_recorded_guards = guards == Guards::Replayed;
  return ops::solve(prepared(meta["program"].toString()), meta["spec"].toString().toStdString(), options);
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

}  // namespace

Q_DECLARE_METATYPE(Guards)

class TestCheckOracle : public QObject {
  Q_OBJECT

 private slots:
  void matches_torch_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<Guards>("guards");
    for (const auto& n : case_names()) {
      QTest::newRow(qPrintable(n + "/replayed")) << n << Guards::Replayed;
      QTest::newRow(qPrintable(n + "/rules_only")) << n << Guards::RulesOnly;
    }
  }

  void matches_torch() {
    QFETCH(QString, name);
    QFETCH(Guards, guards);
    const QJsonObject meta = case_meta(name);
    const ops::SolveResult r = solve_case(meta, guards);
    const QString difference = solve_difference(r, meta);
    if (guards == Guards::RulesOnly) {
      if (const KnownDifference* needs = known_difference("check", name, "rules only")) {
        QVERIFY2(!difference.isEmpty(), qPrintable("the shape rules alone now give torch's outcome: drop " + name +
                                                   " from known_differences.h"));
        qInfo("needs the file's guards (%s): %s", needs->reason, qPrintable(difference.section('\n', 0, 0)));
        return;
      }
    }
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
  }

 private slots:

  void suggested_fixes_paste_back_like_torch_data() {
    QTest::addColumn<QString>("name");
    for (const auto& n : case_names())
      if (case_meta(n).contains("refined_from")) QTest::newRow(qPrintable(n)) << n;
  }

  // torch's refine_dynamic_shapes_from_suggested_fixes and ExportLens' own
  // "apply fixes" give the same spec, and re-solving it gives torch's outcome.
  void suggested_fixes_paste_back_like_torch() {
    QFETCH(QString, name);
    const QJsonObject refined = case_meta(name);
    const QJsonObject original = case_meta(refined["refined_from"].toString());
    const ops::SolveResult first = solve_case(original);
    QVERIFY(!first.fixed_spec_text.empty());
    const auto mine = symbolic::parse_dynamic_shapes(first.fixed_spec_text);
    const auto theirs = symbolic::parse_dynamic_shapes(refined["spec"].toString().toStdString());
    QCOMPARE(mine.inputs.size(), theirs.inputs.size());
    // Each input's spec, nested ones item by item (a tuple argument's fixes stay a tuple of specs).
    const std::function<void(const symbolic::InputShapeSpec&, const symbolic::InputShapeSpec&)> same =
        [&](const symbolic::InputShapeSpec& x, const symbolic::InputShapeSpec& y) {
          QCOMPARE(x.container, y.container);
          QCOMPARE(x.items.size(), y.items.size());
          for (size_t k = 0; k < x.items.size(); ++k) {
            QCOMPARE(x.items[k].first, y.items[k].first);
            same(x.items[k].second, y.items[k].second);
          }
          const auto& a = x.dims;
          const auto& b = y.dims;
          QCOMPARE(a.size(), b.size());
          for (size_t k = 0; k < a.size(); ++k) {
            QVERIFY(a[k].second.kind == b[k].second.kind);
            QCOMPARE(symbolic::DynamicShapesSpec::debug_name(a[k].second), symbolic::DynamicShapesSpec::debug_name(b[k].second));
            QCOMPARE(a[k].second.value, b[k].second.value);
            if (!a[k].second.dim.empty()) QVERIFY(mine.dims.at(a[k].second.dim) == theirs.dims.at(b[k].second.dim));
          }
        };
    for (size_t i = 0; i < mine.inputs.size(); ++i) {
      QCOMPARE(mine.inputs[i].first, theirs.inputs[i].first);
      same(mine.inputs[i].second, theirs.inputs[i].second);
    }
    const ops::SolveResult again = ops::solve(prepared(refined["program"].toString()), mine);
    QCOMPARE(QString::fromUtf8(ops::status_name(again.status).data()), refined["status"].toString());
  }

  // ---- provenance: the guard and node behind a violation -------------------------
  // A spec torch refuses (it does not mirror a nested input, a tensor's spec
  // is not a shape, ...) is refused with torch's message, path included.
  void refusals_are_torchs_data() {
    QTest::addColumn<QString>("name");
    for (const auto& n : case_names())
      if (case_meta(n)["status"].toString() == "error") QTest::newRow(qPrintable(n)) << n;
  }
  void refusals_are_torchs() {
    QFETCH(QString, name);
    const QJsonObject meta = case_meta(name);
    const ops::SolveResult r = solve_case(meta);
    QCOMPARE(r.status, ops::SolveStatus::Error);
    QCOMPARE(QString::fromStdString(r.error_kind), QStringLiteral("spec"));
    // torch's text without its pointer to the docs; ours without the "dynamic_shapes: " of a spec error
    QString theirs = meta["message"].toString();
    theirs = theirs.left(theirs.indexOf("For more information about this error")).trimmed();
    QString mine = QString::fromStdString(r.message);
    QVERIFY2(mine.startsWith("dynamic_shapes: "), qPrintable(mine));
    QCOMPARE(mine.mid(16).trimmed(), theirs);
  }

  // A program whose arguments are tuples, lists, dicts or dataclasses: its
  // inputs are the in_spec's leaves, named as torch's pytree paths name them
  // (the ok cases compare the shapes by these names), and the guards torch
  // recorded for them replay (Dim.AUTO everywhere, in the recorded spec's
  // nested form, gives the file's guards).
  void nested_programs_read_their_pytree_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<Guards>("guards");
    for (const char* p : {"nested_tuple", "nested_list", "nested_dict", "nested_dataclass", "nested_kwargs"}) {
      QTest::newRow(qPrintable(QString(p) + "/replayed")) << QString(p) << Guards::Replayed;
      QTest::newRow(qPrintable(QString(p) + "/rules_only")) << QString(p) << Guards::RulesOnly;
    }
  }
  void nested_programs_read_their_pytree() {
    QFETCH(QString, program);
    QFETCH(Guards, guards);
    const auto& p = prepared("programs/" + program + ".pt2");
    QVERIFY(p.input_tree());
    QStringList names;
    for (const auto& in : p.inputs()) names << QString::fromStdString(in.display_name());
    QStringList theirs;  // torch's names, from a case on this program that exported
    for (const auto& n : case_names()) {
      const QJsonObject meta = case_meta(n);
      if (meta["model"].toString() != program || meta["status"].toString() != "ok") continue;
      theirs = meta["input_shapes"].toObject().keys();
      break;
    }
    QVERIFY(!theirs.isEmpty());
    QStringList sorted = names;
    sorted.sort();
    theirs.sort();
    QCOMPARE(sorted, theirs);
    ops::SolveOptions options;
    options.replay_recorded_guards = guards == Guards::Replayed;
    // Every dim Dim.AUTO, as the program was exported: the recorded spec mirrors the arguments.
    symbolic::DynamicShapesSpec all_auto = p.recorded_spec();
    for (auto& [name, in] : all_auto.inputs) {
      QVERIFY(name != "x" || program != "nested_dict" || in.container);
      symbolic::DynamicShapesSpec::for_each_dim(in, [](symbolic::DimSpec& d) { d.kind = symbolic::DimSpec::Kind::Auto; });
    }
    const ops::SolveResult r = ops::solve(p, all_auto, options);
    QCOMPARE(r.status, ops::SolveStatus::Ok);
    QVERIFY2(r.diagnostics.empty(), r.diagnostics.empty() ? "" : r.diagnostics.front().message.c_str());
    QStringList mine, recorded;
    for (const auto& g : r.guards) {
      if (guards == Guards::RulesOnly) QVERIFY(g.origin.kind != symbolic::Provenance::Kind::RecordedGuard);
      mine << QString::fromStdString(g.python);
    }
    for (const auto& g : p.program().guards_code) recorded << QString::fromStdString(g);
    QCOMPARE(mine, recorded);
  }

  void violations_name_their_guards() {
    const ops::SolveResult r = solve_case(case_meta("dynamic_model_named"));
    QCOMPARE(r.status, ops::SolveStatus::Violation);
    std::map<std::string, const ops::ViolationInfo*> by_name;
    for (const auto& v : r.violations) by_name[v.debug_name] = &v;
    const auto* w1 = by_name.at("w1");
    QCOMPARE(QString::fromStdString(w1->kind), QStringLiteral("specialized"));
    QVERIFY(w1->origin);
    QCOMPARE(QString::fromStdString(w1->origin->node), QStringLiteral("linear"));
    QVERIFY(QString::fromStdString(w1->origin->location).startsWith("seed_models.py:"));  // the user's line, not torch's
    const auto* y1 = by_name.at("y1");
    QCOMPARE(QString::fromStdString(y1->origin->node), QStringLiteral("add"));
    QCOMPARE(QString::fromStdString(y1->origin->rule), QStringLiteral("broadcast"));
    // User-code guards come from the program's recorded guards.
    const ops::SolveResult v2 = solve_case(case_meta("dynamic_model_v2_named"));
    bool saw_recorded = false;
    for (const auto& v : v2.violations)
      if (v.kind == "range_not_satisfied" && v.origin &&
          v.origin->kind == symbolic::Provenance::Kind::RecordedGuard)
        saw_recorded = true;
    QVERIFY(saw_recorded);
  }

  // The fake conv's guards come from the conv rule itself (no file guards):
  // a kernel larger than the Dim's minimum names the conv and the check, and
  // a conv converted to channels-last records its stride-order checks there.
  void conv_guards_name_the_conv_rule() {
    const ops::SolveResult small = solve_case(case_meta("conv_kernel5_small_min"), Guards::RulesOnly);
    QCOMPARE(small.status, ops::SolveStatus::Violation);
    bool saw_kernel = false;
    for (const auto& v : small.violations)
      if (v.origin && QString::fromStdString(v.origin->rule).contains("input size >= kernel size")) {
        QCOMPARE(QString::fromStdString(v.origin->node), QStringLiteral("conv2d"));
        saw_kernel = true;
      }
    QVERIFY(saw_kernel);
    const ops::SolveResult norm = solve_case(case_meta("strided_conv_norm_named"), Guards::RulesOnly);
    int stride_order = 0;
    for (const auto& g : norm.guards)
      if (QString::fromStdString(g.origin.rule).contains("channels-last output")) {
        QVERIFY2(QString::fromStdString(g.expr).contains("Max(1, "), g.expr.c_str());
        ++stride_order;
      }
    QCOMPARE(stride_order, 8);  // as torch 2.13 records them: 2 for each of the first two down convs, 4 for the last
  }

  // With every dim Dim.AUTO, the guards ExportLens emits are the guards torch
  // recorded in the program (guards_code), in the same order and text.
  // DynamicModel's guards all come from its ops, so the shape rules alone
  // must emit them; DynamicModelV2 adds user-code guards, which only the
  // file's replayed guards carry.
  void auto_guards_equal_the_recorded_ones_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<Guards>("guards");
    QTest::newRow("dynamic_model_auto/rules_only") << "dynamic_model_auto" << Guards::RulesOnly;
    QTest::newRow("dynamic_model_auto/replayed") << "dynamic_model_auto" << Guards::Replayed;
    QTest::newRow("dynamic_model_v2_auto/replayed") << "dynamic_model_v2_auto" << Guards::Replayed;
  }
  void auto_guards_equal_the_recorded_ones() {
    QFETCH(QString, name);
    QFETCH(Guards, guards);
    const QJsonObject meta = case_meta(name);
    const auto& program = prepared(meta["program"].toString());
    const ops::SolveResult r = solve_case(meta, guards);
    if (guards == Guards::RulesOnly)
      for (const auto& g : r.guards)
        QVERIFY2(g.origin.kind != symbolic::Provenance::Kind::RecordedGuard, g.python.c_str());
    QStringList mine, recorded;
    for (const auto& g : r.guards) mine << QString::fromStdString(g.python);
    for (const auto& g : program.program().guards_code) recorded << QString::fromStdString(g);
    QCOMPARE(mine, recorded);
  }

  // The seed's symbolic input shapes: w: [s0, 5], x: [s2], y: [s3, s2], z: [s2*s3].
  void seed_dynamic_model_shapes() {
    const ops::SolveResult r = solve_case(case_meta("dynamic_model_auto"));
    std::map<std::string, std::vector<std::string>> shapes;
    for (const auto& in : r.input_shapes) shapes[in.name] = in.dims;
    QCOMPARE(shapes["w"][1], std::string("5"));
    QCOMPARE(shapes["y"][1], shapes["x"][0]);
    QCOMPARE(Expr::parse(shapes["z"][0]), Expr::parse(shapes["x"][0]) * Expr::parse(shapes["y"][0]));
  }

  // The shape rules against torch's own meta values: re-solving an AUTO-exported
  // program with the spec it was exported with gives every node the symbolic
  // shape torch recorded for it.
  void node_shapes_equal_torch_data() {
    QTest::addColumn<QString>("program");
    for (const auto& f : QDir(cases_dir() + "/programs").entryList({"*.pt2"}, QDir::Files, QDir::Name))
      QTest::newRow(qPrintable(f)) << "programs/" + f;
  }
  void node_shapes_equal_torch() {
    QFETCH(QString, program);
    const auto& p = prepared(program);
    const ops::SolveResult r = ops::solve(p, p.recorded_spec());
    QCOMPARE(r.status, ops::SolveStatus::Ok);
    std::map<std::string, std::string> mine;
    for (const auto& n : r.node_shapes) mine[n.node] = n.value;
    QStringList differences;
    const QString model = QFileInfo(program).completeBaseName();
    for (const ir::Node* n : p.program().graph().nodes()) {
      if (n->op != ir::OpKind::CallFunction) continue;
      const std::string theirs = file_value(n->value);
      if (theirs.empty()) continue;
      const QString subject = model + ":" + QString::fromStdString(n->name);
      if (const KnownDifference* known = known_difference("check", subject, "node shape")) {
        QVERIFY2(mine[n->name] != theirs, qPrintable(subject + " now has torch's shape: drop it from known_differences.h"));
        qInfo("%s: %s", qPrintable(subject), known->reason);
        continue;
      }
      if (mine[n->name] != theirs)
        differences << QString::fromStdString(n->name + " (" + n->target.qualified() + "): ExportLens " +
                                              mine[n->name] + ", torch " + theirs);
    }
    QVERIFY2(differences.isEmpty(), qPrintable(differences.join("\n")));
  }

  // Every case's spec survives Python -> model -> JSON -> model -> Python.
  void spec_forms_round_trip() {
    for (const auto& n : case_names()) {
      const auto spec = symbolic::parse_dynamic_shapes(case_meta(n)["spec"].toString().toStdString());
      const auto back = ops::spec_from_json(ops::spec_to_json(spec));
      QCOMPARE(QString::fromStdString(symbolic::print_dynamic_shapes(back)),
               QString::fromStdString(symbolic::print_dynamic_shapes(spec)));
      QVERIFY2(symbolic::parse_dynamic_shapes(symbolic::print_dynamic_shapes(spec)) == spec, qPrintable(n));
    }
  }

  // A program's solves share its memo (symbolic/solve_memo.h): what one
  // solve kept must not change another's outcome. Every case solved on the
  // program the other tests warmed (many specs before it) equals the same
  // case on a program prepared afresh, in everything the CLI's --json prints;
  // and two programs solved on two threads at once give what they give alone.
  void a_programs_memo_changes_no_outcome() {
    auto outcome = [](ops::SolveResult r) {
      r.solve_ms = 0;
      return QString::fromStdString(ops::to_json(r));
    };
    std::map<QString, std::string> first_spec;  // per program: the case the threads solve
    for (const auto& n : case_names()) {
      const QJsonObject meta = case_meta(n);
      const QString program = meta["program"].toString();
      const ir::ExportedProgram ep = read_program(program);
      const ops::PreparedProgram fresh(ep);
      const std::string spec = meta["spec"].toString().toStdString();
      QCOMPARE(outcome(ops::solve(prepared(program), spec)), outcome(ops::solve(fresh, spec)));
      first_spec.emplace(program, spec);
    }
    QVERIFY(first_spec.size() >= 2);
    const auto a = first_spec.begin(), b = std::next(first_spec.begin());
    const ops::PreparedProgram& pa = prepared(a->first);
    const ops::PreparedProgram& pb = prepared(b->first);
    const QString alone_a = outcome(ops::solve(pa, a->second)), alone_b = outcome(ops::solve(pb, b->second));
    // Two programs at once, and the first one twice at once (the second solve borrows a fresh memo).
    QString together[3];
    std::thread threads[3] = {
        std::thread([&] { for (int i = 0; i < 3; ++i) together[0] = outcome(ops::solve(pa, a->second)); }),
        std::thread([&] { for (int i = 0; i < 3; ++i) together[1] = outcome(ops::solve(pb, b->second)); }),
        std::thread([&] { for (int i = 0; i < 3; ++i) together[2] = outcome(ops::solve(pa, a->second)); }),
    };
    for (auto& t : threads) t.join();
    QCOMPARE(together[0], alone_a);
    QCOMPARE(together[1], alone_b);
    QCOMPARE(together[2], alone_a);
  }

  void bad_spec_is_an_error() {
    const ops::SolveResult r = ops::solve(prepared("programs/foo.pt2"), "dynamic_shapes = {\"x\": (dx, None)}");
    QCOMPARE(r.status, ops::SolveStatus::Error);
    QCOMPARE(QString::fromStdString(r.error_kind), QStringLiteral("spec"));
    QVERIFY(QString::fromStdString(r.message).contains("line 1, column 25"));
    const ops::SolveResult keys = ops::solve(prepared("programs/foo.pt2"), "dynamic_shapes = {\"a\": None, \"y\": None}");
    QCOMPARE(keys.status, ops::SolveStatus::Error);
    QVERIFY(QString::fromStdString(keys.message).contains("must be the arg names ['x', 'y']"));
  }
};

QTEST_GUILESS_MAIN(TestCheckOracle)
#include "test_check_oracle.moc"
