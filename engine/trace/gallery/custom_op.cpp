// Custom ops (seed 002): my_custom_library::custom_op registered with
// TORCH_LIBRARY, a CPU kernel (relu) and a Meta kernel (empty_like, the
// "fake" implementation export needs). It traces as one node and runs in the
// CPU interpreter like any registered op.
#include <ATen/ops/empty_like.h>
#include <torch/library.h>

#include <iostream>

#include "engine/trace/gallery/gallery.h"

namespace {

at::Tensor custom_op_cpu(const at::Tensor& x) {
  std::cerr << "custom_op called!\n";
  return at::relu(x);
}

at::Tensor custom_op_meta(const at::Tensor& x) { return at::empty_like(x); }

}  // namespace

// The seed's signature, custom_op(x: torch.Tensor): saved programs bind by these names.
TORCH_LIBRARY(my_custom_library, m) { m.def("custom_op(Tensor x) -> Tensor"); }
TORCH_LIBRARY_IMPL(my_custom_library, CPU, m) { m.impl("custom_op", &custom_op_cpu); }
TORCH_LIBRARY_IMPL(my_custom_library, Meta, m) { m.impl("custom_op", &custom_op_meta); }

namespace exportlens::trace::gallery {

namespace {

struct CustomOpExample : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow("my_custom_library::custom_op", "")
                               .typed<at::Tensor(const at::Tensor&)>();
    x = torch::sin(x);
    x = op.call(x);  // torch.ops.my_custom_library.custom_op(x)
    x = torch::cos(x);
    return x;
  }
};

}  // namespace

std::vector<Example> custom_op_examples() {
  return {
      {def<CustomOpExample>("custom_op",
                            "CustomOpExample: sin -> my_custom_library::custom_op (TORCH_LIBRARY, relu on the CPU, "
                            "empty_like as its Meta kernel) -> cos.",
                            {"x"}, random_inputs({{3, 3}})),
       "custom ops", "002"},
  };
}

}  // namespace exportlens::trace::gallery
