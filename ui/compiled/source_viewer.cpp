#include "ui/compiled/source_viewer.h"

#include <QAction>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QShortcut>
#include <QSpinBox>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "engine/compiled/archive_contents.h"
#include "ui/compiled/numbered_text_edit.h"
#include "ui/compiled/source_highlighter.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {
namespace {

constexpr int kMarkedMatches = 5000;  // matches marked at once; the count covers them all

bool is_dark(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

}  // namespace

SourceViewer::SourceViewer(QWidget* parent)
    : QWidget(parent, Qt::Window), editor_(new NumberedTextEdit(this)), title_(new QLabel(this)),
      note_(new QLabel(this)), find_field_(new QLineEdit(this)), previous_(new QToolButton(this)),
      next_(new QToolButton(this)), match_label_(new QLabel(this)), line_box_(new QSpinBox(this)) {
  setObjectName(QStringLiteral("sourceViewer"));
  setAttribute(Qt::WA_DeleteOnClose);
  resize(1000, 760);
  editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  editor_->setObjectName(QStringLiteral("sourceText"));
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long entry never pushes Find away
  note_->setVisible(false);
  note_->setWordWrap(true);
  find_field_->setObjectName(QStringLiteral("sourceFind"));
  find_field_->setPlaceholderText(tr("Find (Ctrl+F)"));
  find_field_->setClearButtonEnabled(true);
  find_field_->setMinimumWidth(220);
  previous_->setText(QStringLiteral("▲"));
  previous_->setToolTip(tr("Previous match (Shift+F3)"));
  next_->setText(QStringLiteral("▼"));
  next_->setToolTip(tr("Next match (F3, Enter)"));
  match_label_->setObjectName(QStringLiteral("sourceMatches"));
  match_label_->setMinimumWidth(match_label_->fontMetrics().horizontalAdvance(QStringLiteral("8888 of 8888")));
  line_box_->setObjectName(QStringLiteral("sourceLine"));
  line_box_->setPrefix(tr("Line "));
  line_box_->setRange(1, 1);
  line_box_->setToolTip(tr("Go to line (Ctrl+L)"));
  line_box_->setKeyboardTracking(false);

  auto* bar = new QHBoxLayout;
  bar->addWidget(title_, 1);
  bar->addWidget(find_field_);
  bar->addWidget(previous_);
  bar->addWidget(next_);
  bar->addWidget(match_label_);
  bar->addWidget(line_box_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addLayout(bar);
  layout->addWidget(note_);
  layout->addWidget(editor_, 1);

  connect(find_field_, &QLineEdit::textChanged, this, [this](const QString& text) { find(text); });
  connect(find_field_, &QLineEdit::returnPressed, this, &SourceViewer::findNext);
  connect(next_, &QToolButton::clicked, this, &SourceViewer::findNext);
  connect(previous_, &QToolButton::clicked, this, &SourceViewer::findPrevious);
  connect(line_box_, &QSpinBox::valueChanged, this, &SourceViewer::goToLine);
  new QShortcut(QKeySequence::Find, this, this, &SourceViewer::focusFind);
  new QShortcut(QKeySequence::FindNext, this, this, &SourceViewer::findNext);
  new QShortcut(QKeySequence::FindPrevious, this, this, &SourceViewer::findPrevious);
  new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Return), find_field_, this, &SourceViewer::findPrevious);
  new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this, this, [this] {
    line_box_->setFocus();
    line_box_->selectAll();
  });
  new QShortcut(QKeySequence(Qt::Key_Escape), find_field_, this, [this] { editor_->setFocus(); });
  updateMatchLabel();
}

void SourceViewer::open(const QString& archive, const QString& entry, int line) {
  setWindowTitle(tr("%1 — %2").arg(QFileInfo(entry).fileName(), QFileInfo(archive).fileName()));
  if (archive == archive_ && entry == entry_ && !isReading()) {
    goToLine(line);
    return;
  }
  archive_ = archive;
  entry_ = entry;
  pending_line_ = line;
  title_->setText(tr("Reading %1…").arg(entry));
  jobs_.dropAll();
  jobs_.start(
      [file = QFile::encodeName(archive).toStdString(), name = entry.toStdString()](JobContext&, QString& out) {
        out = qs(compiled::read_source(file, name));
      },
      [this](JobOutcome<QString>& outcome) {
        if (!outcome.ok()) {
          title_->setText(tr("%1: %2").arg(entry_, outcome.error));
          emit readFailed(entry_, outcome.error);
          return;
        }
        showText(outcome.value);
      });
}

void SourceViewer::setSource(const QString& entry, const QString& text, int line) {
  jobs_.dropAll();
  entry_ = entry;
  pending_line_ = line;
  setWindowTitle(QFileInfo(entry).fileName());
  showText(text);
}

void SourceViewer::showText(const QString& text) {
  delete highlighter_;
  highlighter_ = nullptr;
  editor_->setPlainText(text);
  const bool colour = text.size() <= kHighlightLimit;
  if (colour) highlighter_ = new SourceHighlighter(editor_->document(), SourceHighlighter::languageOf(entry_), is_dark(palette()));
  note_->setText(colour ? QString()
                        : tr("%1 characters: shown without syntax colours, so that it stays responsive.")
                              .arg(QLocale().toString(text.size())));
  note_->setVisible(!colour);
  title_->setText(QStringLiteral("<b>%1</b>").arg(QFileInfo(entry_).fileName().toHtmlEscaped()));
  title_->setToolTip(tr("%1 in %2").arg(entry_, archive_));
  line_box_->blockSignals(true);
  line_box_->setRange(1, std::max(1, editor_->blockCount()));
  line_box_->blockSignals(false);
  markMatches();
  goToLine(pending_line_);
  emit sourceShown(entry_);
}

int SourceViewer::currentLine() const { return editor_->textCursor().blockNumber() + 1; }

void SourceViewer::goToLine(int line) {
  if (line <= 0) line = 1;
  const QTextBlock block = editor_->document()->findBlockByNumber(line - 1);
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  editor_->setTextCursor(cursor);
  // The line a third down the view, so what precedes it shows too.
  editor_->centerCursor();
  line_box_->blockSignals(true);
  line_box_->setValue(line);
  line_box_->blockSignals(false);
  markLine(line);
}

void SourceViewer::focusFind() {
  find_field_->setFocus();
  find_field_->selectAll();
}

int SourceViewer::find(const QString& text) {
  if (find_field_->text() != text) {
    find_field_->blockSignals(true);
    find_field_->setText(text);
    find_field_->blockSignals(false);
  }
  pattern_ = text;
  markMatches();
  if (match_count_ > 0) {
    // From the start of the current line, so the line opened at is searched too.
    QTextCursor at = editor_->textCursor();
    at.movePosition(QTextCursor::StartOfBlock);
    editor_->setTextCursor(at);
    moveToMatch(false);
  }
  return match_count_;
}

void SourceViewer::findNext() { moveToMatch(false); }
void SourceViewer::findPrevious() { moveToMatch(true); }

void SourceViewer::markMatches() {
  match_count_ = 0;
  current_match_ = 0;
  QList<QTextEdit::ExtraSelection> marks;
  if (!pattern_.isEmpty()) {
    const QString text = editor_->document()->toPlainText();
    QTextCharFormat format;
    format.setBackground(QColor(255, 214, 90, 150));
    for (qsizetype at = text.indexOf(pattern_, 0, Qt::CaseInsensitive); at >= 0;
         at = text.indexOf(pattern_, at + pattern_.size(), Qt::CaseInsensitive)) {
      if (++match_count_ > kMarkedMatches) continue;
      QTextCursor cursor(editor_->document());
      cursor.setPosition(int(at));
      cursor.setPosition(int(at + pattern_.size()), QTextCursor::KeepAnchor);
      marks.append({cursor, format});
    }
  }
  editor_->setExtraSelections(marks);
  updateMatchLabel();
}

void SourceViewer::markLine(int line) {
  QList<QTextEdit::ExtraSelection> marks = editor_->extraSelections();
  QTextEdit::ExtraSelection mark;
  mark.format.setBackground(QColor(120, 170, 255, 60));
  mark.format.setProperty(QTextFormat::FullWidthSelection, true);
  mark.cursor = QTextCursor(editor_->document()->findBlockByNumber(line - 1));
  marks.append(mark);
  editor_->setExtraSelections(marks);
}

void SourceViewer::moveToMatch(bool backwards) {
  if (pattern_.isEmpty() || match_count_ == 0) return;
  QTextDocument::FindFlags flags;
  if (backwards) flags |= QTextDocument::FindBackward;
  QTextCursor found = editor_->document()->find(pattern_, editor_->textCursor(), flags);
  if (found.isNull()) {  // wrap around
    QTextCursor start(editor_->document());
    if (backwards) start.movePosition(QTextCursor::End);
    found = editor_->document()->find(pattern_, start, flags);
  }
  if (found.isNull()) return;
  editor_->setTextCursor(found);
  editor_->centerCursor();
  // Which match this is: those starting before it, plus one.
  const QString text = editor_->document()->toPlainText();
  int index = 0;
  for (qsizetype at = text.indexOf(pattern_, 0, Qt::CaseInsensitive); at >= 0 && at < found.selectionStart();
       at = text.indexOf(pattern_, at + pattern_.size(), Qt::CaseInsensitive))
    ++index;
  current_match_ = index + 1;
  line_box_->blockSignals(true);
  line_box_->setValue(currentLine());
  line_box_->blockSignals(false);
  updateMatchLabel();
}

void SourceViewer::updateMatchLabel() {
  if (pattern_.isEmpty()) {
    match_label_->clear();
  } else if (match_count_ == 0) {
    match_label_->setText(tr("no match"));
  } else if (current_match_ > 0) {
    match_label_->setText(tr("%1 of %2").arg(current_match_).arg(match_count_));
  } else {
    match_label_->setText(tr("%n match(es)", nullptr, match_count_));
  }
  previous_->setEnabled(match_count_ > 0);
  next_->setEnabled(match_count_ > 0);
}

void SourceViewer::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && highlighter_) highlighter_->setDark(is_dark(palette()));
}

}  // namespace exportlens::ui
