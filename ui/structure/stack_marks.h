#pragma once
// Repeated structure marked on the canvas: every drawn instance of a stack
// (a collapsed box or an open frame) gets a small badge, "3/8" — its place
// in "8 × ResBlock (blocks.0 … blocks.7)" — orange with "!" when it differs
// from the majority; the badge's tooltip names the stack and what differs.
// A stack drawn as one box (canvas_stacks.h) gets "! 2 of 8 differ" when
// any instance differs, its tooltip each differing instance and how; opened,
// its one instance drawn has its "3/8" badge.
// For the selected node, its counterparts in every instance of the stacks
// around it are ringed (the box standing for one when it is collapsed).
// Drawn by one item of its own over the scene's, so the canvas's items stay
// as they are; rebuilt whenever the picture, the analysis or the selection
// changes.
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

namespace exportlens::ui {

class GraphScene;
class ProgramModel;
class StructurePanel;
class StackMarksItem;

class StackMarks : public QObject {
  Q_OBJECT
 public:
  StackMarks(GraphScene* scene, StructurePanel* panel, ProgramModel* model, QObject* parent = nullptr);
  ~StackMarks() override;

  /// The badges drawn: scope -> its text ("3/8", "!5/8").
  QHash<int, QString> badges() const;
  /// The nodes and collapsed boxes ringed as counterparts of the selected node.
  QStringList ringedNodes() const;
  QList<int> ringedScopes() const;

 public slots:
  void refresh();

 private:
  GraphScene* scene_;
  StructurePanel* panel_;
  ProgramModel* model_;
  QPointer<StackMarksItem> item_;
};

}  // namespace exportlens::ui
