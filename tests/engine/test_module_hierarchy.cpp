// The module hierarchy and weight folding against torch's own record of the
// browsing programs (oracle/browse_models.py): the same module calls in the
// same order, with the same classes, op counts, children and boundary
// values, for the program as exported and for its Core ATen lowering (where
// ExportLens's lowered nodes inherit their origin's module stack, as torch's do).
#include <QtTest>

#include <string>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/ir/weight_folding.h"
#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"
#include "support/browse_fixtures.h"
#include "support/known_differences.h"

using namespace exportlens;
using exportlens::testing::browse_fixture;
using exportlens::testing::browse_fixture_names;
using exportlens::testing::browse_hierarchy;

namespace {

ir::ExportedProgram read(const QString& fixture) {
  serde::ReadOptions options;
  options.load_weights = false;
  return serde::read_pt2(browse_fixture(fixture, QStringLiteral("program.pt2")).toStdString(), "", options);
}

QStringList names(const ir::Graph& graph, const std::vector<int>& indices) {
  const auto nodes = graph.nodes();
  QStringList out;
  for (int i : indices) out << QString::fromStdString(nodes[i]->name);
  out.sort();
  return out;
}

QStringList strings(const QJsonArray& array) {
  QStringList out;
  for (const auto& v : array) out << v.toString();
  return out;
}

// The chain of nn_module_stack keys from the outermost call down to `scope`.
QStringList chain(const ir::ModuleHierarchy& h, int scope) {
  QStringList out;
  for (int s : h.path_to(scope))
    if (s != ir::ModuleHierarchy::kRoot) out << QString::fromStdString(h[s].key);
  return out;
}

}  // namespace

class TestModuleHierarchy : public QObject {
  Q_OBJECT
 private slots:
  void matches_torch_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("level");
    for (const QString& name : browse_fixture_names())
      for (const char* level : {"training", "core"})
        QTest::newRow(qPrintable(name + "/" + level)) << name << QString(level);
  }

  void matches_torch() {
    QFETCH(QString, fixture);
    QFETCH(QString, level);
    const ir::ExportedProgram exported = read(fixture);
    const ir::ExportedProgram lowered =
        level == "core" ? passes::lower_to(exported, passes::IrLevel::Core) : ir::ExportedProgram{};
    const ir::Graph& graph = level == "core" ? lowered.graph() : exported.graph();
    const QJsonObject torch = browse_hierarchy(fixture)[level].toObject();
    QCOMPARE(int(graph.size()), torch["nodes"].toInt());

    const ir::ModuleHierarchy h = ir::module_hierarchy(graph);
    QCOMPARE(h.scope_of.size(), graph.size());
    QCOMPARE(int(h.root().op_count), torch["ops"].toInt());
    QCOMPARE(h.root().node_count, graph.size());
    const QJsonArray scopes = torch["scopes"].toArray();
    QCOMPARE(int(h.size()) - 1, int(scopes.size()));
    const bool renamed = testing::known_difference("module_hierarchy", fixture + "/" + level, "boundary names");
    bool names_differ = false;
    for (int i = 1; i < int(h.size()); ++i) {
      const auto& scope = h[i];
      const QJsonObject expected = scopes[i - 1].toObject();
      const QByteArray where = (fixture + "/" + level + " " + QString::fromStdString(scope.label())).toUtf8();
      QVERIFY2(chain(h, i) == strings(expected["chain"].toArray()), where);
      QVERIFY2(QString::fromStdString(scope.path) == expected["path"].toString(), where);
      QVERIFY2(QString::fromStdString(scope.class_name()) == expected["class"].toString(), where);
      QVERIFY2(scope.depth == expected["depth"].toInt(), where);
      QVERIFY2(int(scope.op_count) == expected["ops"].toInt(), where);
      QVERIFY2(int(scope.node_count) == expected["nodes"].toInt(), where);
      QStringList children;
      for (int c : scope.children) children << chain(h, c).join('/');
      QStringList expected_children;
      for (const auto& c : expected["children"].toArray()) expected_children << strings(c.toArray()).join('/');
      QVERIFY2(children == expected_children, where);
      const QStringList inputs = names(graph, scope.inputs), outputs = names(graph, scope.outputs);
      const QStringList torch_inputs = strings(expected["inputs"].toArray());
      const QStringList torch_outputs = strings(expected["outputs"].toArray());
      if (renamed) {
        QVERIFY2(inputs.size() == torch_inputs.size() && outputs.size() == torch_outputs.size(), where);
        names_differ = names_differ || inputs != torch_inputs || outputs != torch_outputs;
      } else {
        QVERIFY2(inputs == torch_inputs, where);
        QVERIFY2(outputs == torch_outputs, where);
      }
      // The node sets nest: a scope holds its own nodes and its children's.
      size_t inside = scope.nodes.size();
      for (int c : scope.children) inside += h[c].node_count;
      QVERIFY2(inside == scope.node_count, where);
      QVERIFY2(h.nodes_within(i).size() == scope.node_count, where);
    }
    QVERIFY2(!renamed || names_differ, "the boundary names agree with torch now: drop the entry in known_differences.h");
  }

  void scopes_are_the_models_modules() {
    for (const QString& fixture : browse_fixture_names()) {
      const QJsonObject modules = browse_hierarchy(fixture)["modules"].toObject();
      const ir::ModuleHierarchy h = ir::module_hierarchy(read(fixture).graph());
      for (int i = 1; i < int(h.size()); ++i) {
        const QString path = QString::fromStdString(h[i].path);
        QVERIFY2(modules.contains(path), qPrintable(fixture + ": " + path));
        QCOMPARE(QString::fromStdString(h[i].class_name()), modules[path].toString());
      }
    }
  }

  void placeholders_and_output_belong_to_the_root() {
    const ir::ExportedProgram ep = read(QStringLiteral("nested_cnn"));
    const ir::ModuleHierarchy h = ir::module_hierarchy(ep.graph());
    for (const ir::Node* node : ep.graph().nodes())
      if (node->op == ir::OpKind::Placeholder || node->op == ir::OpKind::Output)
        QCOMPARE(h.scope_of[node->index()], ir::ModuleHierarchy::kRoot);
    QCOMPARE(h.root().depth, 0);
    QCOMPARE(h.root().parent, -1);
  }

  void a_second_call_is_its_own_scope() {
    // BasicBlock calls its one ReLU module twice: torch keys the second call "...relu@1".
    const ir::ModuleHierarchy h = ir::module_hierarchy(read(QStringLiteral("nested_cnn")).graph());
    const int first = h.find_path("layer1.0.relu");
    QVERIFY(first > 0);
    int second = -1;
    for (int s : h[h[first].parent].children)
      if (h[s].path == "layer1.0.relu" && s != first) second = s;
    QVERIFY(second > 0);
    QCOMPARE(h[first].call, 0);
    QCOMPARE(h[second].call, 1);
    QCOMPARE(QString::fromStdString(h[second].label()), QStringLiteral("layer1.0.relu: ReLU (call 2)"));
    QCOMPARE(QString::fromStdString(h[first].label()), QStringLiteral("layer1.0.relu: ReLU"));
  }

  void tree_queries() {
    const ir::ModuleHierarchy h = ir::module_hierarchy(read(QStringLiteral("transformer_stack")).graph());
    // A ModuleList is never called: its blocks are top-level calls.
    QCOMPARE(h.find_path("blocks"), -1);
    const int block = h.find_path("blocks.3");
    const int mlp = h.find_path("blocks.3.mlp");
    const int fc1 = h.find_path("blocks.3.mlp.fc1");
    const int qkv = h.find_path("blocks.3.attn.qkv");
    QVERIFY(block > 0 && mlp > 0 && fc1 > 0 && qkv > 0);
    QCOMPARE(h[block].parent, ir::ModuleHierarchy::kRoot);
    QCOMPARE(h.common_ancestor(fc1, qkv), block);
    QCOMPARE(h.child_toward(block, fc1), mlp);
    QCOMPARE(h.child_toward(ir::ModuleHierarchy::kRoot, fc1), block);
    QVERIFY(h.encloses(block, fc1));
    QVERIFY(!h.encloses(fc1, block));
    const std::vector<int> path = h.path_to(fc1);
    QCOMPARE(int(path.size()), h[fc1].depth + 1);
    QCOMPARE(path.front(), ir::ModuleHierarchy::kRoot);
    QCOMPARE(path.back(), fc1);
    QCOMPARE(h.max_depth(), 3);  // blocks.N > attn/mlp > qkv/fc1
    QCOMPARE(QString::fromStdString(h.relative_path(block)), QStringLiteral("blocks.3"));
    QCOMPARE(QString::fromStdString(h.relative_path(fc1)), QStringLiteral("fc1"));
    QCOMPARE(QString::fromStdString(h[fc1].name()), QStringLiteral("fc1"));
  }

  void weights_fold_into_their_users() {
    for (const QString& fixture : browse_fixture_names()) {
      const ir::ExportedProgram ep = read(fixture);
      const ir::WeightFolding folding = ir::fold_weights(ep);
      const QJsonObject weights = browse_hierarchy(fixture)["weights"].toObject();
      QCOMPARE(int(folding.folded_count()), int(weights.size()));
      for (auto it = weights.begin(); it != weights.end(); ++it) {
        const ir::Node* weight = ep.graph().find(it.key().toStdString());
        QVERIFY2(weight && folding.is_folded(weight->index()), qPrintable(it.key()));
        for (const auto& user : it.value().toObject()["users"].toArray()) {
          const ir::Node* reader = ep.graph().find(user.toString().toStdString());
          QVERIFY(reader);
          const auto& list = folding.weights_of[reader->index()];
          QVERIFY2(std::find(list.begin(), list.end(), weight->index()) != list.end(),
                   qPrintable(user.toString() + " reads " + it.key()));
        }
      }
      // User inputs never fold.
      for (const ir::InputSpec* input : ep.signature.user_inputs())
        QVERIFY(!folding.is_folded(ep.graph().find(input->arg.name)->index()));
    }
  }
};

QTEST_APPLESS_MAIN(TestModuleHierarchy)
#include "test_module_hierarchy.moc"
