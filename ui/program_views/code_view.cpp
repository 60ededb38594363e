#include "ui/program_views/code_view.h"

#include <QFontDatabase>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

#include "ui/core/program_model.h"
#include "ui/program_views/code_highlighter.h"

namespace exportlens::ui {

// The line numbers beside the text; all painting is done by the view.
class LineNumberGutter : public QWidget {
 public:
  explicit LineNumberGutter(CodeView* view) : QWidget(view), view_(view) {}
  QSize sizeHint() const override { return {view_->gutterWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { view_->paintGutter(event); }

 private:
  CodeView* view_;
};

namespace {

bool is_dark(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

}  // namespace

CodeView::CodeView(QWidget* parent)
    : QPlainTextEdit(parent),
      gutter_(new LineNumberGutter(this)),
      highlighter_(new CodeHighlighter(document(), is_dark(palette()))) {
  setReadOnly(true);
  setLineWrapMode(NoWrap);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, &CodeView::updateGutter);
  setViewportMargins(gutterWidth(), 0, 0, 0);
}

void CodeView::setProgram(const LoadedProgramPtr& program) {
  spans_.clear();
  node_of_line_.clear();
  highlighted_ = {-1, -1};
  setExtraSelections({});
  if (!program) {
    clear();
    return;
  }
  setPlainText(QString::fromStdString(program->printed.text));
  node_of_line_.resize(blockCount());
  // Subgraphs (cond/map bodies) have nodes of their own with clashing names:
  // only the main graph's nodes are selectable.
  const ir::Graph* main = &program->graph();
  for (const auto& [node, span] : program->printed.node_lines) {
    if (node->graph() != main) continue;
    const QString name = QString::fromStdString(node->name);
    spans_.insert(name, span);
    for (int line = span.first; line <= span.last && line < node_of_line_.size(); ++line)
      node_of_line_[line] = name;
  }
}

QVector<int> CodeView::highlightedLines() const {
  QVector<int> lines;
  for (int line = highlighted_.first; line >= 0 && line <= highlighted_.last; ++line) lines.append(line);
  return lines;
}

QString CodeView::nodeAtLine(int line) const {
  return line >= 0 && line < node_of_line_.size() ? node_of_line_[line] : QString();
}

void CodeView::highlightNode(const QString& name) {
  auto it = spans_.constFind(name);
  gutter_->update();
  if (it == spans_.constEnd()) {
    highlighted_ = {-1, -1};
    setExtraSelections({});
    return;
  }
  highlighted_ = *it;
  QColor background = palette().color(QPalette::Highlight);
  background.setAlpha(70);
  QList<QTextEdit::ExtraSelection> selections;
  for (int line = highlighted_.first; line <= highlighted_.last; ++line) {
    QTextEdit::ExtraSelection selection;
    selection.format.setBackground(background);
    selection.format.setProperty(QTextFormat::FullWidthSelection, true);
    selection.cursor = QTextCursor(document()->findBlockByNumber(line));
    selections.append(selection);
  }
  setExtraSelections(selections);
  // Scroll so the statement shows, without moving a selection the user made.
  const QTextBlock first = document()->findBlockByNumber(highlighted_.first);
  const QTextBlock last = document()->findBlockByNumber(highlighted_.last);
  const int top = firstVisibleBlock().blockNumber();
  const int visible_lines = viewport()->height() / std::max(1, fontMetrics().height());
  if (first.blockNumber() < top || last.blockNumber() >= top + visible_lines)
    verticalScrollBar()->setValue(std::max(0, first.blockNumber() - visible_lines / 3));
}

void CodeView::mouseReleaseEvent(QMouseEvent* event) {
  QPlainTextEdit::mouseReleaseEvent(event);
  // A drag selects text for copying; only a plain click selects a node.
  if (event->button() != Qt::LeftButton || textCursor().hasSelection()) return;
  const int line = cursorForPosition(event->position().toPoint()).blockNumber();
  const QString name = nodeAtLine(line);
  if (!name.isEmpty()) emit nodeClicked(name);
}

void CodeView::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) highlighter_->setDark(is_dark(palette()));
}

int CodeView::gutterWidth() const {
  const int digits = QString::number(std::max(1, blockCount())).size();
  return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void CodeView::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect area = contentsRect();
  gutter_->setGeometry(QRect(area.left(), area.top(), gutterWidth(), area.height()));
}

void CodeView::updateGutter(const QRect& rect, int dy) {
  if (dy) {
    gutter_->scroll(0, dy);
  } else {
    gutter_->update(0, rect.y(), gutter_->width(), rect.height());
  }
}

void CodeView::paintGutter(QPaintEvent* event) {
  QPainter painter(gutter_);
  const QPalette& pal = palette();
  painter.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
  painter.setFont(font());
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  while (block.isValid() && top <= event->rect().bottom()) {
    const int height = qRound(blockBoundingRect(block).height());
    if (block.isVisible() && top + height >= event->rect().top()) {
      const int line = block.blockNumber();
      const bool lit = line >= highlighted_.first && line <= highlighted_.last && highlighted_.first >= 0;
      painter.setPen(lit ? pal.color(QPalette::Text) : pal.color(QPalette::PlaceholderText));
      painter.drawText(0, top, gutter_->width() - 6, height, Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(line + 1));
    }
    block = block.next();
    top += height;
  }
}

void CodeView::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] { setProgram(model->loaded()); });
  connect(model, &ProgramModel::selectionChanged, this, &CodeView::highlightNode);
  connect(this, &CodeView::nodeClicked, model, &ProgramModel::selectNode);
}

}  // namespace exportlens::ui
