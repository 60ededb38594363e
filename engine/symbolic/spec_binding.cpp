#include "engine/symbolic/spec_binding.h"

#include <algorithm>
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

// The spec of each input, by name for a dict spec (the first entry of a name,
// as DynamicShapesSpec::input finds it), looked up once per input.
std::vector<const InputShapeSpec*> input_specs(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs) {
  std::vector<const InputShapeSpec*> out(inputs.size());
  if (spec.form == DynamicShapesSpec::Form::Unset) return out;
  std::unordered_map<std::string_view, const InputShapeSpec*> by_name;
  if (spec.form == DynamicShapesSpec::Form::Dict)
    for (const auto& [n, s] : spec.inputs) by_name.emplace(n, &s);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (spec.form != DynamicShapesSpec::Form::Dict) {
      out[i] = i < spec.inputs.size() ? &spec.inputs[i].second : nullptr;
    } else if (const auto it = by_name.find(inputs[i].name); it != by_name.end()) {
      out[i] = it->second;
    }
  }
  return out;
}

/// Checks in the spirit of torch's _check_dynamic_shapes.
void validate(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs) {
  if (spec.form == DynamicShapesSpec::Form::Unset) return;
  std::vector<std::string> arg_names;
  for (const auto& in : inputs) arg_names.push_back(in.name);
  if (spec.form == DynamicShapesSpec::Form::Dict) {
    std::vector<std::string> got;
    for (const auto& [n, s] : spec.inputs) got.push_back(n);
    std::vector<std::string> a = arg_names, b = got;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b)
      invalid("When `dynamic_shapes` is specified as a dict, its top-level keys must be the arg names " +
              names_text(arg_names) + " of `inputs`, but here they are " + names_text(got) +
              ". Alternatively, you could also ignore arg names entirely and specify `dynamic_shapes` as a "
              "list/tuple matching `inputs`.");
  } else if (spec.inputs.size() != inputs.size()) {
    invalid("Detected mismatch between the structure of `inputs` and `dynamic_shapes`: `inputs` has " +
            std::to_string(inputs.size()) + " elements, but `dynamic_shapes` has " +
            std::to_string(spec.inputs.size()) + " elements");
  }
  for (const std::string& c : spec.conflicts)
    invalid("Found different definitions of the same symbolic dimension " + c + "!");
  const auto specs = input_specs(spec, inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ExampleInput& in = inputs[i];
    const InputShapeSpec* s = specs[i];
    const std::string at = spec.form == DynamicShapesSpec::Form::Dict ? "['" + in.name + "']"
                                                                       : "[" + std::to_string(i) + "]";
    if (!s || s->form == InputShapeSpec::Form::None) continue;
    if (!in.is_tensor)
      invalid("Cannot associate a shape specified at `dynamic_shapes" + at + "` to the non-tensor input `inputs" +
              at + "` (expected None)");
    if (s->form != InputShapeSpec::Form::Dict && s->dims.size() != in.sizes.size())
      invalid("Expected dynamic shape spec specified at `dynamic_shapes" + at +
              "` to have the same length as the actual tensor shape " + shape_text(in.sizes) + " (expected " +
              std::to_string(in.sizes.size()) + ", but got " + std::to_string(s->dims.size()) + " instead)");
    for (const auto& [k, d] : s->dims)
      if (k < 0 || k >= int64_t(in.sizes.size()))
        invalid("Dimension " + std::to_string(k) + " specified at `dynamic_shapes" + at +
                "` is out of range for the input of shape " + shape_text(in.sizes));
  }
}

struct Target {
  int input, dim;
};

}  // namespace

std::string input_source(const std::string& name) { return "L['" + name + "']"; }
std::string size_source(const std::string& name, int dim) {
  return input_source(name) + ".size()[" + std::to_string(dim) + "]";
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

SpecBinding bind_spec(ShapeEnv& env, const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs) {
  validate(spec, inputs);
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
  const auto specs = input_specs(spec, inputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ExampleInput& in = inputs[i];
    b.first_dim_of_input.push_back(b.dims.size());
    if (!in.is_tensor) continue;
    const InputShapeSpec* s = specs[i];
    const std::vector<DimSpec> entries =
        s && s->form != InputShapeSpec::Form::None ? s->per_dimension(in.sizes.size()) : std::vector<DimSpec>{};
    for (size_t d = 0; d < in.sizes.size(); ++d) {
      BoundDim bd;
      bd.input = int(i);
      bd.dim = int(d);
      bd.source = size_source(in.name, int(d));
      bd.path = (spec.form == DynamicShapesSpec::Form::Dict ? "inputs['" + in.name + "']"
                                                              : "inputs[" + std::to_string(i) + "]") +
                ".shape[" + std::to_string(d) + "]";
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
