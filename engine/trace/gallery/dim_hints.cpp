// Dim.AUTO / DYNAMIC / STATIC, guards from model code, 0/1 specialization,
// named Dims and constraint violations (seed 002).
#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

namespace {

namespace el = exportlens::sdk;

struct DynamicModel : torch::nn::Module {
  el::Linear l{this, "l", 5, 3};

  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor w,  // [6, 5]
                                                   torch::Tensor x,  // [4]
                                                   torch::Tensor y,  // [8, 4]
                                                   torch::Tensor z) {  // [32]
    auto x0 = x + y;        // [8, 4]
    auto x1 = l(w);         // [6, 3]
    auto x2 = x0.flatten(); // [32]
    auto x3 = x2 + z;       // [32]
    return {x1, x3};
  }
};

/// The second DynamicModel: assert, torch._check and if/else on sizes.
struct DynamicModelV2 : torch::nn::Module {
  el::Linear l{this, "l", 5, 3};

  std::vector<torch::Tensor> forward(torch::Tensor w, torch::Tensor x, torch::Tensor y, torch::Tensor z) {
    TORCH_CHECK(w.sym_size(0) <= 512);                // assert w.shape[0] <= 512
    el::check(el::sym(x.sym_size(0)) >= 4);          // torch._check(x.shape[0] >= 4)
    if (w.sym_size(0) == x.sym_size(0) + 2) {         // if w.shape[0] == x.shape[0] + 2:
      auto x0 = x + y;
      auto x1 = l(w);
      auto x2 = x0.flatten();
      auto x3 = x2 + z;
      return {x1, x3};
    } else {
      return {w};
    }
  }
};

/// torch.nn.Linear(4, 3) exported by itself (its parameters are "weight" and "bias").
struct LinearOnly : el::LinearImpl {
  LinearOnly() : el::LinearImpl(4, 3) {}
};

struct NamedDims2dx : torch::nn::Module {
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x, torch::Tensor y) {
    return {x.sum(1), y.sum(1)};
  }
};

struct NamedDims4dx : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + 1; }
};

struct FooConstraintViolation : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto w = x + y;
    return w + torch::ones({4});
  }
};

const char* kAuto = R"(dynamic_shapes = {
    "w": (Dim.AUTO, Dim.AUTO),
    "x": (Dim.AUTO,),
    "y": (Dim.AUTO, Dim.AUTO),
    "z": (Dim.AUTO,),
}
)";

const char* kAutoWDynamic = R"(dynamic_shapes = {
    "w": (Dim.AUTO, Dim.DYNAMIC),
    "x": (Dim.AUTO,),
    "y": (Dim.AUTO, Dim.AUTO),
    "z": (Dim.AUTO,),
}
)";

const char* kStaticDynamicConflict = R"(dynamic_shapes = {
    "w": (Dim.AUTO, Dim.AUTO),
    "x": (Dim.STATIC,),
    "y": (Dim.AUTO, Dim.DYNAMIC),
    "z": (Dim.AUTO,),
}
)";

const char* kLinearBatch1 = R"(dynamic_shapes = {
    "input": (Dim.AUTO, Dim.STATIC),
}
)";

const char* kNamed2dx = R"(dx = Dim("dx", min=4, max=256)
dh = Dim("dh", max=512)
dynamic_shapes = {
    "x": (dx, None),
    "y": (2 * dx, dh),
}
)";

const char* kNamed4dx = R"(dx = Dim("dx", min=4, max=512)
dynamic_shapes = {
    "x": (4 * dx, None)  # x.shape[0] has range [16, 2048], and is divisible by 4.
}
)";

const char* kFoo = R"(dx, dy, d1 = torch.export.dims("dx", "dy", "d1")
dynamic_shapes = {
    "x": (dx, d1),
    "y": (dy, d1),
}
)";

}  // namespace

std::vector<Example> dim_hint_examples() {
  const std::vector<std::string> wxyz = {"w", "x", "y", "z"};
  const auto dynamic_model_inputs = random_inputs({{6, 5}, {4}, {8, 4}, {32}});
  return {
      {def<DynamicModel>("dynamic_model_static", "DynamicModel with no dynamic_shapes: a static program.", wxyz,
                         dynamic_model_inputs),
       "dim hints", "002"},
      {def<DynamicModel>("dynamic_model_auto",
                         "DynamicModel with every dim Dim.AUTO: w [s, 5], x [s2], y [s3, s2], z [s2*s3].", wxyz,
                         dynamic_model_inputs, kAuto),
       "dim hints", "002"},
      {def<DynamicModel>("dynamic_model_dynamic_error",
                         "DynamicModel with w: (AUTO, DYNAMIC): the Linear specializes w.shape[1] to 5, which "
                         "Dim.DYNAMIC forbids.",
                         wxyz, dynamic_model_inputs, kAutoWDynamic),
       "dim hints", "002", "constraint"},
      {def<DynamicModel>("dynamic_model_static_dynamic_conflict",
                         "DynamicModel with x: (STATIC,), y: (AUTO, DYNAMIC): x + y makes y.shape[1] == 4.", wxyz,
                         dynamic_model_inputs, kStaticDynamicConflict),
       "dim hints", "002", "constraint"},
      {def<DynamicModelV2>("dynamic_model_v2_auto",
                           "DynamicModelV2 (assert, torch._check, if on sizes) with every dim Dim.AUTO: w.shape[0] "
                           "becomes s + 2 and the ranges get bounds.",
                           wxyz, dynamic_model_inputs, kAuto),
       "dim hints", "002"},
      {def<LinearOnly>("linear_batch1",
                       "nn.Linear(4, 3) on randn(1, 4) with input: (AUTO, STATIC): 0/1 specialization makes dim 0 the "
                       "constant 1.",
                       {"input"}, random_inputs({{1, 4}}), kLinearBatch1),
       "dim hints", "002"},
      {def<NamedDims2dx>("named_dims_2dx", "Named Dims x: (dx in [4, 256], None), y: (2 * dx, dh <= 512).", {"x", "y"},
                         random_inputs({{8, 3}, {16, 5}}), kNamed2dx),
       "named dims", "002", "ok", "The tutorial gives only the spec; the model is the oracle's."},
      {def<NamedDims4dx>("named_dims_4dx", "Named Dims x: (4 * dx, None), dx in [4, 512].", {"x"},
                         random_inputs({{32, 3}}), kNamed4dx),
       "named dims", "002", "ok", "The tutorial gives only the spec; the model is the oracle's."},
      {def<FooConstraintViolation>("foo_constraint_violation",
                                   "Foo (x + y + ones(4)) with x: (dx, d1), y: (dy, d1): the model needs dx == dy and "
                                   "d1 == 4; the error holds the suggested fixes.",
                                   {"x", "y"}, random_inputs({{6, 4}, {6, 4}}), kFoo),
       "named dims", "002", "constraint"},
  };
}

}  // namespace exportlens::trace::gallery
