#include "engine/diff/program_diff.h"

#include "engine/diff/guard_diff.h"
#include "engine/diff/module_summary.h"
#include "engine/diff/node_comparison.h"
#include "engine/diff/signature_diff.h"
#include "engine/diff/symbol_correspondence.h"
#include "engine/diff/weight_diff.h"

namespace exportlens::diff {
namespace {

void check(const DiffOptions& options) {
  if (options.cancel) options.cancel->check();
}

// Every node once: A's in graph order, each of B's added nodes after the
// node of A matched to the last node before it in B.
std::vector<NodeDiff> diff_nodes(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                 const matching::ProgramMatching& m, const SymbolCorrespondence& symbols,
                                 const ir::OpSignatureLookup& signatures) {
  std::vector<std::vector<int>> added_after(a.size() + 1);  // [0]: before any; [i + 1]: after A's node i
  int anchor = 0;
  for (size_t j = 0; j < b.size(); ++j) {
    if (m.b_to_a[j].matched()) anchor = m.b_to_a[j].node + 1;
    else added_after[static_cast<size_t>(anchor)].push_back(static_cast<int>(j));
  }
  const NodeComparison compare(a, b, m, symbols, signatures);
  std::vector<NodeDiff> out;
  out.reserve(a.size() + b.size());
  auto add_inserted = [&](size_t slot) {
    for (int j : added_after[slot]) {
      NodeDiff d;
      d.status = Status::Added;
      d.b = j;
      out.push_back(std::move(d));
    }
  };
  add_inserted(0);
  for (size_t i = 0; i < a.size(); ++i) {
    const int j = m.a_to_b[i].node;
    if (j >= 0) {
      out.push_back(compare.compare(static_cast<int>(i), j));
    } else {
      NodeDiff d;
      d.status = Status::Removed;
      d.a = static_cast<int>(i);
      out.push_back(std::move(d));
    }
    add_inserted(i + 1);
  }
  return out;
}

}  // namespace

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Same: return "same";
    case Status::Changed: return "changed";
    case Status::Added: return "added";
    case Status::Removed: return "removed";
  }
  return "?";
}

std::string_view aspect_name(Aspect a) {
  switch (a) {
    case Aspect::Target: return "target";
    case Aspect::Overload: return "overload";
    case Aspect::Arguments: return "arguments";
    case Aspect::Inputs: return "inputs";
    case Aspect::Shape: return "shape";
    case Aspect::Dtype: return "dtype";
    case Aspect::Strides: return "strides";
  }
  return "?";
}

bool ProgramDiff::same() const {
  if (counts.changed || counts.added || counts.removed || !signature.empty()) return false;
  if (!guards.only_a.empty() || !guards.only_b.empty() || !guards.ranges.empty() || !guards.input_shapes.empty())
    return false;
  for (const WeightDiff& w : weights)
    if (w.status != Status::Same) return false;
  return true;
}

ProgramDiff diff_programs(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                          const DiffOptions& options) {
  ProgramDiff d;
  d.matching = matching::match_programs(a, b, options.matching);
  check(options);
  const SymbolCorrespondence symbols(a, b, d.matching);
  d.nodes = diff_nodes(a, b, d.matching, symbols, options.signatures);
  std::vector<const NodeDiff*> node_a(a.size()), node_b(b.size());
  for (const NodeDiff& n : d.nodes) {
    if (n.a >= 0) node_a[static_cast<size_t>(n.a)] = &n;
    if (n.b >= 0) node_b[static_cast<size_t>(n.b)] = &n;
    switch (n.status) {
      case Status::Same: ++d.counts.same; break;
      case Status::Changed: ++d.counts.changed; break;
      case Status::Added: ++d.counts.added; break;
      case Status::Removed: ++d.counts.removed; break;
    }
  }
  check(options);
  d.signature = diff_signatures(a, b, d.matching, symbols);
  d.weights = diff_weights(a, b, d.matching, options);
  check(options);
  if (options.guards) {
    try {
      d.guards = diff_guards(a.program(), b.program());
    } catch (const Cancelled&) {
      throw;
    } catch (const std::exception& e) {
      d.guards.note = std::string("not compared: ") + e.what();
    }
  } else {
    d.guards.note = "not compared";
  }
  check(options);
  d.modules = summarize_modules(a, b, d, node_a, node_b);
  return d;
}

}  // namespace exportlens::diff
