#pragma once
// Finds nodes whose name, op or target contains a text (case-insensitive),
// in graph order, and steps through the matches with wrap-around.
#include <QString>
#include <QStringList>

#include "ui/core/loaded_program.h"

namespace exportlens::ui {

class NodeFinder {
 public:
  void setProgram(const LoadedProgramPtr& program);
  /// Starts a new search; returns the number of matches.
  int search(const QString& text);
  /// The next / previous match (wrapping), or empty without matches.
  QString next();
  QString previous();
  const QStringList& matches() const { return matches_; }
  int currentIndex() const { return current_; }  // -1 before the first step

 private:
  LoadedProgramPtr program_;
  QStringList matches_;
  int current_ = -1;
};

}  // namespace exportlens::ui
