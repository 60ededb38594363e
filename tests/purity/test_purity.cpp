// The one purity rule (engine/ir/purity.h) against torch 2.13's
// Node.is_impure, with the dispatcher's schemas: every node of every program
// the suites' oracles exported (purity_oracle.py loads each with
// torch.export.load), and graphs built by hand in torch.fx from ops decided
// each way (written schemas, seeded ops, asserts, effectful ops, higher-order
// ops), whose dead code both eliminate.
#include <QtTest>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/ir/purity.h"
#include "engine/runtime/op_signatures.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "support/fixtures.h"

using namespace exportlens;

namespace {

const QJsonObject& oracle() {
  static const QJsonObject o = testing::read_json(QStringLiteral(EXPORTLENS_PURITY_ORACLE));
  return o;
}

ir::OpKind op_kind(const QString& op) {
  if (op == "placeholder") return ir::OpKind::Placeholder;
  if (op == "get_attr") return ir::OpKind::GetAttr;
  if (op == "output") return ir::OpKind::Output;
  return ir::OpKind::CallFunction;
}

// A hand-made graph's argument as the IR holds it: nodes by name, an op
// argument as the qualified name serde reads `as_operator` into.
ir::Argument argument(const QJsonValue& v, const std::map<QString, ir::Node*>& made) {
  if (v.isObject() && v.toObject().contains("node")) return made.at(v.toObject()["node"].toString());
  if (v.isObject() && v.toObject().contains("op")) return v.toObject()["op"].toString().toStdString();
  if (v.isArray()) {
    ir::ArgumentList list;
    for (const auto& item : v.toArray()) list.items.push_back(argument(item, made));
    return list;
  }
  if (v.isBool()) return v.toBool();
  if (v.isString()) return v.toString().toStdString();
  if (v.isDouble()) return v.toDouble();
  return ir::None{};
}

std::unique_ptr<ir::Graph> build(const QJsonObject& record) {
  auto g = std::make_unique<ir::Graph>();
  std::map<QString, ir::Node*> made;
  for (const auto& v : record["nodes"].toArray()) {
    const QJsonObject o = v.toObject();
    auto n = std::make_unique<ir::Node>();
    n->op = op_kind(o["op"].toString());
    n->name = o["name"].toString().toStdString();
    if (n->op == ir::OpKind::CallFunction) n->target = ir::Target(o["target"].toString().toStdString());
    std::vector<ir::Argument> args;
    for (const auto& a : o["args"].toArray()) args.push_back(argument(a, made));
    n->set_args(std::move(args));
    made[o["name"].toString()] = g->append(std::move(n));
  }
  return g;
}

const ir::Graph* graph_at(const ir::GraphModule& gm, const QString& path) {
  const ir::GraphModule* at = &gm;
  if (!path.isEmpty())
    for (const QString& part : path.split('.')) {
      at = at ? at->submodule(part.toStdString()) : nullptr;
    }
  return at ? &at->graph : nullptr;
}

}  // namespace

class TestPurity : public QObject {
  Q_OBJECT

 private slots:
  void everyFixtureNodeAsTorch() {
    const ir::SchemaEffectsLookup schemas = runtime::dispatcher_schema_effects();
    serde::ReadOptions options = runtime::pt2_read_options();
    options.load_weights = false;
    int programs = 0, nodes = 0, impure = 0;
    QStringList disagreements, unread;
    for (const auto& pv : oracle()["programs"].toArray()) {
      const QJsonObject p = pv.toObject();
      const QString file = p["file"].toString();
      if (p.contains("error")) {  // torch itself cannot load it: nothing to compare with
        unread << file + ": torch: " + p["error"].toString();
        continue;
      }
      const ir::ExportedProgram ep = serde::read_pt2(file.toStdString(), "", options);
      ++programs;
      for (const auto& gv : p["graphs"].toArray()) {
        const QJsonObject g = gv.toObject();
        const ir::Graph* graph = graph_at(ep.graph_module, g["path"].toString());
        QVERIFY2(graph, qPrintable(file + ": no subgraph '" + g["path"].toString() + "'"));
        const QJsonArray torch_nodes = g["nodes"].toArray();
        QCOMPARE(graph->size(), size_t(torch_nodes.size()));
        for (const auto& nv : torch_nodes) {
          const QJsonObject tn = nv.toObject();
          const ir::Node* n = graph->find(tn["name"].toString().toStdString());
          QVERIFY2(n, qPrintable(file + ": no node '" + tn["name"].toString() + "'"));
          ++nodes;
          const bool torch_says = tn["impure"].toBool();
          impure += torch_says;
          if (ir::is_impure(*n, schemas) != torch_says)
            disagreements << QString("%1 [%2] %3 (%4): torch says %5").arg(file, g["path"].toString(),
                                                                            tn["name"].toString(), tn["target"].toString(),
                                                                            torch_says ? "impure" : "pure");
        }
      }
    }
    qInfo("%d programs, %d nodes (%d impure by torch) compared", programs, nodes, impure);
    for (const auto& u : unread) qInfo("not compared: %s", qPrintable(u));
    QVERIFY2(disagreements.isEmpty(), qPrintable(disagreements.join('\n')));
    QVERIFY(programs >= 150);  // the corpus, the oracle's programs, the check and lowering cases, ...
    QVERIFY(impure > 0);
  }

  void handmadeGraphsAsTorch_data() {
    QTest::addColumn<int>("index");
    const QJsonArray graphs = oracle()["handmade"].toArray();
    for (int i = 0; i < graphs.size(); ++i)
      QTest::newRow(qPrintable(graphs[i].toObject()["name"].toString())) << i;
  }

  void handmadeGraphsAsTorch() {
    QFETCH(int, index);
    const QJsonObject record = oracle()["handmade"].toArray()[index].toObject();
    const ir::SchemaEffectsLookup schemas = runtime::dispatcher_schema_effects();
    auto graph = build(record);
    QStringList disagreements;
    for (const auto& nv : record["nodes"].toArray()) {
      const QJsonObject tn = nv.toObject();
      const ir::Node* n = graph->find(tn["name"].toString().toStdString());
      if (ir::is_impure(*n, schemas) != tn["impure"].toBool())
        disagreements << tn["name"].toString() + " (" + tn["target"].toString() + "): torch says " +
                             (tn["impure"].toBool() ? "impure" : "pure");
    }
    QVERIFY2(disagreements.isEmpty(), qPrintable(disagreements.join('\n')));

    // Graph.eliminate_dead_code(): the same nodes survive.
    const int removed = ir::eliminate_dead_code(*graph, schemas);
    QStringList survivors, torch_survivors;
    for (const ir::Node* n : graph->nodes()) survivors << QString::fromStdString(n->name);
    for (const auto& s : record["survivors"].toArray()) torch_survivors << s.toString();
    QCOMPARE(survivors, torch_survivors);
    QCOMPARE(removed, record["nodes"].toArray().size() - torch_survivors.size());
  }

  // Without a schema source (a LibTorch-free process) only the tables
  // decide: asserts and effectful ops stay, a written argument is not seen.
  void withoutSchemasTheTablesDecide() {
    const QJsonArray graphs = oracle()["handmade"].toArray();
    int checked = 0;
    for (const auto& gv : graphs) {
      auto graph = build(gv.toObject());
      for (const auto& nv : gv.toObject()["nodes"].toArray()) {
        const QJsonObject tn = nv.toObject();
        const ir::Node* n = graph->find(tn["name"].toString().toStdString());
        if (n->op != ir::OpKind::CallFunction || !n->target.is_torch_op()) continue;
        const auto effects = runtime::dispatcher_schema_effects()(n->target.schema_name());
        QVERIFY2(effects, qPrintable(tn["target"].toString() + " is not in the dispatcher"));
        const bool schema_decides = effects->writes_argument || effects->nondeterministic_seeded;
        if (schema_decides) continue;
        QCOMPARE(ir::is_impure(*n, {}), tn["impure"].toBool());
        ++checked;
      }
    }
    QVERIFY(checked > 10);
  }
};

QTEST_GUILESS_MAIN(TestPurity)
#include "test_purity.moc"
