#include "ui/program_views/node_finder.h"

#include "engine/layout/node_label.h"

namespace exportlens::ui {

void NodeFinder::setProgram(const LoadedProgramPtr& program) {
  program_ = program;
  matches_.clear();
  current_ = -1;
}

int NodeFinder::search(const QString& text) {
  matches_.clear();
  current_ = -1;
  const QString needle = text.trimmed();
  if (!program_ || needle.isEmpty()) return 0;
  for (const ir::Node* node : program_->graph().nodes()) {
    const QString name = QString::fromStdString(node->name);
    const bool hit = name.contains(needle, Qt::CaseInsensitive) ||
                     QString::fromStdString(layout::op_short_name(*node)).contains(needle, Qt::CaseInsensitive) ||
                     QString::fromStdString(node->target.qualified()).contains(needle, Qt::CaseInsensitive);
    if (hit) matches_ << name;
  }
  return static_cast<int>(matches_.size());
}

QString NodeFinder::next() {
  if (matches_.isEmpty()) return {};
  current_ = (current_ + 1) % static_cast<int>(matches_.size());
  return matches_[current_];
}

QString NodeFinder::previous() {
  if (matches_.isEmpty()) return {};
  const int n = static_cast<int>(matches_.size());
  current_ = current_ < 0 ? n - 1 : (current_ - 1 + n) % n;
  return matches_[current_];
}

}  // namespace exportlens::ui
