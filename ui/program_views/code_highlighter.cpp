#include "ui/program_views/code_highlighter.h"

#include "ui/core/text_format.h"

namespace exportlens::ui {

CodeHighlighter::CodeHighlighter(QTextDocument* document, bool dark) : QSyntaxHighlighter(document) {
  setDark(dark);
}

void CodeHighlighter::setDark(bool dark) {
  const QColor keyword = dark ? QColor(198, 146, 233) : QColor(126, 40, 160);
  const QColor op = dark ? QColor(110, 180, 255) : QColor(20, 90, 180);
  const QColor string = dark ? QColor(140, 200, 130) : QColor(30, 120, 60);
  const QColor heading = dark ? QColor(230, 190, 110) : QColor(150, 90, 0);
  rules_ = {
      {QRegularExpression(QStringLiteral(R"(\b(def|class|return|self|None|True|False)\b)")), char_format(keyword, true)},
      {QRegularExpression(QStringLiteral(R"(\btorch\.ops\.[\w.]+)")), char_format(op)},
      {QRegularExpression(QStringLiteral(R"("[^"]*")")), char_format(string)},
      {QRegularExpression(QStringLiteral(R"(^(ExportedProgram:|Graph signature:|Range constraints:))")),
       char_format(heading, true)},
  };
  comment_ = char_format(dark ? QColor(135, 140, 150) : QColor(120, 125, 135), false, true);
  rehighlight();
}

void CodeHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : std::as_const(rules_)) {
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      auto match = it.next();
      setFormat(match.capturedStart(), match.capturedLength(), rule.format);
    }
  }
  // A comment colours the rest of its line, whatever else matched there.
  static const QRegularExpression comment(QStringLiteral(R"(^\s*#.*$)"));
  auto match = comment.match(text);
  if (match.hasMatch()) setFormat(match.capturedStart(), match.capturedLength(), comment_);
}

}  // namespace exportlens::ui
