#include "engine/symbolic/additional_inputs.h"

namespace exportlens::symbolic {
namespace {

std::string describe(const ArgumentExample& a) {
  switch (a.kind) {
    case ArgumentExample::Kind::Tensor: {
      std::string s = "(";
      for (size_t i = 0; i < a.sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(a.sizes[i]);
      return s + (a.sizes.size() == 1 ? ",)" : ")");
    }
    case ArgumentExample::Kind::Int: return std::to_string(a.value);
    case ArgumentExample::Kind::Other: return a.text;
  }
  return "?";
}

std::string all_values(const std::vector<const ArgumentExample*>& values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + describe(*values[i]);
  return s + (values.size() == 1 ? ",)" : ")");
}

DimSpec dynamic_dim() {
  DimSpec d;
  d.kind = DimSpec::Kind::Dynamic;
  return d;
}

DimSpec none() {
  DimSpec d;
  d.kind = DimSpec::Kind::None;
  return d;
}

}  // namespace

DynamicShapesSpec infer_dynamic_shapes(const ExampleSet& example, const std::vector<ExampleSet>& additional) {
  for (size_t k = 0; k < additional.size(); ++k)
    if (additional[k].size() != example.size())
      throw AdditionalInputsError("additional inputs " + std::to_string(k + 1) + " have " +
                                  std::to_string(additional[k].size()) + " arguments, the example has " +
                                  std::to_string(example.size()));
  DynamicShapesSpec spec;
  spec.form = DynamicShapesSpec::Form::Dict;
  for (size_t i = 0; i < example.size(); ++i) {
    const ArgumentExample& a = example[i];
    std::vector<const ArgumentExample*> values{&a};
    for (const auto& set : additional) values.push_back(&set[i]);
    for (const auto* v : values)
      if (v->kind != a.kind || (a.kind == ArgumentExample::Kind::Tensor && v->sizes.size() != a.sizes.size()))
        throw AdditionalInputsError("The following inputs were found to have differing types, so they cannot be "
                                    "marked as dynamic: " + all_values(values) + " (argument '" + a.name + "')");
    InputShapeSpec shape;
    if (a.kind == ArgumentExample::Kind::Tensor) {
      shape.form = InputShapeSpec::Form::Tuple;
      for (size_t d = 0; d < a.sizes.size(); ++d) {
        bool same = true;
        for (const auto* v : values) same = same && v->sizes[d] == a.sizes[d];
        shape.dims.emplace_back(int64_t(d), same ? none() : dynamic_dim());
      }
    } else {
      bool same = true;
      for (const auto* v : values)
        same = same && (a.kind == ArgumentExample::Kind::Int ? v->value == a.value : v->text == a.text);
      if (!same && a.kind == ArgumentExample::Kind::Other)
        throw AdditionalInputsError("The following inputs were found to have differing values, but they cannot be "
                                    "marked as dynamic: " + all_values(values) + " (argument '" + a.name + "')");
      if (!same)  // torch makes it a SymInt input (Dim.DYNAMIC); ExportLens' specs and tracer specialize ints
        throw AdditionalInputsError("the int argument '" + a.name + "' differs between the example inputs " +
                                    all_values(values) + ": torch.export would make it a dynamic SymInt input; "
                                    "ExportLens specializes int arguments, so give sets that agree on it");
    }
    spec.inputs.emplace_back(a.name, std::move(shape));
  }
  return spec;
}

}  // namespace exportlens::symbolic
