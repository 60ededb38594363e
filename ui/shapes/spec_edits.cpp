#include "ui/shapes/spec_edits.h"

#include <algorithm>
#include <functional>
#include <set>

namespace exportlens::ui {
namespace {

using symbolic::DimSpec;
using symbolic::DynamicShapesSpec;
using symbolic::ExampleInput;
using symbolic::InputShapeSpec;

// The spec's entry for an argument, creating it (in forward-argument order) when missing.
InputShapeSpec& argument_entry(DynamicShapesSpec& spec, const std::vector<std::string>& arguments, size_t argument) {
  if (spec.form == DynamicShapesSpec::Form::Unset) {
    spec.form = DynamicShapesSpec::Form::Dict;
    spec.inputs.clear();
    for (const auto& name : arguments) spec.inputs.emplace_back(name, InputShapeSpec{});
  }
  if (spec.form != DynamicShapesSpec::Form::Dict) {
    while (spec.inputs.size() <= argument) spec.inputs.emplace_back("", InputShapeSpec{});
    return spec.inputs[argument].second;
  }
  const std::string& name = arguments.at(argument);
  for (auto& [n, in] : spec.inputs)
    if (n == name) return in;
  // Keep the dict in argument order: insert before the first later argument.
  auto position = spec.inputs.begin();
  for (size_t i = 0; i < argument; ++i) {
    auto it = std::find_if(spec.inputs.begin(), spec.inputs.end(), [&](const auto& e) { return e.first == arguments[i]; });
    if (it != spec.inputs.end()) position = std::next(it);
  }
  return spec.inputs.insert(position, {name, InputShapeSpec{}})->second;
}

InputShapeSpec& input_entry(DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs, size_t input) {
  std::vector<std::string> names;
  for (const auto& in : inputs) names.push_back(in.name);
  return argument_entry(spec, names, input);
}

using symbolic::InputTree;

InputShapeSpec::Form container_form(const InputTree& t) {
  return t.kind == InputTree::Kind::Tuple  ? InputShapeSpec::Form::Tuple
         : t.kind == InputTree::Kind::Dict ? InputShapeSpec::Form::Dict
                                           : InputShapeSpec::Form::List;  // a list, or a dataclass's fields
}

std::string child_key(const InputTree& t, size_t i) { return t.kind == InputTree::Kind::Dict ? t.keys[i] : ""; }

// The spec torch needs at least for `t`: None for a tensor, containers mirroring containers.
InputShapeSpec mirror_of(const InputTree& t) {
  InputShapeSpec in;
  if (t.kind == InputTree::Kind::Leaf) return in;
  in.form = container_form(t);
  in.container = true;
  for (size_t c = 0; c < t.children.size(); ++c) in.items.emplace_back(child_key(t, c), mirror_of(t.children[c]));
  return in;
}

// Makes `in` a container mirroring `t` (keeping the items that fit) and
// returns the spec of t's child i.
InputShapeSpec& child_entry(InputShapeSpec& in, const InputTree& t, size_t i) {
  const InputShapeSpec::Form form = container_form(t);
  if (!in.container || in.form != form) {
    // A tensor's dims read as a container's leaves ((None, None) for a pair): a None stays None.
    InputShapeSpec mirror = mirror_of(t);
    if (in.container && in.items.size() == t.children.size() && form != InputShapeSpec::Form::Dict)
      for (size_t c = 0; c < t.children.size(); ++c) mirror.items[c].second = in.items[c].second;
    in = std::move(mirror);
  }
  if (form == InputShapeSpec::Form::Dict) {
    for (auto& [k, item] : in.items)
      if (k == t.keys[i]) return item;
    return in.items.emplace_back(t.keys[i], mirror_of(t.children[i])).second;
  }
  while (in.items.size() <= i) in.items.emplace_back("", mirror_of(t.children[in.items.size()]));
  return in.items[i].second;
}

// The leaf's spec inside argument tree `t`, containers made on the way.
InputShapeSpec* leaf_entry(InputShapeSpec& in, const InputTree& t, int leaf) {
  if (t.kind == InputTree::Kind::Leaf) return t.leaf == leaf ? &in : nullptr;
  const std::function<bool(const InputTree&)> holds = [&](const InputTree& n) {
    return n.leaf == leaf || std::any_of(n.children.begin(), n.children.end(), holds);
  };
  for (size_t i = 0; i < t.children.size(); ++i)
    if (holds(t.children[i])) return leaf_entry(child_entry(in, t, i), t.children[i], leaf);
  return nullptr;
}

void set_entry(InputShapeSpec& in, size_t rank, int64_t dim, const DimSpec& value) {
  if (in.scalar || in.container) in = InputShapeSpec{};  // not a tensor's spec: start from None
  if (in.form == InputShapeSpec::Form::None) {
    in.form = InputShapeSpec::Form::Tuple;
    in.dims.clear();
    for (size_t d = 0; d < rank; ++d) in.dims.emplace_back(int64_t(d), DimSpec{DimSpec::Kind::Static});
  }
  if (in.form != InputShapeSpec::Form::Dict) {
    while (in.dims.size() <= size_t(dim)) in.dims.emplace_back(int64_t(in.dims.size()), DimSpec{DimSpec::Kind::Static});
    in.dims[size_t(dim)].second = value;
    return;
  }
  for (auto& [k, d] : in.dims)
    if (k == dim) {
      d = value;
      return;
    }
  auto at = std::find_if(in.dims.begin(), in.dims.end(), [&](const auto& e) { return e.first > dim; });
  in.dims.insert(at, {dim, value});
}

void declare(DynamicShapesSpec& spec, const symbolic::DimDecl& decl) {
  if (!spec.dims.count(decl.name)) {
    spec.dim_order.push_back(decl.name);
    spec.variable_of.emplace(decl.name, decl.name);
  }
  spec.dims[decl.name] = decl;
}

bool refers_to_dim(const DimSpec& d) { return d.kind == DimSpec::Kind::Named || d.kind == DimSpec::Kind::Derived; }

}  // namespace

DimSpec dim_entry(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs, size_t input, int64_t dim,
                  const std::vector<InputTree>& tree) {
  if (input >= inputs.size()) return {};
  if (tree.empty()) {
    const InputShapeSpec* in = spec.input(inputs[input].name, input);
    return in ? in->at(dim) : DimSpec{};
  }
  try {  // as torch matches a spec to nested inputs
    const InputShapeSpec* in = symbolic::leaf_specs(spec, inputs, &tree)[input];
    return in ? in->at(dim) : DimSpec{};
  } catch (const symbolic::SpecError&) {
    return {};  // the spec does not fit the inputs (the solve says how)
  }
}

DynamicShapesSpec with_dim(DynamicShapesSpec spec, const std::vector<ExampleInput>& inputs, size_t input, int64_t dim,
                           const DimEdit& edit, const std::vector<InputTree>& tree) {
  if (input >= inputs.size()) return spec;
  if (edit.decl) declare(spec, *edit.decl);
  if (refers_to_dim(edit.spec) && !spec.dims.count(edit.spec.dim)) declare(spec, {edit.spec.dim, {}, {}});
  InputShapeSpec* entry = nullptr;
  if (tree.empty()) {
    entry = &input_entry(spec, inputs, input);
  } else {
    std::vector<std::string> names;
    for (const auto& a : tree) names.push_back(a.name);
    const bool was_unset = spec.form == DynamicShapesSpec::Form::Unset;
    for (size_t a = 0; a < tree.size() && !entry; ++a) {
      const std::function<bool(const InputTree&)> holds = [&](const InputTree& n) {
        return n.leaf == int(input) || std::any_of(n.children.begin(), n.children.end(), holds);
      };
      if (holds(tree[a])) entry = leaf_entry(argument_entry(spec, names, a), tree[a], int(input));
    }
    if (was_unset)  // the other arguments as torch needs them: containers mirrored, None for tensors
      for (size_t a = 0; a < tree.size(); ++a)
        if (InputShapeSpec& other = argument_entry(spec, names, a); !other.container && other.form == InputShapeSpec::Form::None)
          other = mirror_of(tree[a]);
  }
  if (entry) set_entry(*entry, inputs[input].sizes.size(), dim, edit.spec);
  return without_unused_dims(std::move(spec));
}

DynamicShapesSpec without_unused_dims(DynamicShapesSpec spec) {
  std::set<std::string> used;
  for (const auto& [name, in] : spec.inputs)
    DynamicShapesSpec::for_each_dim(in, [&](const DimSpec& d) {
      if (refers_to_dim(d)) used.insert(d.dim);
    });
  for (auto it = spec.dims.begin(); it != spec.dims.end();) {
    if (used.count(it->first)) {
      ++it;
      continue;
    }
    spec.variable_of.erase(it->first);
    it = spec.dims.erase(it);
  }
  std::erase_if(spec.dim_order, [&](const std::string& n) { return !used.count(n); });
  return spec;
}

}  // namespace exportlens::ui
