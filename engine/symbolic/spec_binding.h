#pragma once
// From a dynamic_shapes spec and the example inputs to symbols: torch's
// _check_dynamic_shapes, _process_dynamic_shapes, fakify and
// _process_equalities. Every input dimension becomes a constant or a symbol
// (named as torch names it) with the constraint the spec puts on it, and
// the spec's relations (shared Dims, derived Dims) are collected for the
// end-of-trace checks (export_constraints.h).
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/shape_env.h"

namespace exportlens::symbolic {

/// One forward() argument as the program records it, or, for an argument
/// that is a tuple, list, dict or registered dataclass, one of its leaves
/// (one flattened user input).
struct ExampleInput {
  std::string name;               // forward argument name ("x")
  bool is_tensor = true;
  std::vector<int64_t> sizes;     // example sizes (tensors)
  /// Where the leaf lies inside its argument, as torch's keystr writes it
  /// ("[0]", "['a'][1]", ".field"); empty for an argument that is a leaf.
  std::string path;
  /// "x", "x[0]", "cfg['a']": the argument and the path.
  std::string display_name() const { return name + path; }
};

/// The pytree of the forward() arguments, as the program's in_spec records
/// it: each argument a leaf (one ExampleInput) or a container of parts.
struct InputTree {
  enum class Kind { Leaf, Tuple, List, Dict, Custom };
  Kind kind = Kind::Leaf;
  std::string name;                  // top level: the argument's name
  std::vector<std::string> keys;     // Dict: the keys; Custom: the dataclass's field names (may be empty)
  std::string type_name;             // Custom: the registered type's name
  std::vector<InputTree> children;
  int leaf = -1;                     // Leaf: the index into the ExampleInput list
  /// Python's name of the type ("<class 'tuple'>"), as torch's messages print it.
  std::string python_type() const;
};

/// What the spec asks of one input dimension (torch's per-dim Constraint).
struct DimConstraint {
  enum class Kind {
    None,     // Dim.AUTO, or static
    Strict,   // a named / derived Dim or an int: StrictMinMaxConstraint(range)
    Relaxed,  // Dim.DYNAMIC: RelaxedUnspecConstraint (must not specialize)
  };
  Kind kind = Kind::None;
  ValueRange range;  // Strict
};

struct BoundDim {
  int input = 0;           // index into the ExampleInput list
  int dim = 0;
  std::string source;      // "L['x'].size()[0]"
  std::string path;        // "inputs['x'].shape[0]" (make_constraints' messages)
  int64_t hint = 0;
  Expr expr;               // the symbol or constant created for it
  DimSpec spec;
  DimConstraint constraint;
  std::string debug_name;  // the Dim's name ("dx", "dx + 1"), empty for hints/static
};

struct DerivedEquality {
  std::string source;       // the derived dim's source
  std::string root_source;  // the root's source ("" when the root is phantom)
  Expr phantom_root;        // the phantom symbol (or constant) when root_source is empty
  std::string root_name;    // the root Dim's name
  int64_t coeff = 1, offset = 0;
};

struct SpecBinding {
  std::vector<BoundDim> dims;  // every tensor input dimension, in tracking order
  std::vector<std::pair<std::string, std::string>> source_pairs;  // shared Dims / equal ints
  std::vector<DerivedEquality> derived;
  std::vector<Expr> phantom_symbols;
  std::set<std::string> relaxed_sources;  // Dim.AUTO / Dim.DYNAMIC dims
  std::map<std::string, std::string> debug_names;  // source -> Dim name

  const BoundDim* find(const std::string& source) const;
  std::string debug_name(const std::string& source) const;

  /// Input i's dims, in order (bound dims are stored input by input).
  std::span<const BoundDim> dims_of(size_t input) const;

  /// Each dim's position in `dims` by its source, and where each input's dims
  /// begin (bind_spec fills both): find() and dims_of() are asked once per
  /// dim, input and guard, so neither may scan.
  std::unordered_map<std::string, size_t> position_of_source;
  std::vector<size_t> first_dim_of_input;
};

/// Validates the spec against the inputs (torch's messages; throws SpecError
/// with line 0) and creates the symbols. Throws ConstraintViolationError when
/// an example contradicts the spec ("10 not in range [11, 18]").
/// `arguments`: the forward() arguments' pytree (InputTree, one per
/// argument, in order) when some argument is a container; without it each
/// input is an argument of its own. The spec is matched to it as torch's
/// _check_dynamic_shapes and _tree_map_with_path match it: containers must
/// mirror the input's (tuple for tuple, list for list, dict with the same
/// keys, a registered dataclass as the list of its fields), a tensor's spec
/// is None, a tuple/list of dims or a dict of dims.
SpecBinding bind_spec(ShapeEnv& env, const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs,
                      const std::vector<InputTree>* arguments = nullptr);

/// Each input's own spec (nullptr: None or not given), as bind_spec matches
/// the spec to the inputs; throws SpecError as bind_spec does.
std::vector<const InputShapeSpec*> leaf_specs(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs,
                                              const std::vector<InputTree>* arguments = nullptr);

/// torch's "L['x']" source of a forward argument and "L['x'].size()[0]" of its dims.
std::string input_source(const std::string& name);
std::string size_source(const std::string& name, int dim);
/// The same for an input that may be a leaf of a nested argument: "L['x'][0].size()[0]".
std::string input_source(const ExampleInput& in);
std::string size_source(const ExampleInput& in, int dim);

}  // namespace exportlens::symbolic
