#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

const std::vector<Example>& examples() {
  static const std::vector<Example> all = [] {
    std::vector<Example> v;
    for (auto family : {basic_examples, graph_break_examples, control_flow_examples, dynamic_shape_examples,
                        dim_hint_examples, data_dependent_examples, custom_op_examples, decomposition_examples})
      for (auto& e : family()) v.push_back(std::move(e));
    return v;
  }();
  return all;
}

const Example* find(const std::string& name) {
  for (const auto& e : examples())
    if (e.def.name == name) return &e;
  return nullptr;
}

std::function<sdk::Inputs()> random_inputs(std::vector<std::vector<int64_t>> shapes) {
  return [shapes = std::move(shapes)] {
    sdk::Inputs inputs;
    for (const auto& shape : shapes) inputs.push_back(torch::randn(shape));
    return inputs;
  };
}

}  // namespace exportlens::trace::gallery
