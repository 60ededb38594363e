#include "engine/structure/stack_settings.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/matching/module_path.h"

namespace exportlens::structure {
namespace {

bool all_equal(const std::vector<std::string>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end();
}

// "64·64·64·128" reads "64×3·128" once a run is longer than two.
std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    const std::string v = values[i].empty() ? "—" : values[i];
    if (j - i > 2) {
      out += (out.empty() ? "" : "·") + v + "×" + std::to_string(j - i);
    } else {
      for (size_t k = i; k < j; ++k) out += (out.empty() ? "" : "·") + v;
    }
    i = j;
  }
  return out;
}

// `scope` and every scope below it.
std::vector<int> scopes_within(const ir::ModuleHierarchy& h, int scope) {
  std::vector<int> out{scope};
  for (size_t i = 0; i < out.size(); ++i)
    for (int c : h[out[i]].children) out.push_back(c);
  return out;
}

class SettingsReader {
 public:
  SettingsReader(const ir::ModuleHierarchy& h, const matching::ScopeFingerprints& f, const InstanceComparer& comparer,
                 const std::vector<Stack>& stacks)
      : h_(h), f_(f), comparer_(comparer), stacks_(stacks) {}

  std::vector<Setting> read(const Stack& st, int position) const {
    std::vector<int> scopes;
    for (const auto& inst : st.instances) scopes.push_back(inst[static_cast<size_t>(position)]);
    std::vector<Setting> out;
    auto keep = [&](Setting s) {
      if (all_equal(s.values)) return;
      s.position = position;
      out.push_back(std::move(s));
    };
    keep(width(scopes));
    const auto [depth_setting, counted] = depth(scopes);
    keep(depth_setting);
    for (Setting& s : submodules(scopes, counted)) keep(std::move(s));
    if (out.empty()) out.push_back(other(scopes, position));
    return out;
  }

 private:
  // The channels: of the sizes of the instance's output (its first tensor
  // output, the batch left out), the one most of the floating-point weights
  // it reads lead with (the later dim on a tie): a stage's C in [B, C, H, W]
  // or [B, H, W, C], not its hidden MLP width.
  Setting width(const std::vector<int>& scopes) const {
    Setting s{Setting::Kind::Width, 0, "width", {}, ""};
    for (int scope : scopes) {
      std::map<int64_t, int> leading;
      for (const auto& [name, v] : comparer_.weights_read(scope)) {
        const auto* t = comparer_.node(v).value.tensor();
        if (!t || t->rank() == 0 || !ir::is_floating(t->dtype)) continue;
        if (const auto size = t->sizes[0].expr.as_integer()) ++leading[*size];
      }
      const ir::TensorMeta* out = nullptr;
      for (int v : f_.outputs[static_cast<size_t>(scope)])
        if ((out = comparer_.node(v).value.tensor())) break;
      int64_t best = -1;
      int best_count = 0;
      for (size_t d = out && out->rank() > 1 ? 1 : 0; out && d < out->rank(); ++d) {
        const auto size = out->sizes[d].expr.as_integer();
        const int count = size && leading.count(*size) ? leading[*size] : 0;
        if (count > 0 && count >= best_count) best = *size, best_count = count;
      }
      if (best < 0) return {};  // an instance without one: no width to compare
      s.values.push_back(std::to_string(best));
    }
    return s;
  }

  // The depth: how many entries each has at the place of the first block
  // list (blocks.*) stacked inside any of them; a stage of one block
  // has no nested stack but still counts one. Returns the place counted
  // ("blocks.*").
  std::pair<Setting, std::string> depth(const std::vector<int>& scopes) const {
    Setting s{Setting::Kind::Depth, 0, "depth", {}, ""};
    std::string pattern;
    for (int scope : scopes) {
      for (const Stack& nested : stacks_) {
        if (nested.period != 1 || !h_.encloses(scope, nested.parent)) continue;
        // Entries of a block list (blocks.*), not siblings that happen to match (q, k).
        const int first = nested.instances.front().front();
        const auto place = matching::path_pattern(matching::path_below(h_[first].path, h_[scope].path));
        if (!place.indexed) continue;
        pattern = place.pattern;
        break;
      }
      if (!pattern.empty()) break;
    }
    if (pattern.empty()) return {s, ""};
    std::set<std::string> classes;
    for (int scope : scopes) {
      int count = 0;
      for (int c : scopes_within(h_, scope))
        if (c != scope && f_.has_content[static_cast<size_t>(c)] && h_[c].call == 0 &&
            matching::path_pattern(matching::path_below(h_[c].path, h_[scope].path)).pattern == pattern) {
          ++count;
          classes.insert(h_[c].class_name());
        }
      s.values.push_back(std::to_string(count));
    }
    // The entries' class when they share one (2·2·6·2 SwinTransformerBlock), else their place (blocks).
    s.note = classes.size() == 1 ? *classes.begin() : pattern.substr(0, pattern.rfind(".*"));
    return {s, pattern};
  }

  // Submodules only some instances have, or of another class, at any depth
  // (the outermost of a differing subtree named), the depth's entries left out.
  std::vector<Setting> submodules(const std::vector<int>& scopes, const std::string& counted) const {
    std::map<std::string, std::vector<std::string>> classes;  // path below the instance -> class per instance
    std::vector<std::string> order;
    for (size_t r = 0; r < scopes.size(); ++r)
      for (int c : scopes_within(h_, scopes[r])) {
        if (c == scopes[r] || !f_.has_content[static_cast<size_t>(c)]) continue;
        std::string name = matching::path_below(h_[c].path, h_[scopes[r]].path);
        const std::string place = matching::path_pattern(name).pattern;
        if (!counted.empty() && (place == counted || counted.starts_with(place + ".") || place.starts_with(counted + ".")))
          continue;
        if (h_[c].call > 0) name += " (call " + std::to_string(h_[c].call + 1) + ")";
        auto [it, fresh] = classes.try_emplace(name, scopes.size());
        if (fresh) order.push_back(name);
        it->second[r] = h_[c].class_name();
      }
    std::vector<Setting> out;
    std::vector<std::string> named;
    for (const std::string& name : order) {
      if (all_equal(classes[name])) continue;
      const bool inside_named = std::any_of(named.begin(), named.end(), [&](const std::string& n) { return name.starts_with(n + "."); });
      if (inside_named) continue;
      named.push_back(name);
      out.push_back({Setting::Kind::Submodule, 0, name, classes[name], ""});
    }
    return out;
  }

  // What none of the named settings says: the first difference of the
  // first instance unlike the first one ("ops: +aten.roll.default x2 in 1").
  Setting other(const std::vector<int>& scopes, int position) const {
    Setting s{Setting::Kind::Other, position, "", std::vector<std::string>(scopes.size()), ""};
    for (size_t r = 1; r < scopes.size() && s.name.empty(); ++r) {
      const std::vector<Difference> differences = comparer_.compare(scopes[r], scopes[0]);
      if (differences.empty()) continue;
      s.name = headline_of(differences, 3);
      s.values[r] = "x";
    }
    return s;
  }

  const ir::ModuleHierarchy& h_;
  const matching::ScopeFingerprints& f_;
  const InstanceComparer& comparer_;
  const std::vector<Stack>& stacks_;
};

}  // namespace

std::string Setting::text(const std::vector<std::string>& instances) const {
  switch (kind) {
    case Kind::Width: return "width " + joined(values);
    case Kind::Depth: return "depth " + joined(values) + (note.empty() ? "" : " " + note);
    case Kind::Entry:
    case Kind::Other: {
      std::string where;
      for (size_t r = 0; r < values.size() && r < instances.size(); ++r)
        if (!values[r].empty()) where += (where.empty() ? "" : ", ") + instances[r];
      return kind == Kind::Entry ? "entry " + where + " (another input): " + name : name + " in " + where;
    }
    case Kind::Submodule: break;
  }
  // A submodule only some instances have, of one class: where it is.
  std::set<std::string> present(values.begin(), values.end());
  present.erase("");
  if (present.size() == 1) {
    std::vector<std::string> where;
    for (size_t r = 0; r < values.size() && r < instances.size(); ++r)
      if (!values[r].empty()) where.push_back(instances[r]);
    std::string in;
    if (where.size() > 4) {
      in = std::to_string(where.size()) + " of " + std::to_string(values.size());
    } else {
      for (const auto& w : where) in += (in.empty() ? "" : ", ") + w;
    }
    return name + " " + *present.begin() + " in " + in;
  }
  return name + " " + joined(values);
}

std::vector<Setting> stack_settings(const ir::ModuleHierarchy& h, const matching::ScopeFingerprints& f,
                                    const InstanceComparer& comparer, const std::vector<Stack>& stacks, int stack,
                                    int position) {
  return SettingsReader(h, f, comparer, stacks).read(stacks[static_cast<size_t>(stack)], position);
}

}  // namespace exportlens::structure
