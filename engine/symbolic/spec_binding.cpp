#include "engine/symbolic/spec_binding.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <string_view>
#include <unordered_map>

namespace exportlens::symbolic {

namespace {

[[noreturn]] void invalid(const std::string& message) { throw SpecError(0, 0, message); }

std::string shape_text(const std::vector<int64_t>& sizes) {
  std::string s = "torch.Size([";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "])";
}

std::string names_text(const std::vector<std::string>& names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", '" : "'") + names[i] + "'";
  return s + "]";
}

std::string dim_repr(const DynamicShapesSpec& spec, const DimSpec& d) {
  const auto hint = [&](const char* type) {
    std::string s = std::string("DimHint(") + type;
    if (d.min) s += ", min=" + std::to_string(*d.min);
    if (d.max) s += ", max=" + std::to_string(*d.max);
    return s + ")";
  };
  switch (d.kind) {
    case DimSpec::Kind::Unspecified:
    case DimSpec::Kind::None: return "None";
    case DimSpec::Kind::Static: return hint("STATIC");
    case DimSpec::Kind::Auto: return hint("AUTO");
    case DimSpec::Kind::Dynamic: return hint("DYNAMIC");
    case DimSpec::Kind::Int: return std::to_string(d.value);
    case DimSpec::Kind::Derived: return DynamicShapesSpec::derived_name(d);
    case DimSpec::Kind::Named: {  // Dim._readable
      const auto it = spec.dims.find(d.dim);
      if (it == spec.dims.end()) return "Dim('" + d.dim + "')";
      const DimDecl& decl = it->second;
      const std::optional<int64_t> lo = decl.min_value() == 2 ? std::nullopt : std::optional<int64_t>(decl.min_value());
      std::string s = "Dim('" + d.dim + "'";
      if (lo) s += ", min=" + std::to_string(*lo);
      if (decl.max) s += ", max=" + std::to_string(*decl.max);
      return s + ")";
    }
  }
  return "None";
}

// repr() of a spec as torch's messages print it.
std::string spec_repr(const DynamicShapesSpec& spec, const InputShapeSpec& in) {
  if (in.scalar) return dim_repr(spec, *in.scalar);
  const bool tuple = in.form == InputShapeSpec::Form::Tuple, dict = in.form == InputShapeSpec::Form::Dict;
  if (in.form == InputShapeSpec::Form::None) return "None";
  std::string s = dict ? "{" : tuple ? "(" : "[";
  const size_t n = in.container ? in.items.size() : in.dims.size();
  for (size_t i = 0; i < n; ++i) {
    s += i ? ", " : "";
    if (in.container) {
      if (dict) s += "'" + in.items[i].first + "': ";
      s += spec_repr(spec, in.items[i].second);
    } else {
      if (dict) s += std::to_string(in.dims[i].first) + ": ";
      s += dim_repr(spec, in.dims[i].second);
    }
  }
  if (tuple && n == 1) s += ",";
  return s + (dict ? "}" : tuple ? ")" : "]");
}

// A spec node as torch's pytree sees it: None, a Dim, an int or a hint is a
// leaf; a tensor's dims (a tuple, list or dict of dimension values) and a
// container of specs are nodes whose children are their items.
struct SpecView {
  const InputShapeSpec* node = nullptr;  // null: `dim` is one item of a tensor's dims
  DimSpec dim;

  bool is_leaf() const { return node ? node->form == InputShapeSpec::Form::None || node->scalar : true; }
  bool is_none() const {
    return node ? node->form == InputShapeSpec::Form::None && !node->scalar
                : dim.kind == DimSpec::Kind::None || dim.kind == DimSpec::Kind::Unspecified;
  }
  InputTree::Kind kind() const {
    if (is_leaf()) return InputTree::Kind::Leaf;
    switch (node->form) {
      case InputShapeSpec::Form::Tuple: return InputTree::Kind::Tuple;
      case InputShapeSpec::Form::List: return InputTree::Kind::List;
      default: return InputTree::Kind::Dict;
    }
  }
  size_t size() const { return is_leaf() ? 0 : node->container ? node->items.size() : node->dims.size(); }
  std::string key(size_t i) const {
    return node->container ? "'" + node->items[i].first + "'" : std::to_string(node->dims[i].first);
  }
  SpecView child(size_t i) const {
    if (node->container) return {&node->items[i].second, {}};
    return {nullptr, node->dims[i].second};
  }
  /// As torch prints it, up to 1,000 characters (a spec of 40,000 dims is not repeated in full).
  std::string repr(const DynamicShapesSpec& spec) const {
    std::string text = node ? spec_repr(spec, *node) : dim_repr(spec, dim);
    constexpr size_t kShown = 1000;
    if (text.size() > kShown) {
      size_t cut = kShown;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
      text = text.substr(0, cut) + " ...";
    }
    return text;
  }
  // type(x) of the spec's value, as pytree's messages name it
  std::string python_type() const {
    if (!is_leaf()) {
      return node->form == InputShapeSpec::Form::Tuple  ? "<class 'tuple'>"
             : node->form == InputShapeSpec::Form::List ? "<class 'list'>"
                                                        : "<class 'dict'>";
    }
    const DimSpec d = node ? node->scalar.value_or(DimSpec{DimSpec::Kind::None}) : dim;
    switch (d.kind) {
      case DimSpec::Kind::Unspecified:
      case DimSpec::Kind::None: return "<class 'NoneType'>";
      case DimSpec::Kind::Int: return "<class 'int'>";
      case DimSpec::Kind::Named: return "<class 'torch.export.dynamic_shapes.Dim'>";
      case DimSpec::Kind::Derived: return "<class 'torch.export.dynamic_shapes._DerivedDim'>";
      default: return "<class 'torch.export.dynamic_shapes._DimHint'>";
    }
  }
};

std::string quoted_list(const std::vector<std::string>& keys) {
  std::string s = "[";
  for (size_t i = 0; i < keys.size(); ++i) s += (i ? ", " : "") + keys[i];
  return s + "]";
}

// torch's _check_dynamic_shapes over the arguments' pytree: the structure
// first (_tree_map_with_path's _compare, builtin containers only), then each
// leaf in flattened order (check_shape; a registered class maps its fields,
// as a list, there, with pytree's own messages and paths from the class).
class Matcher {
 public:
  Matcher(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs)
      : spec_(spec), inputs_(inputs), out_(inputs.size()) {}

  std::vector<const InputShapeSpec*> run(const std::vector<InputTree>& args) {
    const bool by_name = spec_.form == DynamicShapesSpec::Form::Dict;
    std::vector<std::pair<std::string, SpecView>> top;
    for (size_t a = 0; a < args.size(); ++a) {
      const InputShapeSpec* s = by_name ? spec_.input(args[a].name, a) : &spec_.inputs[a].second;
      top.emplace_back(by_name ? "['" + args[a].name + "']" : "[" + std::to_string(a) + "]", SpecView{s, {}});
    }
    for (size_t a = 0; a < args.size(); ++a) compare(args[a], top[a].second, top[a].first);
    for (size_t a = 0; a < args.size(); ++a) leaves(args[a], top[a].second, top[a].first);
    return out_;
  }

 private:
  [[noreturn]] void mismatch(const std::string& what) const {
    invalid("Detected mismatch between the structure of `inputs` and `dynamic_shapes`: " + what);
  }

  void compare(const InputTree& t, const SpecView& s, const std::string& path) const {
    if (t.kind == InputTree::Kind::Leaf || t.kind == InputTree::Kind::Custom) return;
    const std::string in = "`inputs" + path + "`", ds = "`dynamic_shapes" + path + "`";
    if (s.is_leaf()) mismatch(in + " is a " + t.python_type() + ", but " + ds + " is not");
    if (s.kind() != t.kind)
      mismatch(in + " is a " + t.python_type() + ", but " + ds + " is a " + s.python_type());
    if (s.size() != t.children.size())
      mismatch(in + " has " + std::to_string(t.children.size()) + " elements, but " + ds + " has " +
               std::to_string(s.size()) + " elements");
    for (size_t i = 0; i < t.children.size(); ++i) {
      const auto [key, child] = child_of(t, s, i);
      if (!child) {
        std::vector<std::string> mine, theirs;
        for (const auto& k : t.keys) mine.push_back("'" + k + "'");
        for (size_t j = 0; j < s.size(); ++j) theirs.push_back(s.key(j));
        mismatch(in + " has keys " + quoted_list(mine) + ", but " + ds + " has keys " + quoted_list(theirs));
      }
      compare(t.children[i], *child, path + key);
    }
  }

  // The spec of t's child i and its path key (a dict's by key, else by position).
  std::pair<std::string, std::optional<SpecView>> child_of(const InputTree& t, const SpecView& s, size_t i) const {
    if (t.kind != InputTree::Kind::Dict) return {"[" + std::to_string(i) + "]", s.child(i)};
    const std::string key = "'" + t.keys[i] + "'";
    for (size_t j = 0; j < s.size(); ++j)
      if (s.key(j) == key) return {"[" + key + "]", s.child(j)};
    return {"[" + key + "]", std::nullopt};
  }

  void leaves(const InputTree& t, const SpecView& s, const std::string& path) {
    switch (t.kind) {
      case InputTree::Kind::Leaf: return leaf(t.leaf, s, path);
      case InputTree::Kind::Custom: {
        // tree_map_with_path over the flattened fields (a list), paths from the class
        if (s.kind() != InputTree::Kind::List)
          invalid("Node type mismatch; expected <class 'list'>, but got " + s.python_type() + ".");
        if (s.size() != t.children.size())
          invalid("Node arity mismatch; expected " + std::to_string(t.children.size()) + ", but got " +
                  std::to_string(s.size()) + ".");
        for (size_t i = 0; i < t.children.size(); ++i) inner(t.children[i], s.child(i), "[" + std::to_string(i) + "]");
        return;
      }
      default:
        for (size_t i = 0; i < t.children.size(); ++i) {
          const auto [key, child] = child_of(t, s, i);
          leaves(t.children[i], *child, path + key);
        }
    }
  }

  // Inside a registered class: pytree's flatten_up_to, then the leaves.
  void inner(const InputTree& t, const SpecView& s, const std::string& path) {
    if (t.kind == InputTree::Kind::Leaf || t.kind == InputTree::Kind::Custom) return leaves(t, s, path);
    if (s.is_leaf() || s.kind() != t.kind)
      invalid("Node type mismatch; expected " + t.python_type() + ", but got " + s.python_type() + ".");
    if (s.size() != t.children.size())
      invalid("Node arity mismatch; expected " + std::to_string(t.children.size()) + ", but got " +
              std::to_string(s.size()) + ".");
    if (t.kind == InputTree::Kind::Dict) {
      std::set<std::string> mine, theirs, missing, extra;
      for (const auto& k : t.keys) mine.insert("'" + k + "'");
      for (size_t j = 0; j < s.size(); ++j) theirs.insert(s.key(j));
      std::set_difference(mine.begin(), mine.end(), theirs.begin(), theirs.end(), std::inserter(missing, missing.end()));
      std::set_difference(theirs.begin(), theirs.end(), mine.begin(), mine.end(), std::inserter(extra, extra.end()));
      if (!missing.empty() || !extra.empty()) {
        const auto set_text = [](const std::set<std::string>& keys) {
          std::string out = "{";
          for (const auto& k : keys) out += (out.size() > 1 ? ", " : "") + k;
          return out + "}";
        };
        invalid("Node keys mismatch" + (missing.empty() ? std::string() : "; missing key(s): " + set_text(missing)) +
                (extra.empty() ? std::string() : "; extra key(s): " + set_text(extra)) + ".");
      }
    }
    for (size_t i = 0; i < t.children.size(); ++i) {
      const auto [key, child] = child_of(t, s, i);
      inner(t.children[i], *child, path + key);
    }
  }

  // check_shape for one input.
  void leaf(int index, const SpecView& s, const std::string& at) {
    const ExampleInput& in = inputs_[size_t(index)];
    if (s.is_none()) {
      out_[size_t(index)] = s.node;  // None (or nothing, for a dimension entry read as a leaf)
      return;
    }
    if (!in.is_tensor)
      invalid("Cannot associate a shape specified at `dynamic_shapes" + at + "` to the non-tensor input `inputs" +
              at + "` (expected None)");
    if (s.is_leaf())
      invalid("Unexpected input tensor shape " + s.repr(spec_) + " specified at `dynamic_shapes" + at +
              "` (expected either a list/tuple of dimensions, or a dict mapping indices to dimensions, where each "
              "dimension is an int, a Dim, Dim.AUTO, Dim.STATIC, or Dim.DYNAMIC)");
    const InputShapeSpec& shape = *s.node;
    if (shape.form != InputShapeSpec::Form::Dict && s.size() != in.sizes.size())
      invalid("Expected dynamic shape spec " + s.repr(spec_) + " specified at `dynamic_shapes" + at +
              "` to have the same length as the actual tensor shape " + shape_text(in.sizes) + " (expected " +
              std::to_string(in.sizes.size()) + ", but got " + std::to_string(s.size()) + " instead)");
    if (shape.container) {  // an item that is itself a container where a dimension was expected
      for (size_t i = 0; i < shape.items.size(); ++i)
        if (!shape.items[i].second.scalar && shape.items[i].second.form != InputShapeSpec::Form::None)
          invalid((shape.form == InputShapeSpec::Form::Dict ? "Unexpected dimension mapped to index '" +
                                                                  shape.items[i].first + "'"
                                                            : "Unexpected dimension #" + std::to_string(i)) +
                  " in input tensor shape " + s.repr(spec_) + " specified at `dynamic_shapes" + at +
                  "` (expected None, an int, a Dim, Dim.AUTO, Dim.STATIC, or Dim.DYNAMIC, but got " +
                  SpecView{&shape.items[i].second, {}}.repr(spec_) + " instead)");
      invalid("the dimensions of a tensor's shape specified at `dynamic_shapes" + at + "` must be keyed by int index");
    }
    for (const auto& [k, d] : shape.dims)
      if (k < 0 || k >= int64_t(in.sizes.size()))
        invalid("Dimension " + std::to_string(k) + " specified at `dynamic_shapes" + at +
                "` is out of range for the input of shape " + shape_text(in.sizes));
    out_[size_t(index)] = &shape;
  }

  const DynamicShapesSpec& spec_;
  const std::vector<ExampleInput>& inputs_;
  std::vector<const InputShapeSpec*> out_;
};

/// Checks in the spirit of torch's _check_dynamic_shapes; each input's own
/// spec (nullptr: None or none given).
std::vector<const InputShapeSpec*> validate(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs,
                                            const std::vector<InputTree>* arguments) {
  if (spec.form == DynamicShapesSpec::Form::Unset) return std::vector<const InputShapeSpec*>(inputs.size());
  std::vector<InputTree> flat;
  if (!arguments) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      InputTree t;
      t.name = inputs[i].name;
      t.leaf = int(i);
      flat.push_back(std::move(t));
    }
    arguments = &flat;
  }
  std::vector<std::string> arg_names;
  for (const auto& a : *arguments) arg_names.push_back(a.name);
  if (spec.form == DynamicShapesSpec::Form::Dict) {
    std::vector<std::string> got;
    for (const auto& [n, s] : spec.inputs) got.push_back(n);
    std::vector<std::string> a = arg_names, b = got;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) {
      std::string msg = "When `dynamic_shapes` is specified as a dict, its top-level keys must be the arg names " +
                        names_text(arg_names) + " of `inputs`, but here they are " + names_text(got) + ". ";
      if (arguments->size() == 1 && std::find(got.begin(), got.end(), arg_names[0]) == got.end() &&
          (*arguments)[0].kind == InputTree::Kind::Dict)
        msg += "Since here `inputs` is a list/tuple enclosing a single dict, maybe you just forgot to enclose "
               "`dynamic_shapes` in a list/tuple?";
      else
        msg += "Alternatively, you could also ignore arg names entirely and specify `dynamic_shapes` as a "
               "list/tuple matching `inputs`.";
      invalid(msg);
    }
  } else if (spec.inputs.size() != arguments->size()) {
    invalid("Detected mismatch between the structure of `inputs` and `dynamic_shapes`: `inputs` has " +
            std::to_string(arguments->size()) + " elements, but `dynamic_shapes` has " +
            std::to_string(spec.inputs.size()) + " elements");
  }
  for (const std::string& c : spec.conflicts)
    invalid("Found different definitions of the same symbolic dimension " + c + "!");
  return Matcher(spec, inputs).run(*arguments);
}

}  // namespace

std::string InputTree::python_type() const {
  switch (kind) {
    case Kind::Tuple: return "<class 'tuple'>";
    case Kind::List: return "<class 'list'>";
    case Kind::Dict: return "<class 'dict'>";
    case Kind::Custom: return "<class '" + type_name + "'>";
    case Kind::Leaf: break;
  }
  return "<class 'torch.Tensor'>";
}

std::vector<const InputShapeSpec*> leaf_specs(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs,
                                              const std::vector<InputTree>* arguments) {
  return validate(spec, inputs, arguments);
}

namespace {

// "inputs['x']" or "inputs[0]": where input i's argument is, as make_constraints' messages name it.
std::string argument_path(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs,
                          const std::vector<InputTree>* arguments, size_t i) {
  if (spec.form == DynamicShapesSpec::Form::Dict) return "inputs['" + inputs[i].name + "']";
  size_t position = i;
  if (arguments) {
    const std::function<bool(const InputTree&)> holds = [&](const InputTree& t) {
      return t.leaf == int(i) || std::any_of(t.children.begin(), t.children.end(), holds);
    };
    for (size_t a = 0; a < arguments->size(); ++a)
      if (holds((*arguments)[a])) position = a;
  }
  return "inputs[" + std::to_string(position) + "]";
}

}  // namespace

std::string input_source(const std::string& name) { return "L['" + name + "']"; }
std::string size_source(const std::string& name, int dim) {
  return input_source(name) + ".size()[" + std::to_string(dim) + "]";
}
std::string input_source(const ExampleInput& in) { return input_source(in.name) + in.path; }
std::string size_source(const ExampleInput& in, int dim) {
  return input_source(in) + ".size()[" + std::to_string(dim) + "]";
}

std::span<const BoundDim> SpecBinding::dims_of(size_t input) const {
  if (input >= first_dim_of_input.size()) return {};
  const size_t end = input + 1 < first_dim_of_input.size() ? first_dim_of_input[input + 1] : dims.size();
  return std::span<const BoundDim>(dims).subspan(first_dim_of_input[input], end - first_dim_of_input[input]);
}

const BoundDim* SpecBinding::find(const std::string& source) const {
  const auto it = position_of_source.find(source);
  return it == position_of_source.end() ? nullptr : &dims[it->second];
}

std::string SpecBinding::debug_name(const std::string& source) const {
  auto it = debug_names.find(source);
  return it == debug_names.end() ? source : it->second;
}

SpecBinding bind_spec(ShapeEnv& env, const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs,
                      const std::vector<InputTree>* arguments) {
  const auto specs = validate(spec, inputs, arguments);
  SpecBinding b;
  // Per Dim name, the dims that use it directly (torch's `symbols`), in first-use order.
  std::vector<std::pair<std::string, std::vector<size_t>>> by_name;
  std::unordered_map<std::string, size_t> name_at;  // position in by_name
  auto uses = [&](const std::string& name) -> std::vector<size_t>& {
    const auto [it, added] = name_at.emplace(name, by_name.size());
    if (added) by_name.emplace_back(name, std::vector<size_t>{});
    return by_name[it->second].second;
  };
  std::vector<size_t> relaxed_order;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ExampleInput& in = inputs[i];
    b.first_dim_of_input.push_back(b.dims.size());
    if (!in.is_tensor) continue;
    const InputShapeSpec* s = specs[i];
    const std::vector<DimSpec> entries =
        s && s->form != InputShapeSpec::Form::None ? s->per_dimension(in.sizes.size()) : std::vector<DimSpec>{};
    const std::string argument = in.sizes.empty() ? "" : argument_path(spec, inputs, arguments, i) + in.path;
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      BoundDim bd;
      bd.input = int(i);
      bd.dim = int(d);
      bd.source = size_source(in, int(d));
      bd.path = argument + ".shape[" + std::to_string(d) + "]";
      bd.hint = in.sizes[d];
      if (!entries.empty()) bd.spec = entries[d];
      if (s && s->form == InputShapeSpec::Form::None) bd.spec.kind = DimSpec::Kind::None;
      switch (bd.spec.kind) {
        case DimSpec::Kind::Named: {
          const DimDecl& decl = spec.dims.at(bd.spec.dim);
          bd.constraint = {DimConstraint::Kind::Strict, ValueRange::between(Num::integer(decl.min_value()), decl.max_value())};
          bd.debug_name = decl.name;
          uses(decl.name).push_back(b.dims.size());
          break;
        }
        case DimSpec::Kind::Int:
          bd.constraint = {DimConstraint::Kind::Strict, ValueRange::exactly(bd.spec.value)};
          bd.debug_name = std::to_string(bd.spec.value);
          uses(bd.debug_name).push_back(b.dims.size());
          break;
        case DimSpec::Kind::Derived: {
          const DimDecl& root = spec.dims.at(bd.spec.dim);
          auto apply = [&](int64_t x) { return bd.spec.coeff * x + bd.spec.offset; };
          const int64_t lo = apply(root.min_value());
          if (lo < 0)
            invalid("Expected derived min value of " + DynamicShapesSpec::derived_name(bd.spec) +
                    " to be >= 0. Please specify an appropriate min value for " + root.name + " (currently " +
                    std::to_string(root.min_value()) + ").");
          const Num hi = root.max ? Num::integer(apply(*root.max)) : Num::infinite(1);
          bd.constraint = {DimConstraint::Kind::Strict, ValueRange::between(Num::integer(lo), hi)};
          bd.debug_name = DynamicShapesSpec::derived_name(bd.spec);
          uses(bd.debug_name).push_back(b.dims.size());
          break;
        }
        case DimSpec::Kind::Dynamic:
          bd.constraint.kind = DimConstraint::Kind::Relaxed;
          relaxed_order.push_back(b.dims.size());
          break;
        case DimSpec::Kind::Auto:
          relaxed_order.push_back(b.dims.size());
          break;
        default: break;
      }
      b.position_of_source.emplace(bd.source, b.dims.size());
      b.dims.push_back(std::move(bd));
    }
  }
  // Fakify: symbols in input order (torch's tracking order).
  for (BoundDim& bd : b.dims) {
    switch (bd.spec.kind) {
      case DimSpec::Kind::Auto:
      case DimSpec::Kind::Dynamic: bd.expr = env.create_backed(bd.source, bd.hint, std::nullopt); break;
      case DimSpec::Kind::Named:
      case DimSpec::Kind::Int:
      case DimSpec::Kind::Derived: bd.expr = env.create_backed(bd.source, bd.hint, bd.constraint.range); break;
      default: bd.expr = Expr(bd.hint); break;
    }
    if (!bd.debug_name.empty()) b.debug_names[bd.source] = bd.debug_name;
  }
  // _process_equalities: relaxed constraints first, then by Dim name.
  for (size_t i : relaxed_order) b.relaxed_sources.insert(b.dims[i].source);
  std::map<std::string, Expr> phantoms;
  for (const auto& [name, members] : by_name) {
    for (size_t k = 0; k < members.size(); ++k) {
      const BoundDim& bd = b.dims[members[k]];
      if (bd.spec.kind != DimSpec::Kind::Derived) {
        if (k > 0) b.source_pairs.emplace_back(bd.source, b.dims[members[0]].source);
        continue;
      }
      DerivedEquality eq;
      eq.source = bd.source;
      eq.root_name = bd.spec.dim;
      eq.coeff = bd.spec.coeff;
      eq.offset = bd.spec.offset;
      const auto root_uses = std::find_if(by_name.begin(), by_name.end(), [&](const auto& e) {
        return e.first == bd.spec.dim;
      });
      if (root_uses != by_name.end() && !root_uses->second.empty()) {
        eq.root_source = b.dims[root_uses->second.front()].source;
      } else if (auto it = phantoms.find(bd.spec.dim); it != phantoms.end()) {
        eq.phantom_root = it->second;
      } else {
        // The root's value from the first derived dim that uses it.
        const DimDecl& root = spec.dims.at(bd.spec.dim);
        const int64_t num = bd.hint - bd.spec.offset;
        if (num % bd.spec.coeff != 0)
          invalid("Expected shape[" + std::to_string(bd.dim) + "] = " + std::to_string(bd.hint) +
                  " of input Tensor to be of the form " + DynamicShapesSpec::derived_name(bd.spec) + ", where " +
                  root.name + " is an integer");
        const Expr sym = env.create_phantom(
            root.name, num / bd.spec.coeff, ValueRange::between(Num::integer(root.min_value()), root.max_value()));
        phantoms.emplace(root.name, sym);
        b.phantom_symbols.push_back(sym);
        eq.phantom_root = sym;
      }
      b.derived.push_back(std::move(eq));
    }
  }
  return b;
}

}  // namespace exportlens::symbolic
