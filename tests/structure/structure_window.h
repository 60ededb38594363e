#pragma once
// What the GUI suites of this folder share: the main window opened on one of
// the repeated-structure oracle's programs (structure_fixtures.h) until its
// analysis is shown, and the module paths of its nodes.
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSignalSpy>
#include <QtTest>

#include <memory>

#include "engine/ir/graph.h"
#include "structure/structure_fixtures.h"
#include "support/fixtures.h"
#include "ui/core/program_model.h"
#include "ui/shell/main_window.h"
#include "ui/structure/structure_panel.h"

namespace exportlens::testing {

/// torch's class of the module call at `path` ("ResBlock").
inline QString class_of(const QJsonObject& record, const QString& path) {
  for (const auto& c : record["levels"]["training"]["calls"].toArray())
    if (c.toObject()["path"].toString() == path) return c.toObject()["class"].toString();
  return {};
}

/// The innermost module path a node was traced in.
inline QString module_of(const ir::Node* n) {
  return n && !n->meta.nn_module_stack.empty() ? QString::fromStdString(n->meta.nn_module_stack.back().path) : QString();
}

inline bool inside(const QString& path, const QString& outer) { return path == outer || path.startsWith(outer + "."); }

/// The first op with a tensor value traced inside `path`.
inline const ir::Node* first_op_in(const ir::Graph& graph, const QString& path) {
  for (const ir::Node* n : graph.nodes())
    if (n->op == ir::OpKind::CallFunction && inside(module_of(n), path) && n->value.tensor()) return n;
  return nullptr;
}

/// Opens the program `name` in `window` and waits for the Repeated structure analysis of it.
inline bool open_structure_program(ui::MainWindow& window, const QString& name) {
  ui::StructurePanel* panel = window.structurePanel();
  QSignalSpy analysed(panel, &ui::StructurePanel::analysed);
  QSignalSpy shown(&window, &ui::MainWindow::programShown);
  window.openFile(QString::fromStdString(structure_fixture(name.toStdString(), "program.pt2")));
  if (!shown.wait(60000)) return false;
  return QTest::qWaitFor([&] { return !analysed.isEmpty() && panel->model()->snapshot() && !panel->isBusy(); }, 60000);
}

/// The suites' base: a fresh main window per test function, at the size their
/// screenshots are taken, and the queries they all make of it.
class StructureWindowTest : public QObject {
  Q_OBJECT

 protected:
  std::unique_ptr<ui::MainWindow> window_;

  ui::StructurePanel* panel() const { return window_->structurePanel(); }
  const ir::Node* first_op_in(const QString& path) const {
    return testing::first_op_in(window_->programModel()->program()->graph(), path);
  }

  // structure_fixtures.h's record in Qt's types (members, so the suites' calls find these first).
  static QJsonObject structure_record(const QString& name) {
    return read_json(QString::fromStdString(structure_fixture(name.toStdString(), "structure.json")));
  }
  static QMap<QString, int> torch_op_counts(const QJsonObject& record, const QString& level, const QString& path) {
    const auto counts = or_stop([&] {
      return testing::torch_op_counts(nlohmann::json::parse(QJsonDocument(record).toJson().toStdString()),
                                      level.toStdString(), path.toStdString());
    });
    QMap<QString, int> out;
    for (const auto& [op, n] : counts) out[QString::fromStdString(op)] = n;
    return out;
  }

 private slots:
  void init() {
    window_ = std::make_unique<ui::MainWindow>();
    window_->resize(1500, 950);
    window_->show();
  }
  void cleanup() { window_.reset(); }
};

}  // namespace exportlens::testing
