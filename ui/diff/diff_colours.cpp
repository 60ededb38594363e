#include "ui/diff/diff_colours.h"

#include "ui/diff/diff_snapshot.h"

namespace exportlens::ui {

QColor change_colour(diff::Status status) {
  switch (status) {
    case diff::Status::Added: return QColor(46, 160, 67);
    case diff::Status::Removed: return QColor(215, 58, 73);
    case diff::Status::Changed: return QColor(230, 140, 20);
    case diff::Status::Same: break;
  }
  return {};
}

QColor inside_colour(unsigned flags) {
  if (flags == ChangeFlag::Added) return change_colour(diff::Status::Added);
  if (flags == ChangeFlag::Removed) return change_colour(diff::Status::Removed);
  return flags ? change_colour(diff::Status::Changed) : QColor();
}

}  // namespace exportlens::ui
