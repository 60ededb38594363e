#include "ui/diff/diff_snapshot.h"

#include <set>

namespace exportlens::ui {
namespace {

using Side = SideBySideView::Side;

StructureSnapshotPtr stacks_of(const LoadedProgramPtr& program) {
  auto s = std::make_shared<StructureSnapshot>();
  s->program = program;
  s->hierarchy = *program->hierarchy;
  s->structure = structure::analyse_structure(*program->program, s->hierarchy);
  return s;
}

// Per scope of `own`: the flags of its nodes (nested calls included), and of the nodes of
// the scope the other side matched to it that only the other side has.
std::vector<unsigned> scope_flags(const DiffSnapshot& s, Side own) {
  const bool left = own == Side::Left;
  const auto& h = s.indexed(own).hierarchy();
  const auto& other_h = s.indexed(SideBySideView::other(own)).hierarchy();
  const auto& entries = left ? s.entry_a : s.entry_b;
  const auto& other_entries = left ? s.entry_b : s.entry_a;
  const auto& to_other = left ? s.diff.matching.scope_a_to_b : s.diff.matching.scope_b_to_a;
  const diff::Status theirs = left ? diff::Status::Added : diff::Status::Removed;
  std::vector<unsigned> own_flags(h.size(), 0), other_flags(other_h.size(), 0);
  for (size_t n = 0; n < entries.size(); ++n)
    own_flags[static_cast<size_t>(h.scope_of[n])] |= change_flag(s.diff.nodes[static_cast<size_t>(entries[n])].status);
  for (size_t n = 0; n < other_entries.size(); ++n)
    if (s.diff.nodes[static_cast<size_t>(other_entries[n])].status == theirs)
      other_flags[static_cast<size_t>(other_h.scope_of[n])] |= change_flag(theirs);
  for (size_t k = other_h.size(); k-- > 1;)  // children after parents: sum bottom-up
    other_flags[static_cast<size_t>(other_h[static_cast<int>(k)].parent)] |= other_flags[k];
  for (size_t k = 0; k < h.size(); ++k)
    if (to_other[k] >= 0) own_flags[k] |= other_flags[static_cast<size_t>(to_other[k])];
    else own_flags[k] |= left ? ChangeFlag::Removed : ChangeFlag::Added;  // a call only this side makes
  for (size_t k = h.size(); k-- > 1;) own_flags[static_cast<size_t>(h[static_cast<int>(k)].parent)] |= own_flags[k];
  return own_flags;
}

}  // namespace

unsigned change_flag(diff::Status status) {
  switch (status) {
    case diff::Status::Same: return 0;
    case diff::Status::Changed: return ChangeFlag::Changed;
    case diff::Status::Added: return ChangeFlag::Added;
    case diff::Status::Removed: return ChangeFlag::Removed;
  }
  return 0;
}

const diff::NodeDiff* DiffSnapshot::entry(Side side, const QString& node) const {
  const ir::Node* n = program(side)->graph().find(node.toStdString());
  const int k = n ? indexed(side).index_of(n) : -1;
  if (k < 0) return nullptr;
  const auto& entries = side == Side::Left ? entry_a : entry_b;
  return &diff.nodes[static_cast<size_t>(entries[static_cast<size_t>(k)])];
}

QString DiffSnapshot::counterpart(Side side, const QString& node) const {
  const diff::NodeDiff* e = entry(side, node);
  const int other = !e ? -1 : side == Side::Left ? e->b : e->a;
  if (other < 0) return {};
  return QString::fromStdString(indexed(SideBySideView::other(side)).nodes()[static_cast<size_t>(other)]->name);
}

QString DiffSnapshot::nearest_counterpart(Side side, const QString& node) const {
  constexpr size_t kLooked = 64;  // nodes looked at, at most
  const ir::Node* start = program(side)->graph().find(node.toStdString());
  if (!start) return {};
  std::vector<const ir::Node*> queue{start};
  std::set<const ir::Node*> seen{start};
  for (size_t k = 0; k < queue.size() && k < kLooked; ++k) {
    const QString other = counterpart(side, QString::fromStdString(queue[k]->name));
    if (!other.isEmpty()) return other;
    auto visit = [&](const ir::Node* n) {
      if (n && seen.insert(n).second) queue.push_back(n);
    };
    queue[k]->for_each_input(visit);
    for (const ir::Node* u : queue[k]->users()) visit(u);
  }
  return {};
}

int DiffSnapshot::counterpart_scope(Side side, int scope) const {
  const auto& to = side == Side::Left ? diff.matching.scope_a_to_b : diff.matching.scope_b_to_a;
  return scope >= 0 && static_cast<size_t>(scope) < to.size() ? to[static_cast<size_t>(scope)] : -1;
}

unsigned DiffSnapshot::inside(Side side, int scope) const {
  const auto& flags = side == Side::Left ? inside_a : inside_b;
  return scope >= 0 && static_cast<size_t>(scope) < flags.size() ? flags[static_cast<size_t>(scope)] : 0;
}

DiffSnapshotPtr make_diff_snapshot(LoadedProgramPtr a, LoadedProgramPtr b, const CancelToken* cancel) {
  auto s = std::make_shared<DiffSnapshot>();
  s->a = std::move(a);
  s->b = std::move(b);
  s->ia = std::make_unique<matching::IndexedProgram>(*s->a->program, s->a->hierarchy);
  s->ib = std::make_unique<matching::IndexedProgram>(*s->b->program, s->b->hierarchy);
  diff::DiffOptions options;
  options.cancel = cancel;
  s->diff = diff::diff_programs(*s->ia, *s->ib, options);
  s->entry_a.assign(s->ia->size(), -1);
  s->entry_b.assign(s->ib->size(), -1);
  for (size_t k = 0; k < s->diff.nodes.size(); ++k) {
    const diff::NodeDiff& n = s->diff.nodes[k];
    if (n.a >= 0) s->entry_a[static_cast<size_t>(n.a)] = static_cast<int>(k);
    if (n.b >= 0) s->entry_b[static_cast<size_t>(n.b)] = static_cast<int>(k);
  }
  s->inside_a = scope_flags(*s, Side::Left);
  s->inside_b = scope_flags(*s, Side::Right);
  if (cancel) cancel->check();
  s->stacks_a = stacks_of(s->a);
  s->stacks_b = stacks_of(s->b);
  return s;
}

}  // namespace exportlens::ui
