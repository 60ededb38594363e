#include "engine/structure/repeated_structure.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "engine/structure/instance_comparison.h"
#include "engine/structure/stack_folding.h"
#include "engine/structure/stack_settings.h"

namespace exportlens::structure {
namespace {

constexpr double kTimeRatio = 1.5;      // an instance this much slower or faster than the median differs
constexpr double kTimeFloorMs = 0.005;  // ... unless the gap is below timer noise

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 1 ? "%.3f ms" : "%.2f ms", ms);
  return buf;
}

// The guards attributed to the nodes inside a scope, as (node, guard) pairs.
std::vector<std::pair<int, std::string>> guards_within(const ir::ModuleHierarchy& h, const NodeFacts& facts, int scope) {
  std::vector<std::pair<int, std::string>> out;
  if (facts.guards.empty()) return out;
  for (int n : h.nodes_within(scope))
    if (static_cast<size_t>(n) < facts.guards.size())
      for (const auto& g : facts.guards[static_cast<size_t>(n)]) out.emplace_back(n, g);
  return out;
}

double time_within(const ir::ModuleHierarchy& h, const NodeFacts& facts, int scope) {
  double ms = 0;
  for (int n : h.nodes_within(scope))
    if (static_cast<size_t>(n) < facts.milliseconds.size()) ms += facts.milliseconds[static_cast<size_t>(n)];
  return ms;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t k = v.size() / 2;
  return v.size() % 2 ? v[k] : (v[k - 1] + v[k]) / 2;
}

// Guards an instance needed that the stack's first instance did not: torch
// records a guard once, where the trace first needs it, so the first
// instance carries the stack's guards and every later one only its own.
Difference extra_guards(const std::vector<std::pair<int, std::string>>& first,
                        const std::vector<std::pair<int, std::string>>& here, const std::vector<ir::Node*>& nodes) {
  std::set<std::string> known;
  for (const auto& [n, g] : first) known.insert(g);
  Difference d{DifferenceKind::Guards, {}};
  for (const auto& [n, g] : here)
    if (!known.count(g)) d.details.push_back({nodes[static_cast<size_t>(n)]->name, g, "", n, -1});
  return d;
}

std::vector<FoldedChild> fold(const std::vector<int>& scopes, const std::vector<Stack>& stacks,
                              const std::vector<std::vector<int>>& scope_stacks, int enclosing, int repetition) {
  std::vector<FoldedChild> out;
  std::set<int> folded;
  for (int s : scopes) {
    if (folded.count(s)) continue;
    int found = -1;
    for (int k : scope_stacks[static_cast<size_t>(s)]) {
      const Stack& st = stacks[static_cast<size_t>(k)];
      if (st.enclosing == enclosing && (enclosing < 0 || st.enclosing_repetition == repetition)) {
        found = k;
        break;
      }
    }
    if (found < 0) {
      out.push_back({s, -1});
      continue;
    }
    out.push_back({-1, found});
    for (const auto& inst : stacks[static_cast<size_t>(found)].instances) folded.insert(inst.begin(), inst.end());
  }
  return out;
}

}  // namespace

std::string OddInstance::summary() const {
  std::string s;
  for (const Difference& d : differences) s += (s.empty() ? "" : "; ") + d.text();
  return s;
}

std::string headline_of(const std::vector<Difference>& differences, size_t max_details) {
  if (differences.empty()) return "";
  std::string s = differences.front().text(max_details);
  std::string also;
  for (size_t i = 1; i < differences.size(); ++i)
    also += (also.empty() ? "" : ", ") + std::string(kind_name(differences[i].kind));
  return also.empty() ? s : s + " (also " + also + ")";
}

std::string OddInstance::headline() const { return headline_of(differences); }

std::string Stack::title(const ir::ModuleHierarchy& h) const {
  std::string unit;
  if (period == 1) {
    unit = h[instances[static_cast<size_t>(representative)][0]].class_name();
  } else {
    // The unit's own runs, folded: "[2 × ConvBlock, Mixer]".
    const auto& rep = instances[static_cast<size_t>(representative)];
    std::string inner;
    for (size_t i = 0; i < rep.size();) {
      size_t j = i;
      const std::string cls = h[rep[i]].class_name();
      while (j < rep.size() && h[rep[j]].class_name() == cls) ++j;
      inner += (inner.empty() ? "" : ", ") + (j - i > 1 ? std::to_string(j - i) + " × " : "") + cls;
      i = j;
    }
    unit = "[" + inner + "]";
  }
  return std::to_string(count()) + " × " + unit;
}

std::string Stack::label(const ir::ModuleHierarchy& h) const {
  const std::string first = h.relative_path(instances.front().front());
  const std::string last = h.relative_path(instances.back().back());
  std::string names;
  if (count() * period == 2)
    names = first + ", " + last;
  else
    names = first + " … " + last;
  return title(h) + " (" + names + ")";
}

std::vector<std::string> Stack::setting_texts(const ir::ModuleHierarchy& h) const {
  std::vector<std::string> out;
  for (const Setting& s : settings) {
    std::vector<std::string> names;
    for (const auto& inst : instances) names.push_back(h.relative_path(inst[static_cast<size_t>(s.position)]));
    std::string text = s.text(names);
    if (period > 1) text = h[instances.front()[static_cast<size_t>(s.position)]].class_name() + " " + text;
    out.push_back(std::move(text));
  }
  return out;
}

std::string Stack::settings_text(const ir::ModuleHierarchy& h) const {
  std::string out;
  for (const std::string& text : setting_texts(h)) out += (out.empty() ? "" : ", ") + text;
  return out;
}

std::vector<FoldedChild> RepeatedStructure::folded_children(const ir::ModuleHierarchy& h, int scope) const {
  std::vector<int> children;
  for (int c : h[scope].children)
    if (fingerprints.has_content[static_cast<size_t>(c)]) children.push_back(c);
  return fold(children, stacks, scope_stacks, -1, -1);
}

std::vector<FoldedChild> RepeatedStructure::folded_unit(int stack) const {
  const Stack& st = stacks[static_cast<size_t>(stack)];
  return fold(st.instances[static_cast<size_t>(st.representative)], stacks, scope_stacks, stack, st.representative);
}

std::vector<int> RepeatedStructure::stacks_of(int scope) const { return scope_stacks[static_cast<size_t>(scope)]; }

std::vector<int> RepeatedStructure::odd_of(int scope) const {
  std::vector<int> out;
  for (size_t i = 0; i < odd.size(); ++i)
    if (odd[i].scope == scope) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<std::pair<int, int>> RepeatedStructure::correspondence(int a, int b) const {
  return align_instances(fingerprints, a, b);
}

std::vector<int> RepeatedStructure::corresponding_nodes(const ir::ModuleHierarchy& h, int node) const {
  std::set<int> result{node};
  if (node < 0 || static_cast<size_t>(node) >= h.scope_of.size()) return {node};
  // The stacks around the node, innermost first.
  std::vector<int> around;
  for (int s = h.scope_of[static_cast<size_t>(node)]; s >= 0; s = h[s].parent) {
    const auto& here = scope_stacks[static_cast<size_t>(s)];
    around.insert(around.end(), here.rbegin(), here.rend());
  }
  for (int k : around) {
    const Stack& st = stacks[static_cast<size_t>(k)];
    std::unordered_map<int, std::pair<int, int>> where;  // scope -> (repetition, position)
    for (int r = 0; r < st.count(); ++r)
      for (int p = 0; p < st.period; ++p) where[st.instances[r][p]] = {r, p};
    std::set<int> more;
    for (int m : result) {
      int s = h.scope_of[static_cast<size_t>(m)];
      while (s >= 0 && !where.count(s)) s = h[s].parent;
      if (s < 0) continue;
      const auto [r, p] = where[s];
      for (int other = 0; other < st.count(); ++other) {
        if (other == r) continue;
        for (const auto& [x, y] : correspondence(s, st.instances[other][p]))
          if (x == m) more.insert(y);
      }
    }
    result.insert(more.begin(), more.end());
  }
  return {result.begin(), result.end()};
}

RepeatedStructure analyse_structure(const ir::ExportedProgram& program, const ir::ModuleHierarchy& h,
                                    const NodeFacts& facts) {
  RepeatedStructure rs;
  rs.fingerprints = matching::fingerprint_scopes(program, h);
  rs.stacks = fold_stacks(h, rs.fingerprints);
  rs.scope_stacks.resize(h.size());
  for (size_t k = 0; k < rs.stacks.size(); ++k)
    for (const auto& inst : rs.stacks[k].instances)
      for (int s : inst) rs.scope_stacks[static_cast<size_t>(s)].push_back(static_cast<int>(k));

  const InstanceComparer comparer(program, h, rs.fingerprints);
  const std::vector<ir::Node*> nodes = program.graph().nodes();
  const bool timed = !facts.milliseconds.empty();
  for (size_t k = 0; k < rs.stacks.size(); ++k) {
    Stack& st = rs.stacks[k];
    const StackReference ref = stack_reference(st, rs.fingerprints);
    for (int p = 0; p < st.period; ++p) {
      // No majority: each instance is built with other settings, and none is odd.
      if (!ref.majority[static_cast<size_t>(p)]) {
        for (Setting& s : stack_settings(h, rs.fingerprints, comparer, rs.stacks, static_cast<int>(k), p))
          st.settings.push_back(std::move(s));
        continue;
      }
      std::map<uint64_t, std::vector<int>> repetitions;  // fingerprint -> the repetitions having it
      for (int r = 0; r < st.count(); ++r) repetitions[rs.fingerprints.fingerprint[st.instances[r][p]]].push_back(r);
      const auto first_guards = guards_within(h, facts, st.instances[0][p]);
      std::vector<double> times;
      if (timed)
        for (const auto& inst : st.instances) times.push_back(time_within(h, facts, inst[p]));
      const double typical = timed ? median(times) : 0;
      for (int r = 0; r < st.count(); ++r) {
        const int scope = st.instances[r][p];
        const int reference = st.instances[ref.first_repetition[p]][p];
        OddInstance o{static_cast<int>(k), r, p, scope, reference, {}};
        const bool same_fingerprint = rs.fingerprints.fingerprint[scope] == ref.fingerprint[p];
        if (!same_fingerprint) o.differences = comparer.compare(scope, reference);
        // The first instance taking other inputs than the rest is where the stack
        // begins (a stage's downsampling block): a setting of the stack, not odd.
        if (r == 0 && !same_fingerprint && !comparer.takes_same_inputs(scope, reference)) {
          Setting entry{Setting::Kind::Entry, p, headline_of(o.differences), std::vector<std::string>(st.instances.size()), ""};
          entry.values[0] = "x";
          st.settings.push_back(std::move(entry));
          continue;
        }
        // A variant two or more instances share (the last blocks of a stage
        // with attention) is a setting of the stack, named once; only a
        // one-off is odd.
        if (const auto& alike = repetitions[rs.fingerprints.fingerprint[scope]]; !same_fingerprint && alike.size() > 1) {
          if (alike.front() == r) {
            Setting variant{Setting::Kind::Other, p, headline_of(o.differences, 3), std::vector<std::string>(st.instances.size()), ""};
            for (int a : alike) variant.values[static_cast<size_t>(a)] = "x";
            st.settings.push_back(std::move(variant));
          }
          continue;
        }
        // An instance that computes what the reference does, on the same
        // shapes, cannot need a guard the others do not: one attributed to it
        // is where the trace happened to need it first, not a difference.
        if (r > 0 && !same_fingerprint) {
          Difference g = extra_guards(first_guards, guards_within(h, facts, scope), nodes);
          if (!g.details.empty()) o.differences.push_back(std::move(g));
        }
        if (timed && st.count() >= 3) {
          const double t = times[static_cast<size_t>(r)];
          const bool slow = t > typical * kTimeRatio, fast = t * kTimeRatio < typical;
          if ((slow || fast) && std::abs(t - typical) > kTimeFloorMs) {
            char ratio[32];
            std::snprintf(ratio, sizeof ratio, "%.1f×", typical > 0 ? t / typical : 0.0);
            o.differences.push_back({DifferenceKind::Time, {{"run time", ms_text(t) + ", " + ratio, ms_text(typical), -1, -1}}});
          }
        }
        if (o.differences.empty()) continue;
        st.odd.push_back(static_cast<int>(rs.odd.size()));
        rs.odd.push_back(std::move(o));
      }
    }
  }
  return rs;
}

}  // namespace exportlens::structure
