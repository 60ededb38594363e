#include "exportlens_sdk.h"
namespace el = exportlens::sdk;

struct Net : torch::nn::Module {
  el::Linear fc1{this, "fc1", 10, 5}, fc2{this, "fc2", 5, 2};
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
};
EXPORTLENS_MODEL(Net, "net").inputs({"x"}, [] { return el::Inputs{torch::randn({2, 10})}; })
    .dynamic_shapes("dynamic_shapes = {'x': (Dim.AUTO, None)}");
