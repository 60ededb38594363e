#pragma once
// Repeated structure: runs of sibling module calls that repeat (6 × Block,
// 3 × Stage each [4 × ConvBlock, Mixer], 3 × [2 × ConvBlock, Mixer] when no
// module groups them), folded into stacks, and the instances of a stack that
// differ from the majority, each with what differs.
//
// A stack is a maximal run of consecutive sibling scopes that repeat with a
// period: the same module class at the same place of a ModuleList or
// Sequential (name.0, name.1, ...) and alike in structure, or, for other
// siblings, the same fingerprint. Within a stack, each position of the
// repeated unit has a reference fingerprint (the most frequent; ties go to
// the earliest), and an instance differs when its fingerprint is another
// (with the guards attributed to its nodes that the stack's first instance
// did not need), or when it ran much slower or faster than its siblings.
// Where no fingerprint is a majority (stages each built with another depth
// and width), no instance is odd: the stack names its settings instead.
//
//   const auto h = ir::module_hierarchy(ep.graph());
//   const auto s = structure::analyse_structure(ep, h, facts);  // facts: guards, run times (optional)
//   for (const Stack& st : s.stacks) st.label(h);               // "6 × Block (blocks.0 … blocks.5)"
//   for (const OddInstance& o : s.odd) o.summary();              // "ops: +aten.relu.default −aten.gelu.default"
//   s.corresponding_nodes(h, node);                              // the same node in every instance
//
// Works at every IR level: lowered nodes keep their module stack, so the
// Core ATen lowering of a stack is again a stack.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ir/module_hierarchy.h"
#include "engine/matching/structural_fingerprint.h"

namespace exportlens::structure {

/// What is known of the nodes beyond the program itself (all optional).
struct NodeFacts {
  /// By node index: the guards the solver attributed to the node, as text
  /// ("Eq(s27, 6)"), specializations included ("s27 = 6").
  std::vector<std::vector<std::string>> guards;
  /// By node index: its run time in milliseconds (empty: no run).
  std::vector<double> milliseconds;
};

enum class DifferenceKind { Submodules, Ops, Weights, Shapes, Attributes, Wiring, Guards, Time };
/// "submodules", "ops", "weights", "shapes", "attributes", "wiring", "guards", "time".
std::string_view kind_name(DifferenceKind kind);

struct DifferenceDetail {
  std::string what;   // "aten.relu.default", "fc1.weight", "act", a node name, a guard
  std::string here;   // in the differing instance: "1", "f32[32, 16]", "ReLU"
  std::string there;  // in the reference instance
  int node = -1;            // the differing instance's node it concerns, if one
  int reference_node = -1;  // the reference instance's node, if one
};

struct Difference {
  DifferenceKind kind = DifferenceKind::Ops;
  std::vector<DifferenceDetail> details;
  /// "ops: +aten.relu.default −aten.gelu.default", "weights: fc1.weight f32[32, 16] (f32[64, 16])";
  /// at most `max_details` details, the rest counted.
  std::string text(size_t max_details = 6) const;
};

/// The first (most telling) difference with `max_details` of its details,
/// and which other kinds differ: "submodules: act ReLU instead of GELU (also ops)".
std::string headline_of(const std::vector<Difference>& differences, size_t max_details = 1);

/// What varies across a stack's instances when no fingerprint is a majority
/// (stack_settings.h): a setting of the layer, not an odd instance.
struct Setting {
  enum class Kind { Width, Depth, Submodule, Entry, Other };
  Kind kind = Kind::Other;
  int position = 0;                 // within the repeated unit
  /// "width", "depth", a submodule ("downsample"); entry, other: the headline of what differs
  std::string name;
  std::vector<std::string> values;  // per repetition ("" where an instance has no such submodule)
  std::string note;                 // depth: the entries' class or place ("SwinTransformerBlock", "blocks")
  /// "width 16·32·64·128", "depth 2·2·6·2 SwinTransformerBlock",
  /// "downsample PatchMerging in 1, 2, 3", "act GELU·ReLU",
  /// "entry 0 (another input): submodules: no identity (BatchNormAct2d)",
  /// "ops: +aten.roll.default x2 in 1 (also weights)";
  /// `instances`: the repetitions' names, for a submodule only some have.
  std::string text(const std::vector<std::string>& instances) const;
};

struct Stack {
  int parent = -1;  // the scope whose children repeat
  int period = 1;   // scopes in one repetition
  /// Per repetition, its scopes (period of them), in program order.
  std::vector<std::vector<int>> instances;
  /// For a stack inside the repeated unit of another (the 2 × ConvBlock of
  /// 3 × [2 × ConvBlock, Mixer]): that stack and the repetition holding this one.
  int enclosing = -1;
  int enclosing_repetition = -1;
  int representative = 0;         // the repetition shown for all: the first without differences
  std::vector<int> odd;           // indices into RepeatedStructure::odd
  bool identical = true;          // every repetition has the same fingerprints
  /// Positions whose instances have no majority fingerprint: what varies
  /// (width, depth, submodules); none of them is an odd instance. And a
  /// first instance that takes other inputs than the rest (a stage's
  /// downsampling block): the stack's entry, not an odd instance.
  std::vector<Setting> settings;

  bool varied() const { return !settings.empty(); }
  /// Each setting's text, named by the position's class in a stack of groups.
  std::vector<std::string> setting_texts(const ir::ModuleHierarchy& h) const;
  /// The settings on one line: "width 16·32·64·128, depth 2·2·6·2 SwinTransformerBlock".
  std::string settings_text(const ir::ModuleHierarchy& h) const;

  int count() const { return static_cast<int>(instances.size()); }
  /// "6 × Block (blocks.0 … blocks.5)", "3 × [2 × ConvBlock, Mixer] (blocks.0 … mixers.2)".
  std::string label(const ir::ModuleHierarchy& h) const;
  /// "6 × Block", "3 × [2 × ConvBlock, Mixer]".
  std::string title(const ir::ModuleHierarchy& h) const;
};

struct OddInstance {
  int stack = -1;
  int repetition = -1;
  int position = 0;    // within the repeated unit
  int scope = -1;
  int reference = -1;  // the scope it is compared with
  std::vector<Difference> differences;
  /// The differences on one line, separated by "; ".
  std::string summary() const;
  /// The flag's text: the first (most telling) difference with its first
  /// detail, and which other kinds differ: "submodules: act ReLU instead of
  /// GELU (also ops)".
  std::string headline() const;
};

/// One entry of a scope's children with stacks folded: a scope, or a stack.
struct FoldedChild {
  int scope = -1;
  int stack = -1;
};

struct RepeatedStructure {
  matching::ScopeFingerprints fingerprints;
  std::vector<Stack> stacks;
  std::vector<OddInstance> odd;

  /// The children of `scope` with each outermost stack among them folded
  /// into one entry (every scope that is a position of it left out).
  std::vector<FoldedChild> folded_children(const ir::ModuleHierarchy& h, int scope) const;
  /// The repeated unit of a stack of period > 1, as its representative
  /// repetition reads, its inner stacks folded.
  std::vector<FoldedChild> folded_unit(int stack) const;
  /// The stacks `scope` is an instance of, outermost first.
  std::vector<int> stacks_of(int scope) const;
  /// The odd-instance records of `scope` (one per stack it differs in).
  std::vector<int> odd_of(int scope) const;
  /// The node pairs (node of `a`, node of `b`) that correspond between two
  /// scopes: position by position when their fingerprints are equal, else
  /// along the longest common subsequence of their ops.
  std::vector<std::pair<int, int>> correspondence(int a, int b) const;
  /// `node` and the nodes corresponding to it in every instance of every
  /// stack enclosing it (nested stacks multiply), sorted.
  std::vector<int> corresponding_nodes(const ir::ModuleHierarchy& h, int node) const;

  // By scope: stack membership (filled by analyse_structure).
  std::vector<std::vector<int>> scope_stacks;
};

/// Finds the stacks and their odd instances. `facts` may be empty.
RepeatedStructure analyse_structure(const ir::ExportedProgram& program, const ir::ModuleHierarchy& hierarchy,
                                    const NodeFacts& facts = {});

}  // namespace exportlens::structure
