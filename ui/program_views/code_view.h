#pragma once
// The printed program (torch's print(ep) text), read-only, with line
// numbers. Follows the shared selection (highlights the node's lines and
// scrolls to them); clicking a line selects its node.
#include <QHash>
#include <QPlainTextEdit>
#include <QVector>

#include "engine/ir/printer.h"
#include "ui/core/loaded_program.h"

namespace exportlens::ui {

class CodeHighlighter;
class ProgramModel;

class CodeView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit CodeView(QWidget* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  /// Shows the model's program and highlights its selected node; a click selects there.
  void follow(ProgramModel* model);
  /// The 0-based lines highlighted for the selected node (empty if none).
  QVector<int> highlightedLines() const;
  /// The node whose lines include `line`, or an empty string.
  QString nodeAtLine(int line) const;

 public slots:
  void highlightNode(const QString& name);

 signals:
  void nodeClicked(const QString& name);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  friend class LineNumberGutter;
  int gutterWidth() const;
  void paintGutter(QPaintEvent* event);
  void updateGutter(const QRect& rect, int dy);

  QWidget* gutter_;
  CodeHighlighter* highlighter_;
  QHash<QString, ir::LineSpan> spans_;  // main-graph node -> its lines
  QVector<QString> node_of_line_;
  ir::LineSpan highlighted_{-1, -1};
};

}  // namespace exportlens::ui
