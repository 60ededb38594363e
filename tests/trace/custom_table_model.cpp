// The seed's custom decomposition table (seed 002, "IR/Decompositions":
// my_awesome_custom_conv2d_function) written through the SDK: the default
// table with conv2d lowered to 2 * convolution.
#include "exportlens_sdk.h"
namespace el = exportlens::sdk;

EXPORTLENS_DECOMPOSITIONS("my_double_conv2d", "conv2d lowered to 2 * convolution")
    .rule("aten.conv2d.default", [](const el::OpArgs& a) -> torch::Tensor {
      // conv2d(input, weight, bias, stride, padding, dilation, groups)
      return 2 * at::convolution(a.tensor(0), a.tensor(1), a.optional_tensor(2), a.ints(3), a.ints(4), a.ints(5),
                                 /*transposed=*/false, /*output_padding=*/{0, 0}, a.integer(6));
    });

// A rule that fails: ExportLens keeps the op and says why.
EXPORTLENS_DECOMPOSITIONS("broken_conv2d", "a conv2d rule that throws")
    .rule("aten.conv2d.default", [](const el::OpArgs&) -> torch::Tensor {
      throw std::runtime_error("this rule always fails");
    });
