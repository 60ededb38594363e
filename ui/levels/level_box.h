#pragma once
// A combo box listing the IR-level switch's entries (the window's switch, the
// Compare levels panes): each item the entry's label, its key as data.
#include <QComboBox>
#include <QList>

#include "ui/core/ir_level_choice.h"

namespace exportlens::ui {

/// Whether `box` lists `choices` as they are now: the same keys and labels
/// (a file saved lowered names the first entry otherwise than a training one).
inline bool lists_levels(const QComboBox& box, const QList<LevelChoice>& choices) {
  if (box.count() != choices.size()) return false;
  for (int i = 0; i < box.count(); ++i)
    if (box.itemData(i).toString() != choices[i].key() || box.itemText(i) != choices[i].label()) return false;
  return true;
}

/// `box` emptied and filled with `choices`.
inline void fill_level_box(QComboBox& box, const QList<LevelChoice>& choices) {
  box.clear();
  for (const LevelChoice& choice : choices) box.addItem(choice.label(), choice.key());
}

}  // namespace exportlens::ui
