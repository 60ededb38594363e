#pragma once
// Expands nodes of the canvas into their decompositions: the expansion
// (passes::expand_node, recursive down to what the table keeps) and its
// layout are made on a worker thread, then drawn beside the node as an
// ExpansionItem. Expansions belong to the program shown: a new one drops them.
#include <QFont>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>

#include "ui/core/background_jobs.h"
#include "ui/core/loaded_program.h"
#include "ui/levels/expansion_item.h"

namespace exportlens::ui {

class GraphScene;

class NodeExpander : public QObject {
  Q_OBJECT
 public:
  NodeExpander(GraphScene* scene, QObject* parent = nullptr);
  ~NodeExpander() override;

  /// The program the canvas shows now, and the table its nodes expand with.
  void setProgram(const LoadedProgramPtr& program, const QString& table);
  void setNodeFont(const QFont& font) { node_font_ = font; }
  /// True for op calls (what expand_node accepts).
  bool canExpand(const QString& node) const;
  ExpansionItem* item(const QString& node) const;
  int pendingCount() const { return jobs_.liveCount(); }

 public slots:
  /// Shows the node's expansion (re-opens it if collapsed).
  void expand(const QString& node);
  /// Removes the node's expansion from the canvas.
  void remove(const QString& node);

 signals:
  void expanded(const QString& node);
  void failed(const QString& node, const QString& message);

 private:
  using ExpansionPtr = std::shared_ptr<const ExpansionResult>;
  void finish(const JobOutcome<ExpansionPtr>& outcome, const QString& node);

  GraphScene* scene_;
  LoadedProgramPtr program_;
  QString table_;
  QFont node_font_;
  QHash<QString, QPointer<ExpansionItem>> items_;
  BackgroundJobs<ExpansionPtr> jobs_{this};  // one per node asked for, all kept
};

}  // namespace exportlens::ui
