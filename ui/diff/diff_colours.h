#pragma once
// The diff's colours, one per kind of change, shared by the canvas marks
// and the Changes dock: added green, removed red, changed orange (as code
// review tools colour them), readable on light and dark canvases alike.
#include <QColor>

#include "engine/diff/program_diff.h"

namespace exportlens::ui {

QColor change_colour(diff::Status status);
/// The colour of a box with `flags` (ChangeFlags) inside: changed when anything
/// changed or both added and removed nodes lie in it, else added or removed.
QColor inside_colour(unsigned flags);

}  // namespace exportlens::ui
