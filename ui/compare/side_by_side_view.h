#pragma once
// Two graph canvases side by side, linked: picking a node in one pane
// selects, in the other, the nodes a relation the owner gives names (and
// opens the module boxes around them). What Compare levels (two IR levels
// of one program, ui/levels), Compare with… (two instances of a stack,
// ui/structure) and the diff of two programs (ui/diff) are made of. Each
// pane has a header row (its caption; an owner may put its own widgets in
// front, as the levels' switch) above a canvas.
#include <QWidget>

#include <array>
#include <functional>
#include <vector>

#include "ui/core/loaded_program.h"

class QHBoxLayout;
class QLabel;

namespace exportlens::ui {

class GraphScene;
class GraphView;

class SideBySideView : public QWidget {
  Q_OBJECT
 public:
  explicit SideBySideView(QWidget* parent = nullptr);

  enum Side { Left = 0, Right = 1 };
  static Side other(Side side) { return side == Left ? Right : Left; }
  /// The nodes of the other pane that a node of `from`'s pane corresponds to.
  using Relation = std::function<QStringList(Side from, const QString& node)>;
  void setRelation(Relation relate) { relate_ = std::move(relate); }

  /// Shows `program` in a pane as it opens (null: nothing); fitted when it is a new one.
  void showProgram(Side side, const LoadedProgramPtr& program);
  void setCaption(Side side, const QString& text);
  /// Puts `widget` at the front of a pane's header row.
  void addHeaderWidget(Side side, QWidget* widget);
  /// Both panes show `program`, each with its scopes open and in sight (an
  /// instance of a stack: one module call, or several), the captions above
  /// them; picking a node in one selects what `relate` names in the other.
  void showPair(const LoadedProgramPtr& program, std::array<std::vector<int>, 2> scopes,
                std::array<QString, 2> captions, Relation relate);

  GraphScene* scene(Side side) const { return panes_[side].scene; }
  GraphView* view(Side side) const { return panes_[side].view; }
  QLabel* caption(Side side) const { return panes_[side].caption; }
  /// The program a pane shows (null while there is none).
  LoadedProgramPtr program(Side side) const { return panes_[side].shown; }
  /// The nodes selected in a pane.
  QStringList selectedNodes(Side side) const;

 public slots:
  /// Selects a node in one pane and the corresponding nodes in the other.
  void selectNode(exportlens::ui::SideBySideView::Side side, const QString& name);

 signals:
  /// A node was picked in a pane (by the user or selectNode()); the other pane followed.
  void nodePicked(exportlens::ui::SideBySideView::Side side, const QString& name);

 private:
  struct Pane {
    QHBoxLayout* header = nullptr;
    QLabel* caption = nullptr;
    GraphScene* scene = nullptr;
    GraphView* view = nullptr;
    LoadedProgramPtr shown;
  };
  QWidget* makePane(Side side);
  void linkFrom(Side side, const QString& name);

  Pane panes_[2];
  bool linking_ = false;
  Relation relate_;
};

}  // namespace exportlens::ui
