#pragma once
// Colours a compiled model's sources: C++ (the wrapper, CPU kernels) or
// Python (Triton kernels): keywords, types, strings, numbers, preprocessor
// lines and comments, block comments and triple-quoted strings across lines.
// Follows light and dark palettes.
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <QVector>

namespace exportlens::ui {

class SourceHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  enum class Language { Cpp, Python };
  SourceHighlighter(QTextDocument* document, Language language, bool dark);
  /// By the entry's suffix: .py is Python, anything else C++.
  static Language languageOf(const QString& entry);
  Language language() const { return language_; }
  void setDark(bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  /// Colours from `start` up to where a multi-line comment or string ends; returns its end or -1.
  int continueSpan(const QString& text, int start, const QRegularExpression& end, const QTextCharFormat& format);

  Language language_;
  QVector<Rule> rules_;
  QTextCharFormat comment_, string_;
};

}  // namespace exportlens::ui
