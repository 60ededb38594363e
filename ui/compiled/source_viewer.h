#pragma once
// A compiled model's source (the wrapper's C++, a kernel's C++ or Triton
// Python) read-only: highlighted, with line numbers, Find (Ctrl+F: next and
// previous, every match marked, "3 of 12"), Go to Line (Ctrl+L), opened at
// a kernel's definition or its launch in the wrapper. The text is read from
// the archive off the GUI thread; a source over kHighlightLimit is shown
// without colours so it stays responsive.
#include <QString>
#include <QWidget>

#include "ui/core/background_jobs.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QToolButton;

namespace exportlens::ui {

class SourceHighlighter;

class SourceViewer : public QWidget {
  Q_OBJECT
 public:
  /// Sources larger than this are shown without syntax colours.
  static constexpr qsizetype kHighlightLimit = 2 * 1024 * 1024;

  explicit SourceViewer(QWidget* parent = nullptr);

  /// Reads `entry` of `archive` and shows it at `line` (1-based; 0: the top),
  /// the line marked. Reopening the entry shown only moves to the line.
  void open(const QString& archive, const QString& entry, int line = 0);
  /// Shows `text` as the source `entry` (what open() does once the text is read).
  void setSource(const QString& entry, const QString& text, int line = 0);
  bool isReading() const { return jobs_.isBusy(); }
  QString entry() const { return entry_; }
  QPlainTextEdit* editor() const { return editor_; }
  /// Null while the source shown is too large to colour (or before one).
  SourceHighlighter* highlighter() const { return highlighter_; }
  QLineEdit* findField() const { return find_field_; }
  QLabel* matchLabel() const { return match_label_; }

  /// Finds `text` (case-insensitive): marks every match, moves to the first
  /// at or after the cursor; returns how many there are.
  int find(const QString& text);
  int matchCount() const { return match_count_; }
  /// 1-based index of the match the cursor is on; 0 when none.
  int currentMatch() const { return current_match_; }
  /// The 1-based line of the cursor.
  int currentLine() const;

 public slots:
  void findNext();
  void findPrevious();
  void goToLine(int line);
  void focusFind();

 signals:
  /// The source is on screen (after a read).
  void sourceShown(const QString& entry);
  void readFailed(const QString& entry, const QString& message);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void showText(const QString& text);
  void markMatches();
  void moveToMatch(bool backwards);
  void updateMatchLabel();
  void markLine(int line);

  QString archive_, entry_;
  int pending_line_ = 0;
  QPlainTextEdit* editor_;
  SourceHighlighter* highlighter_ = nullptr;
  QLabel* title_;
  QLabel* note_;
  QLineEdit* find_field_;
  QToolButton* previous_;
  QToolButton* next_;
  QLabel* match_label_;
  QSpinBox* line_box_;
  QString pattern_;
  int match_count_ = 0;
  int current_match_ = 0;
  BackgroundJobs<QString> jobs_{this};
};

}  // namespace exportlens::ui
