// The .pt2 reader against real torch.export archives: every fixture that
// exports is read, and its placeholders, op sequence, signature and range
// constraints equal what torch reported for the same (loaded) program.
#include <QtTest>

#include "engine/ir/verifier.h"
#include "engine/serde/pt2_reader.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

class TestPt2Reader : public QObject {
  Q_OBJECT

 private:
  static ir::ExportedProgram read(const QString& name) {
    return serde::read_pt2(fixture_file(name, "program.pt2").toStdString());
  }

 private slots:
  void reads_every_fixture_data() {
    QTest::addColumn<QString>("name");
    for (const auto& n : fixtures_with_status("ok")) QTest::newRow(qPrintable(n)) << n;
  }

  void reads_every_fixture() {
    QFETCH(QString, name);
    const auto ep = read(name);
    const auto meta = fixture_meta(name);
    QVERIFY2(ir::verify(ep).empty(), "verifier findings on a torch-written program");

    // Placeholders: names and symbolic shapes as torch printed them.
    const auto placeholders = meta["placeholders"].toObject();
    const auto phs = ep.graph().placeholders();
    QCOMPARE(int(phs.size()), placeholders.size());
    for (const auto* ph : phs) {
      QVERIFY2(placeholders.contains(QString::fromStdString(ph->name)), ph->name.c_str());
      const auto dims = placeholders[QString::fromStdString(ph->name)].toArray();
      const auto* t = ph->value.tensor();
      if (!t) continue;  // non-tensor inputs carry no shape
      QCOMPARE(int(t->sizes.size()), dims.size());
      for (int d = 0; d < dims.size(); ++d) QCOMPARE(QString::fromStdString(t->sizes[d].str()), dims[d].toString());
    }

    // The top-level op sequence.
    QStringList ops;
    for (const auto* n : ep.graph().nodes())
      if (n->op == ir::OpKind::CallFunction) ops << QString::fromStdString(n->target.qualified());
    QStringList expected;
    for (const auto& v : meta["ops"].toArray()) expected << v.toString();
    // torch prints "aten.add.Tensor" / "<built-in function getitem>"; compare op names.
    QCOMPARE(ops.size(), expected.size());
    for (int i = 0; i < ops.size(); ++i) {
      QString want = expected[i];
      if (want.contains("getitem")) want = "_operator.getitem";
      else if (want.startsWith("<built-in function ")) want = "_operator." + want.mid(19).chopped(1);
      else if (!want.contains('.')) want = "torch.ops.higher_order." + want;  // str(torch.ops.higher_order.cond)
      else if (!want.startsWith("torch.")) want = "torch.ops." + want;
      QCOMPARE(ops[i], want);
    }

    // Graph signature.
    const auto sig = meta["graph_signature"].toObject();
    const auto in_specs = sig["input_specs"].toArray();
    QCOMPARE(int(ep.signature.inputs.size()), in_specs.size());
    for (int i = 0; i < in_specs.size(); ++i) {
      const auto s = in_specs[i].toObject();
      QCOMPARE(QString::fromStdString(std::string(ir::kind_name(ep.signature.inputs[i].kind))), s["kind"].toString());
      QCOMPARE(QString::fromStdString(ep.signature.inputs[i].arg.name), s["name"].toString());
      QCOMPARE(QString::fromStdString(ep.signature.inputs[i].target.value_or("")), s["target"].toString());
    }
    const auto out_specs = sig["output_specs"].toArray();
    QCOMPARE(int(ep.signature.outputs.size()), out_specs.size());
    for (int i = 0; i < out_specs.size(); ++i) {
      const auto s = out_specs[i].toObject();
      QCOMPARE(QString::fromStdString(std::string(ir::kind_name(ep.signature.outputs[i].kind))), s["kind"].toString());
      QCOMPARE(QString::fromStdString(ep.signature.outputs[i].arg.name), s["name"].toString());
    }

    // Range constraints: the same symbols with the same bounds.
    const auto rc = meta["range_constraints"].toObject();
    QCOMPARE(int(ep.range_constraints.entries.size()), rc.size());
    for (const auto& [key, range] : ep.range_constraints.entries) {
      const auto k = QString::fromStdString(key.str());
      QVERIFY2(rc.contains(k), qPrintable("unexpected range constraint " + k));
      const auto bounds = rc[k].toArray();
      auto bound = [](const QJsonValue& v) { return v.isString() ? v.toString() : QString::number(v.toInteger()); };
      QCOMPARE(QString::fromStdString(range.lower.str()), bound(bounds[0]));
      QCOMPARE(QString::fromStdString(range.upper.str()), bound(bounds[1]));
    }
  }

  void weights_match_the_signature() {
    const auto ep = read("book_mlp");
    QCOMPARE(int(ep.state_dict.size()), 4);
    const auto* w = ep.find_state("fc1.weight");
    QVERIFY(w);
    QCOMPARE(QString::fromStdString(w->meta.annotation()), QString("f32[5, 10]"));
    QCOMPARE(int(w->bytes->size()), 5 * 10 * 4);
    QVERIFY(w->is_parameter);
  }

  void cond_branches_become_submodules() {
    const auto ep = read("bad1_fixed");
    QCOMPARE(int(ep.graph_module.submodules.size()), 2);
    QVERIFY(ep.graph_module.submodule("true_graph_0"));
    QVERIFY(ep.graph_module.submodule("false_graph_0"));
    const auto* cond = ep.graph().find("cond");
    QVERIFY(cond);
    QVERIFY(cond->target.is_higher_order());
    QCOMPARE(cond->args().at(1).node()->op, ir::OpKind::GetAttr);
  }

  void custom_op_nodes_read_without_the_op_library() {
    const auto ep = read("custom_op");
    bool found = false;
    for (const auto* n : ep.graph().nodes())
      if (n->target.op_namespace() == "my_custom_library") found = true;
    QVERIFY(found);
  }
};

QTEST_GUILESS_MAIN(TestPt2Reader)
#include "test_pt2_reader.moc"
