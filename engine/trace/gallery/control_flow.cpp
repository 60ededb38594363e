// Control flow ops (seeds 000/002): torch.cond (Bad1Fixed) and torch.map
// (MapModule), plus the restrictions torch.cond enforces.
#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

namespace {

namespace el = exportlens::sdk;

struct Bad1Fixed : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto true_fn = [](torch::Tensor x) { return torch::sin(x); };
    auto false_fn = [](torch::Tensor x) { return torch::cos(x); };
    return el::cond(x.sum() > 0, true_fn, false_fn, {x});
  }
};

struct MapModule : torch::nn::Module {
  torch::Tensor forward(torch::Tensor xs, torch::Tensor y, torch::Tensor z) {
    auto body = [](torch::Tensor x, torch::Tensor y, torch::Tensor z) { return x + y + z; };
    return el::map(body, xs, {y, z});
  }
};

/// Not in the seeds: a branch reading a tensor it was not given (torch.cond's closure restriction).
struct CondClosure : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    return el::cond(x.sum() > 0, [&](torch::Tensor a) { return a + y; }, [](torch::Tensor a) { return a - 1; }, {x});
  }
};

/// Not in the seeds: branches returning different shapes.
struct CondShapeMismatch : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return el::cond(x.sum() > 0, [](torch::Tensor a) { return a; }, [](torch::Tensor a) { return a.sum(0); }, {x});
  }
};

}  // namespace

std::vector<Example> control_flow_examples() {
  return {
      {def<Bad1Fixed>("bad1_fixed",
                      "Bad1Fixed: cond(x.sum() > 0, sin, cos, {x}); both branches become subgraphs "
                      "(true_graph_0, false_graph_0).",
                      {"x"}, random_inputs({{3, 3}})),
       "control flow", "002"},
      {def<MapModule>("map_module", "MapModule: map(body, xs, y, z) with body(x, y, z) = x + y + z over xs (6, 4).",
                      {"xs", "y", "z"},
                      [] { return el::Inputs{torch::ones({6, 4}), torch::tensor(int64_t{5}), torch::tensor(int64_t{4})}; }),
       "control flow", "002"},
      {def<CondClosure>("cond_closure",
                        "A cond branch that reads a tensor outside its operands: refused with a clear error.",
                        {"x", "y"}, random_inputs({{3}, {3}})),
       "control flow", "", "unsupported",
       "Not in the tutorials. torch 2.13 lifts such closures into extra operands; the C++ tracer asks for them as "
       "operands.",
       /*oracle=*/""},
      {def<CondShapeMismatch>("cond_shape_mismatch",
                              "cond branches that return tensors of different shapes: refused.", {"x"},
                              random_inputs({{3, 3}})),
       "control flow", "", "unsupported", "Not in the tutorials (their stated restriction on cond).", /*oracle=*/""},
  };
}

}  // namespace exportlens::trace::gallery
