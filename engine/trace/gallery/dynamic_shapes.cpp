// Dynamic shapes with named Dims (seed 000): min/max, shared Dims, derived
// Dims, and the suggested-fixes round trip of DynamicShapesExample3.
#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

namespace {

namespace el = exportlens::sdk;
using el::None;
using el::Slice;

struct DynamicShapesExample1 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    x = el::index(x, {Slice(), Slice(2, None)});  // x[:, 2:]
    return torch::relu(x);
  }
};

struct DynamicShapesExample2 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) { return x.matmul(y); }  // x @ y
};

struct DerivedDimExample1 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) { return x + el::index(y, {Slice(1, None)}); }
};

struct DerivedDimExample2 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor z, torch::Tensor y) {
    auto head = el::index(z, {Slice(1, None)});      // z[1:]  (C++ leaves the order of + operands open)
    auto strided = el::index(y, {Slice(1, None, 3)});  // y[1::3]
    return head + strided;
  }
};

struct DynamicShapesExample3 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    if (x.sym_size(0) <= 16) {  // if x.shape[0] <= 16:
      return x.matmul(el::index(y, {Slice(), Slice(None, 16)}));
    }
    return y;
  }
};

const char* kExample1 = R"(inp1_dim0 = Dim("inp1_dim0")
inp1_dim1 = Dim("inp1_dim1", min=4, max=18)
dynamic_shapes = {
    "x": {0: inp1_dim0, 1: inp1_dim1},
}
)";

const char* kExample1Bad = R"(inp1_dim0 = Dim("inp1_dim0")
inp1_dim1_bad = Dim("inp1_dim1_bad", min=11, max=18)
dynamic_shapes = {
    "x": {0: inp1_dim0, 1: inp1_dim1_bad},
}
)";

const char* kExample2 = R"(inp2_dim0 = Dim("inp2_dim0")
inner_dim = Dim("inner_dim")
inp3_dim1 = Dim("inp3_dim1")
dynamic_shapes = {
    "x": {0: inp2_dim0, 1: inner_dim},
    "y": {0: inner_dim, 1: inp3_dim1},
}
)";

// The seed builds these with {i: Dim(f"inp4_dim{i}") for i in range(inp4.dim())}.
const char* kExample3 = R"(dynamic_shapes = {
    "x": {0: Dim("inp4_dim0"), 1: Dim("inp4_dim1")},
    "y": {0: Dim("inp5_dim0"), 1: Dim("inp5_dim1")},
}
)";

// The seed's suggested_fixes() spec.
const char* kExample3Fixed = R"(inp4_dim1 = Dim('shared_dim')
# suggested fixes below
inp4_dim0 = Dim('inp4_dim0', max=16)
inp5_dim1 = Dim('inp5_dim1', min=17)
inp5_dim0 = inp4_dim1
# end of suggested fixes
dynamic_shapes = {
    "x": {0: inp4_dim0, 1: inp4_dim1},
    "y": {0: inp5_dim0, 1: inp5_dim1},
}
)";

const char* kDerived1 = R"(dimx = Dim("dimx", min=3, max=6)
dimy = dimx + 1
dynamic_shapes = ({0: dimx}, {0: dimy})
)";

const char* kDerived2 = R"(dx = Dim("dx", min=3, max=6)
dz = dx + 1
dy = dx * 3 + 1
dynamic_shapes = ({0: dz}, {0: dy})
)";

}  // namespace

std::vector<Example> dynamic_shape_examples() {
  const auto inputs1 = random_inputs({{10, 10, 2}});
  const auto inputs3 = random_inputs({{8, 16}, {16, 32}});
  return {
      {def<DynamicShapesExample1>("dynamic_shapes_example1",
                                  "DynamicShapesExample1: x[:, 2:] then relu; dim 0 unbounded, dim 1 in [4, 18].",
                                  {"x"}, inputs1, kExample1),
       "dynamic shapes", "000"},
      {def<DynamicShapesExample1>("dynamic_shapes_example1_bad",
                                  "DynamicShapesExample1 with dim 1 in [11, 18] while the example has 10: the "
                                  "example input violates the spec.",
                                  {"x"}, inputs1, kExample1Bad),
       "dynamic shapes", "000", "constraint"},
      {def<DynamicShapesExample2>("dynamic_shapes_example2", "DynamicShapesExample2: x @ y with a shared inner_dim Dim.",
                                  {"x", "y"}, random_inputs({{4, 8}, {8, 2}}), kExample2),
       "dynamic shapes", "000"},
      {def<DynamicShapesExample3>("dynamic_shapes_example3_unfixed",
                                  "DynamicShapesExample3 (if x.shape[0] <= 16) with every dim a fresh Dim: constraint "
                                  "violations with suggested fixes.",
                                  {"x", "y"}, inputs3, kExample3),
       "dynamic shapes", "000", "constraint"},
      {def<DynamicShapesExample3>("dynamic_shapes_example3_fixed",
                                  "DynamicShapesExample3 with the tutorial's suggested_fixes() spec.", {"x", "y"}, inputs3,
                                  kExample3Fixed),
       "dynamic shapes", "000"},
      {def<DerivedDimExample1>("derived_dim_example1", "DerivedDimExample1: x + y[1:] with dimy = dimx + 1, dimx in [3, 6].",
                               {"x", "y"}, random_inputs({{5}, {6}}), kDerived1),
       "dynamic shapes", "000"},
      {def<DerivedDimExample2>("derived_dim_example2",
                               "DerivedDimExample2: z[1:] + y[1::3] with dz = dx + 1, dy = 3 * dx + 1, dx in [3, 6].",
                               {"z", "y"}, random_inputs({{4}, {10}}), kDerived2),
       "dynamic shapes", "000"},
  };
}

}  // namespace exportlens::trace::gallery
