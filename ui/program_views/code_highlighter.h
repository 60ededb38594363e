#pragma once
// Colours the printed program like Python source: comments, shape strings,
// keywords, op targets. Follows light and dark palettes.
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <QVector>

namespace exportlens::ui {

class CodeHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  explicit CodeHighlighter(QTextDocument* document, bool dark);
  void setDark(bool dark);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  QVector<Rule> rules_;
  QTextCharFormat comment_;
};

}  // namespace exportlens::ui
