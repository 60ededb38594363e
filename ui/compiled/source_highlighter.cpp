#include "ui/compiled/source_highlighter.h"

#include "ui/core/text_format.h"

namespace exportlens::ui {
namespace {

enum BlockState { Plain = 0, InBlockComment = 1, InTripleString = 2 };

}  // namespace

SourceHighlighter::SourceHighlighter(QTextDocument* document, Language language, bool dark)
    : QSyntaxHighlighter(document), language_(language) {
  setDark(dark);
}

SourceHighlighter::Language SourceHighlighter::languageOf(const QString& entry) {
  return entry.endsWith(QLatin1String(".py"), Qt::CaseInsensitive) ? Language::Python : Language::Cpp;
}

void SourceHighlighter::setDark(bool dark) {
  const QColor keyword = dark ? QColor(198, 146, 233) : QColor(126, 40, 160);
  const QColor type = dark ? QColor(110, 180, 255) : QColor(20, 90, 180);
  const QColor string = dark ? QColor(140, 200, 130) : QColor(30, 120, 60);
  const QColor number = dark ? QColor(230, 190, 110) : QColor(160, 90, 0);
  const QColor preprocessor = dark ? QColor(240, 140, 140) : QColor(170, 40, 60);
  const QColor call = dark ? QColor(120, 210, 210) : QColor(0, 110, 120);
  comment_ = char_format(dark ? QColor(135, 140, 150) : QColor(110, 115, 125), false, true);
  string_ = char_format(string);
  if (language_ == Language::Cpp) {
    rules_ = {
        {QRegularExpression(QStringLiteral(R"(\b[A-Za-z_]\w*(?=\s*\())")), char_format(call)},
        {QRegularExpression(QStringLiteral(
             R"(\b(auto|break|case|catch|class|const|constexpr|continue|default|delete|do|else|enum|explicit|extern|for|friend|if|inline|namespace|new|noexcept|nullptr|operator|private|protected|public|return|sizeof|static|static_cast|reinterpret_cast|struct|switch|template|this|throw|try|typedef|typename|using|virtual|void|volatile|while|true|false)\b)")),
         char_format(keyword, true)},
        {QRegularExpression(QStringLiteral(
             R"(\b(bool|char|double|float|int|long|short|signed|unsigned|size_t|u?int(8|16|32|64)_t|at::\w+|c10::\w+|AtenTensorHandle|RAIIAtenTensorHandle|AOTI\w*|Vectorized|bfloat16|half)\b)")),
         char_format(type)},
        {QRegularExpression(QStringLiteral(R"(\b(0x[0-9a-fA-F]+|\d+\.?\d*([eE][-+]?\d+)?)[fFlLuU]*\b)")), char_format(number)},
        {QRegularExpression(QStringLiteral(R"(^\s*#\s*\w+.*$)")), char_format(preprocessor)},
        {QRegularExpression(QStringLiteral(R"("(\\.|[^"\\])*"|'(\\.|[^'\\])')")), string_},
    };
  } else {
    rules_ = {
        {QRegularExpression(QStringLiteral(R"(\b[A-Za-z_]\w*(?=\s*\())")), char_format(call)},
        {QRegularExpression(QStringLiteral(
             R"(\b(and|as|assert|break|class|continue|def|del|elif|else|except|for|from|global|if|import|in|is|lambda|None|nonlocal|not|or|pass|raise|return|True|False|try|while|with|yield)\b)")),
         char_format(keyword, true)},
        {QRegularExpression(QStringLiteral(R"(\b(tl|triton|torch)\.[\w.]+|\btl\.constexpr\b)")), char_format(type)},
        {QRegularExpression(QStringLiteral(R"(^\s*@[\w.]+)")), char_format(preprocessor)},
        {QRegularExpression(QStringLiteral(R"(\b\d+\.?\d*([eE][-+]?\d+)?\b)")), char_format(number)},
        {QRegularExpression(QStringLiteral(R"("(\\.|[^"\\])*"|'(\\.|[^'\\])*')")), string_},
    };
  }
  rehighlight();
}

int SourceHighlighter::continueSpan(const QString& text, int start, const QRegularExpression& end,
                                    const QTextCharFormat& format) {
  const QRegularExpressionMatch m = end.match(text, start);
  if (!m.hasMatch()) {
    setFormat(start, int(text.size()) - start, format);
    return -1;
  }
  setFormat(start, int(m.capturedEnd()) - start, format);
  return int(m.capturedEnd());
}

void SourceHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : std::as_const(rules_))
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      const auto match = it.next();
      setFormat(int(match.capturedStart()), int(match.capturedLength()), rule.format);
    }
  setCurrentBlockState(Plain);
  if (language_ == Language::Cpp) {
    static const QRegularExpression open(QStringLiteral(R"(//|/\*)")), close(QStringLiteral(R"(\*/)"));
    int at = 0;
    if (previousBlockState() == InBlockComment) {
      at = continueSpan(text, 0, close, comment_);
      if (at < 0) return setCurrentBlockState(InBlockComment);
    }
    // Comments after strings: a "//" inside a string literal is left as it is.
    for (auto m = open.match(text, at); m.hasMatch(); m = open.match(text, at)) {
      const int start = int(m.capturedStart());
      if (format(start) == string_) {
        at = start + 2;
        continue;
      }
      if (m.captured() == QLatin1String("//")) return setFormat(start, int(text.size()) - start, comment_);
      at = continueSpan(text, start + 2, close, comment_);
      setFormat(start, 2, comment_);
      if (at < 0) return setCurrentBlockState(InBlockComment);
    }
  } else {
    static const QRegularExpression triple(QStringLiteral(R"(\"\"\"|''')")), hash(QStringLiteral("#"));
    int at = 0;
    if (previousBlockState() == InTripleString) {
      at = continueSpan(text, 0, triple, string_);
      if (at < 0) return setCurrentBlockState(InTripleString);
    }
    for (auto m = triple.match(text, at); m.hasMatch(); m = triple.match(text, at)) {
      const int start = int(m.capturedStart());
      setFormat(start, 3, string_);
      at = continueSpan(text, start + 3, triple, string_);
      if (at < 0) return setCurrentBlockState(InTripleString);
    }
    for (auto m = hash.match(text, at); m.hasMatch(); m = hash.match(text, int(m.capturedEnd()))) {
      const int start = int(m.capturedStart());
      if (format(start) != string_) return setFormat(start, int(text.size()) - start, comment_);
    }
  }
}

}  // namespace exportlens::ui
