#pragma once
// Everything known about the selected node: op, target, schema, arguments
// (referenced nodes are links), output dtype / symbolic shape / strides /
// device, users, source line, module stack, source_fn and stack trace; for
// a weight, its values on request (read from the file only then).
#include <QHash>
#include <QUrl>
#include <QWidget>

#include <functional>
#include <vector>

#include "engine/ir/payload_values.h"
#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"
#include "ui/core/node_run_facts.h"
#include "ui/core/node_solve_facts.h"

class QTextBrowser;

namespace exportlens::ui {

class ProgramModel;

class InspectorWidget : public QWidget {
  Q_OBJECT
 public:
  explicit InspectorWidget(QWidget* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  /// Shows the model's selected node with what its latest solve says; a link selects there.
  void follow(ProgramModel* model);
  /// What the latest dynamic-shapes solve says per node (solved shape, guards).
  void setSolveFacts(const NodeSolveFactsMap& facts);
  /// What the latest run says per node (time, kernels, memory); empty: none.
  void setRunFacts(const NodeRunFactsMap& facts);
  /// What the inspector shows, as plain text (for tests and copying).
  QString plainText() const;
  /// A section other rooms add to a node's report (HTML, after the run's
  /// facts; "" adds nothing): e.g. the compiled model's kernels computing it.
  /// Links with a scheme the inspector does not know come out as linkActivated.
  using NodeSection = std::function<QString(const QString& node)>;
  void addNodeSection(NodeSection section);

 public slots:
  void showNode(const QString& name);
  /// Reads a weight's bytes (on a worker) and shows its first values, min, max and mean.
  void previewValues(const QString& name);
  /// Renders again (what an added section says changed).
  void refresh() { render(); }

 signals:
  /// A link to another node was clicked.
  void nodeActivated(const QString& name);
  /// "Open in the tensor viewer" was clicked for this node.
  void tensorViewerRequested(const QString& name);
  /// A weight's values are shown (or why they cannot be).
  void valuesShown(const QString& name);
  /// A link of an added section was clicked.
  void linkActivated(const QUrl& url);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void render();
  /// The stored tensor behind a weight placeholder, or null.
  const ir::TensorPayload* payloadOf(const ir::Node& node) const;
  QString valuesHtml(const ir::Node& node, const ir::TensorPayload& payload) const;

  QTextBrowser* browser_;
  LoadedProgramPtr program_;
  NodeSolveFactsMap facts_;
  NodeRunFactsMap run_facts_;
  QString node_;
  QHash<QString, QString> values_;  // a weight's preview, by node
  std::vector<NodeSection> sections_;
  BackgroundJobs<ir::PayloadValues> jobs_{this};
};

}  // namespace exportlens::ui
