// Repeated structure on the real corpus, against what a reader of each
// model's code says (tests/oracle/corpus_modules.py, read off the eager
// nn.Module torch built, not off the graph): at the training and the Core
// ATen level,
//
//   flags     the instances flagged are exactly the one-offs a reader calls
//             odd (stages each built with another depth and width, a variant
//             two blocks share, a stage's downsampling first block: none);
//   alike     every run of entries built alike is one stack, none flagged;
//   depth     a stack that names its depth gives the lengths of the entries'
//             own block lists, and stages of unequal depth name it.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "corpus/corpus_fixture.h"
#include "structure/analysed_program.h"
#include "engine/structure/repeated_structure.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

using Analysed = AnalysedProgram;

// Each program at each level, analysed once.
const Analysed& analysed(const std::string& arch, const std::string& level) {
  static std::map<std::string, Analysed> cache;
  const std::string key = arch + "/" + level;
  if (auto it = cache.find(key); it == cache.end())
    cache.emplace(key, analyse_program(corpus_file(arch, "program.pt2"), level));
  return cache.at(key);
}

json runs_of(const std::string& arch) {
  const std::string path = corpus_file(arch, "modules.json");
  if (!exists(path)) FAIL("no modules.json for " + arch + " (build the corpus_fixtures target)");
  return as_array(field(read_json(path), "runs"));
}

struct Row {
  std::string name, arch, level;
};
std::vector<Row> rows() {
  std::vector<Row> out;
  for (const auto& arch : corpus_architectures())
    for (const char* level : {"training", "core"}) out.push_back({arch + "/" + level, arch, level});
  return out;
}

std::vector<std::string> strings(const json& array) {
  std::vector<std::string> out;
  for (const auto& v : as_array(array)) out.push_back(as_string(v));
  return out;
}

// The stack whose instances (period 1) are exactly `scopes`, or -1.
int stack_of(const structure::RepeatedStructure& s, const std::vector<int>& scopes) {
  for (size_t k = 0; k < s.stacks.size(); ++k) {
    const auto& st = s.stacks[k];
    if (st.period != 1 || st.instances.size() != scopes.size()) continue;
    bool same = true;
    for (size_t r = 0; r < scopes.size(); ++r) same = same && st.instances[r][0] == scopes[r];
    if (same) return static_cast<int>(k);
  }
  return -1;
}

// The scopes of a run's entries that hold ops (a Dropout or Identity has none and is in no stack).
std::vector<int> entry_scopes(const Analysed& a, const json& run) {
  std::vector<int> out;
  for (const auto& path : strings(field(run, "entries"))) {
    const int scope = a.hierarchy.find_path(path);
    if (scope > 0 && a.structure.fingerprints.has_content[static_cast<size_t>(scope)]) out.push_back(scope);
  }
  return out;
}

}  // namespace

EL_TEST(flags_are_what_a_reader_says) {
  for_each_row(rows(), [](const Row& row) {
    const Analysed& a = analysed(row.arch, row.level);
    std::vector<std::string> reader, flagged;
    for (const auto& run : runs_of(row.arch))
      for (const auto& path : strings(field(run, "one_off"))) reader.push_back(path);
    std::string why;
    for (const auto& o : a.structure.odd) {
      flagged.push_back(a.hierarchy[o.scope].path);
      why += "\n! " + a.hierarchy[o.scope].path + ": " + o.headline();
    }
    std::sort(reader.begin(), reader.end());
    std::sort(flagged.begin(), flagged.end());
    flagged.erase(std::unique(flagged.begin(), flagged.end()), flagged.end());
    VERIFY_MSG(flagged == reader, "a reader flags [" + join(reader, ", ") + "]; ExportLens:" + why);
  });
}

EL_TEST(runs_built_alike_are_unflagged_stacks) {
  for_each_row(rows(), [](const Row& row) {
    const Analysed& a = analysed(row.arch, row.level);
    for (const auto& run : runs_of(row.arch)) {
      if (!as_bool(field(run, "alike"))) continue;
      const std::vector<int> scopes = entry_scopes(a, run);
      if (scopes.size() < 2) continue;
      const std::string what = as_string(field(run, "container")) + " (" + as_string(field(run, "class")) + ")";
      const int k = stack_of(a.structure, scopes);
      VERIFY_MSG(k >= 0, what + ": built alike, not one stack");
      const auto& st = a.structure.stacks[static_cast<size_t>(k)];
      VERIFY_MSG(st.odd.empty(), what + ": built alike, yet " + std::to_string(st.odd.size()) + " flagged");
      VERIFY_MSG(!st.varied(), what + ": built alike, yet said to vary: " + st.settings_text(a.hierarchy));
    }
  });
}

EL_TEST(depth_is_the_models_own) {
  for_each_row(rows(), [](const Row& row) {
    const Analysed& a = analysed(row.arch, row.level);
    for (const auto& run : runs_of(row.arch)) {
      const std::vector<int> scopes = entry_scopes(a, run);
      const int k = stack_of(a.structure, scopes);
      if (k < 0) continue;
      const auto& st = a.structure.stacks[static_cast<size_t>(k)];
      const std::string what = as_string(field(run, "container")) + ": " + st.settings_text(a.hierarchy);
      // The entries' block lists, by name, as the model built them: {"blocks": [2, 2, 6, 2]}.
      std::map<std::string, std::vector<std::string>> lengths;
      const auto per_entry = as_array(field(run, "lengths"));
      if (per_entry.size() != scopes.size()) continue;  // an entry without ops: the stack is another run
      for (const auto& entry : per_entry)
        for (const auto& [name, n] : entry.items()) lengths[name].push_back(std::to_string(n.get<int>()));
      const structure::Setting* depth = nullptr;
      for (const auto& s : st.settings)
        if (s.kind == structure::Setting::Kind::Depth) depth = &s;
      if (depth) {
        bool found = false;
        for (const auto& [name, values] : lengths) found = found || values == depth->values;
        VERIFY_MSG(found, what + ": no block list of the model has these lengths");
      }
      // Stages of unequal depth: the stack says so.
      for (const auto& [name, values] : lengths)
        if (values.size() == scopes.size() &&
            std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) != values.end())
          VERIFY_MSG(depth, what + ": the model's " + name + " are " + join(values, "·") + " long; no depth named");
    }
  });
}
