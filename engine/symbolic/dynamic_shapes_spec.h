#pragma once
// A torch.export `dynamic_shapes` spec as users write it in Python:
//
//   dx = Dim("dx", min=4, max=256)
//   dx, dy, d1 = torch.export.dims("dx", "dy", "d1")
//   dynamic_shapes = {"x": (dx, None), "y": (2 * dx, Dim.AUTO)}
//   dynamic_shapes = ({0: dimx}, {0: dimx + 1})
//
//   dynamic_shapes = {"pair": ((dx, None), (dx, None)), "cfg": {"a": (dx,), "b": [None]}}
//
// parse_dynamic_shapes() reads that text (assignments, Dim / dims, derived
// A*dim + B, Dim.AUTO / DYNAMIC / STATIC with optional min/max, None, ints,
// dicts by argument name or tuples by position, and for an input that is a
// tuple, list, dict or registered dataclass a container of specs mirroring
// it); print_dynamic_shapes() writes it back. Errors name the line and column
// and what was expected. Which tuple is a tensor's dims and which a container
// is known only against the inputs (symbolic/spec_binding.h): a tuple, list
// or dict of dimension values reads as a tensor's dims, one holding a
// container as a container.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/base/error.h"
#include "engine/symbolic/number.h"

namespace exportlens::symbolic {

/// A named Dim, torch.export.Dim(name, min=, max=): min defaults to 0, max to int_oo.
struct DimDecl {
  std::string name;
  std::optional<int64_t> min, max;  // as written
  int64_t min_value() const { return min.value_or(0); }
  Num max_value() const { return max ? Num::integer(*max) : Num::infinite(1); }
  friend bool operator==(const DimDecl&, const DimDecl&) = default;
};

/// One dimension's entry.
struct DimSpec {
  enum class Kind {
    Unspecified,  // not listed in a dict: static
    None,         // None: static (deprecated spelling of Dim.STATIC)
    Static,       // Dim.STATIC
    Auto,         // Dim.AUTO (optionally with min/max)
    Dynamic,      // Dim.DYNAMIC (optionally with min/max)
    Int,          // a plain int: static, checked against the example
    Named,        // a Dim
    Derived,      // coeff * Dim + offset
  };
  Kind kind = Kind::Unspecified;
  std::optional<int64_t> min, max;  // Auto / Dynamic hints
  int64_t value = 0;                // Int
  std::string dim;                  // Named: the Dim's name; Derived: its root's name
  int64_t coeff = 1, offset = 0;    // Derived

  bool is_static() const { return kind == Kind::Unspecified || kind == Kind::None || kind == Kind::Static; }
  friend bool operator==(const DimSpec&, const DimSpec&) = default;
};

/// The spec of one input (or of one part of a nested input): a tensor's
/// dims, None, or a container of specs.
struct InputShapeSpec {
  enum class Form { None, Tuple, List, Dict };
  Form form = Form::None;  // None: every dim static (or a non-tensor input)
  std::vector<std::pair<int64_t, DimSpec>> dims;  // Tuple/List: positions 0..n-1; Dict: the keys
  /// A container of specs for an input that is a tuple, list, dict or
  /// registered class (form Tuple/List/Dict): its items, keyed by the dict's
  /// string keys ("" by position). `dims` is empty then.
  bool container = false;
  std::vector<std::pair<std::string, InputShapeSpec>> items;
  /// A bare dimension value (a Dim, an int, Dim.AUTO) where a shape or a
  /// container was expected (form None): kept so that the binding refuses it
  /// with torch's words, naming its place.
  std::optional<DimSpec> scalar;
  /// The entry for dimension i (Unspecified when a dict does not list it).
  DimSpec at(int64_t i) const;
  /// at(0) ... at(rank - 1) in one pass over the entries (O(rank + entries)).
  std::vector<DimSpec> per_dimension(size_t rank) const;
  friend bool operator==(const InputShapeSpec&, const InputShapeSpec&) = default;
};

struct DynamicShapesSpec {
  enum class Form { Unset, Dict, Tuple, List };
  Form form = Form::Unset;  // Unset: dynamic_shapes=None, a static program
  /// Dict: argument names; Tuple/List: "" (by position).
  std::vector<std::pair<std::string, InputShapeSpec>> inputs;
  /// Every named Dim the spec uses, by Dim name, and their declaration order.
  std::map<std::string, DimDecl> dims;
  std::vector<std::string> dim_order;
  /// The Python variable each Dim was first bound to (for printing), by Dim name.
  std::map<std::string, std::string> variable_of;
  /// Two different Dim(...) definitions of one name (torch rejects these when used).
  std::vector<std::string> conflicts;

  /// The spec of argument `name` at `position` (nullptr: none given).
  const InputShapeSpec* input(const std::string& name, size_t position) const;
  /// Calls f(dim) for every dimension entry, nested ones included.
  /// (A non-const spec passes each DimSpec by non-const reference.)
  template <class Spec, class F>
  static void for_each_dim(Spec& in, F&& f) {
    for (auto& [i, d] : in.dims) f(d);
    if (in.scalar) f(*in.scalar);
    for (auto& [k, item] : in.items) for_each_dim(item, f);
  }
  /// torch's name of a derived dim: "2*dx + 1" (sympy's str of coeff*root + offset).
  static std::string derived_name(const DimSpec& d);
  /// The Dim name a dimension entry refers to for messages ("dx", "dx + 1"), empty if none.
  static std::string debug_name(const DimSpec& d);
  friend bool operator==(const DynamicShapesSpec&, const DynamicShapesSpec&) = default;
};

/// What is wrong with a spec and where: "dynamic_shapes, line 2, column 7: ..."
/// (line 0: no place in the text, e.g. a JSON spec's field, named in the message).
class SpecError : public Error {
 public:
  SpecError(int line, int column, const std::string& message)
      : Error(ErrorKind::Spec, {.file = "dynamic_shapes", .line = line, .column = column}, message) {}
  int line() const { return place().line; }
  int column() const { return place().column; }
};

/// Reads the Python text. The spec is the value assigned to `dynamic_shapes`,
/// or else the last expression statement.
DynamicShapesSpec parse_dynamic_shapes(std::string_view text);

/// Python text that parse_dynamic_shapes reads back to an equal spec.
std::string print_dynamic_shapes(const DynamicShapesSpec& spec);

/// torch's refine_dynamic_shapes_from_suggested_fixes: the spec with the
/// fixes ("dx = Dim('dx', max=16)", "d1 = 4", "dy = dx", "dx = 2*_dx + 1") applied.
DynamicShapesSpec apply_suggested_fixes(const DynamicShapesSpec& spec, std::string_view fixes);

}  // namespace exportlens::symbolic
