#include "ui/shapes/spec_edits.h"

#include <algorithm>
#include <set>

namespace exportlens::ui {
namespace {

using symbolic::DimSpec;
using symbolic::DynamicShapesSpec;
using symbolic::ExampleInput;
using symbolic::InputShapeSpec;

// The spec's entry for an input, creating it (in forward-argument order) when missing.
InputShapeSpec& input_entry(DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs, size_t input) {
  if (spec.form == DynamicShapesSpec::Form::Unset) {
    spec.form = DynamicShapesSpec::Form::Dict;
    spec.inputs.clear();
    for (const auto& in : inputs) spec.inputs.emplace_back(in.name, InputShapeSpec{});
  }
  if (spec.form != DynamicShapesSpec::Form::Dict) {
    while (spec.inputs.size() <= input) spec.inputs.emplace_back("", InputShapeSpec{});
    return spec.inputs[input].second;
  }
  const std::string& name = inputs.at(input).name;
  for (auto& [n, in] : spec.inputs)
    if (n == name) return in;
  // Keep the dict in argument order: insert before the first later argument.
  auto position = spec.inputs.begin();
  for (size_t i = 0; i < input; ++i) {
    auto it = std::find_if(spec.inputs.begin(), spec.inputs.end(), [&](const auto& e) { return e.first == inputs[i].name; });
    if (it != spec.inputs.end()) position = std::next(it);
  }
  return spec.inputs.insert(position, {name, InputShapeSpec{}})->second;
}

void set_entry(InputShapeSpec& in, size_t rank, int64_t dim, const DimSpec& value) {
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

DimSpec dim_entry(const DynamicShapesSpec& spec, const std::vector<ExampleInput>& inputs, size_t input, int64_t dim) {
  if (input >= inputs.size()) return {};
  const InputShapeSpec* in = spec.input(inputs[input].name, input);
  return in ? in->at(dim) : DimSpec{};
}

DynamicShapesSpec with_dim(DynamicShapesSpec spec, const std::vector<ExampleInput>& inputs, size_t input, int64_t dim,
                           const DimEdit& edit) {
  if (input >= inputs.size()) return spec;
  if (edit.decl) declare(spec, *edit.decl);
  if (refers_to_dim(edit.spec) && !spec.dims.count(edit.spec.dim)) declare(spec, {edit.spec.dim, {}, {}});
  set_entry(input_entry(spec, inputs, input), inputs[input].sizes.size(), dim, edit.spec);
  return without_unused_dims(std::move(spec));
}

DynamicShapesSpec without_unused_dims(DynamicShapesSpec spec) {
  std::set<std::string> used;
  for (const auto& [name, in] : spec.inputs)
    for (const auto& [k, d] : in.dims)
      if (refers_to_dim(d)) used.insert(d.dim);
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
