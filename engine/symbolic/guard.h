#pragma once
// Where a guard, a replacement or a symbol came from: the graph node and op
// whose shape rule asked, the rule, and the user's source line when the
// program recorded it. Plain data so views can list and link them.
#include <string>
#include <vector>

#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

struct Provenance {
  enum class Kind {
    ShapeRule,       // an op's shape rule (node, op, rule)
    RecordedGuard,   // a guard the program recorded (user code: if/assert/_check); `detail` is its
                     // text, `node` the node it was traced next to and `rule` "before"/"after"
    SpecRelation,    // the dynamic-shapes spec itself (shared or derived Dims)
    RuntimeAssert,   // an _assert_scalar / sym_constrain_range node
    Input,           // creating an input's symbols
  };
  Kind kind = Kind::ShapeRule;
  std::string node;      // graph node name, e.g. "add"
  std::string op;        // e.g. "aten.add.Tensor"
  std::string rule;      // e.g. "broadcast", "mm: mat1.size(1) == mat2.size(0)"
  std::string location;  // "seed_models.py:143 in forward", when known
  std::string code;      // the source line, when known
  std::string detail;    // free text (e.g. the guards_code entry)

  /// One line: "node add (aten.add.Tensor, broadcast) at seed_models.py:143 in forward".
  std::string describe() const;
};

struct Guard {
  Expr expr;            // the boolean that must hold, as it was evaluated
  Provenance origin;
};

/// A check deferred to run time (data-dependent: unbacked symbols).
struct RuntimeAssertRecord {
  Expr expr;
  Provenance origin;
};

/// A symbol eliminated in favour of an expression (s4 -> s2, s0 -> s2 + 2).
struct ReplacementRecord {
  Expr symbol;
  Expr target;
  std::string reason;   // "solve", "range_refined_to_singleton", ...
  Provenance origin;    // the guard that caused it
};

}  // namespace exportlens::symbolic
