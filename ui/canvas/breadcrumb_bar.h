#pragma once
// The module path above the canvas: "program › blocks › blocks.3 › mlp" for
// the item under the cursor, else for the selection. Each crumb brings its
// scope into sight (the root fits the picture).
#include <QList>
#include <QWidget>

class QHBoxLayout;
class QToolButton;

namespace exportlens::ui {

class GraphScene;

class BreadcrumbBar : public QWidget {
  Q_OBJECT
 public:
  explicit BreadcrumbBar(QWidget* parent = nullptr);

  void setScene(GraphScene* scene) { scene_ = scene; }
  /// The path of the selection (-1: nothing selected).
  void setSelectedScope(int scope);
  /// The path of what the cursor is over (-1: nothing; the selection's shows).
  void setHoveredScope(int scope);
  /// The crumbs' text, root first ("program", "blocks", "blocks.3").
  QStringList crumbs() const;
  int shownScope() const { return shown_; }

 signals:
  /// A crumb was clicked: its scope (0 for the root).
  void scopeClicked(int scope);

 private:
  void rebuild();

  GraphScene* scene_ = nullptr;
  QHBoxLayout* layout_;
  QList<QToolButton*> buttons_;
  int selected_ = -1;
  int hovered_ = -1;
  int shown_ = -2;
};

}  // namespace exportlens::ui
