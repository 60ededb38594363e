#pragma once
// The diff of two opened programs, made on a worker (make_diff_snapshot)
// and read-only after: both programs as the canvases show them, what the
// matcher read of each, the diff, each side's stacks (folded on the
// canvases as in the main window), and, per node and per module call of
// each side, what changed: what the canvas marks and the Changes dock read.
#include <QString>

#include <memory>
#include <vector>

#include "engine/diff/program_diff.h"
#include "ui/compare/side_by_side_view.h"
#include "ui/structure/repeated_structure_model.h"

namespace exportlens::ui {

/// What changed inside a module call (or at a node), as flags.
enum ChangeFlag : unsigned { Changed = 1, Added = 2, Removed = 4 };
unsigned change_flag(diff::Status status);

struct DiffSnapshot {
  using Side = SideBySideView::Side;

  LoadedProgramPtr a, b;  // left and right; they keep the indexed programs' nodes alive
  std::unique_ptr<const matching::IndexedProgram> ia, ib;
  diff::ProgramDiff diff;
  StructureSnapshotPtr stacks_a, stacks_b;
  /// By node index of each side: its entry in diff.nodes.
  std::vector<int> entry_a, entry_b;
  /// By scope of each side: ChangeFlags of what changed inside it, its counterpart's additions or removals included.
  std::vector<unsigned> inside_a, inside_b;

  const LoadedProgramPtr& program(Side side) const { return side == Side::Left ? a : b; }
  const matching::IndexedProgram& indexed(Side side) const { return side == Side::Left ? *ia : *ib; }
  /// The diff entry of a node of one side (null for a name the program lacks).
  const diff::NodeDiff* entry(Side side, const QString& node) const;
  /// The node matched to `node` of `side` in the other program, or "" when it has none.
  QString counterpart(Side side, const QString& node) const;
  /// For a node without a counterpart: the counterpart of the nearest node around it
  /// that has one (its inputs first, then its users): where it would be in the other program.
  QString nearest_counterpart(Side side, const QString& node) const;
  /// The module call of the other side matched to `scope`, or -1.
  int counterpart_scope(Side side, int scope) const;
  /// ChangeFlags inside a module call of one side.
  unsigned inside(Side side, int scope) const;
};
using DiffSnapshotPtr = std::shared_ptr<const DiffSnapshot>;

/// Matches and diffs `a` against `b` (the stacks of both found too). Throws Cancelled.
DiffSnapshotPtr make_diff_snapshot(LoadedProgramPtr a, LoadedProgramPtr b, const CancelToken* cancel);

}  // namespace exportlens::ui
