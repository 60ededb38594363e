#pragma once
// One character format for the syntax highlighters (program code, compiled sources).
#include <QColor>
#include <QFont>
#include <QTextCharFormat>

namespace exportlens::ui {

inline QTextCharFormat char_format(const QColor& color, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(color);
  if (bold) f.setFontWeight(QFont::DemiBold);
  f.setFontItalic(italic);
  return f;
}

}  // namespace exportlens::ui
