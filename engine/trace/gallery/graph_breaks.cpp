// "Graph breaks" and "non-strict export" (seed 000): Bad1-Bad4, strict and
// non-strict. C++ has no bytecode analysis, so "strict" can only differ where
// the tracer itself sees the difference (see each example's notes).
#include <cstdint>
#include <stdexcept>

#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

namespace {

struct Bad1 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if ((x.sum() > 0).item<bool>()) {  // if x.sum() > 0:
      return torch::sin(x);
    }
    return torch::cos(x);
  }
};

struct Bad2 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    x.data()[0][0] = 3;  // x.data[0, 0] = 3
    return x;
  }
};

struct Bad3 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    x = x + 1;
    return x + static_cast<int64_t>(reinterpret_cast<intptr_t>(x.unsafeGetTensorImpl()));  // x + id(x)
  }
};

struct Bad4 : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    try {
      x = x + 1;
      throw std::runtime_error("bad");
    } catch (...) {
      x = x + 2;
    }
    return x;
  }
};

const char* kBad1 = "Bad1: `if (x.sum() > 0)` on the tensor's value: data-dependent control flow fails export.";
const char* kBad2 = "Bad2: x.data()[0][0] = 3 writes through .data.";
const char* kBad3 = "Bad3: x + id(x) (here: the TensorImpl's address).";
const char* kBad4 = "Bad4: try { x + 1; throw } catch (...) { x + 2 }: traced through, exports x + 1 + 2.";

}  // namespace

std::vector<Example> graph_break_examples() {
  const auto x33 = random_inputs({{3, 3}});
  return {
      {def<Bad1>("bad1_strict", std::string(kBad1) + " strict=True: Dynamo's \"dynamic control flow\" error.", {"x"},
                 x33, "", true),
       "graph breaks", "000", "dynamic_control_flow"},
      {def<Bad1>("bad1_nonstrict",
                 std::string(kBad1) + " strict=False: could not guard on data-dependent expression Eq(u0, 1).", {"x"},
                 x33),
       "graph breaks", "000", "data_dependent"},
      {def<Bad2>("bad2_strict", std::string(kBad2) + " strict=True.", {"x"}, x33, "", true), "graph breaks", "000",
       "ok",
       "Differs from torch 2.13: torch lifts the .data write to a constant copy (the program returns x unchanged); "
       "the C++ tracer records select, select, fill_ on x itself (the program writes x[0, 0] like eager code)."},
      {def<Bad2>("bad2_nonstrict", std::string(kBad2) + " strict=False.", {"x"}, x33), "graph breaks", "000", "ok",
       "Differs from torch 2.13, which fails ('We found a fake tensor in the exported program constant's list'); "
       "the C++ tracer exports select, select, fill_ on x."},
      {def<Bad3>("bad3_strict", std::string(kBad3) + " strict=True.", {"x"}, x33, "", true), "graph breaks", "000",
       "ok",
       "Differs from torch 2.13: Dynamo rejects id(); C++ has no bytecode analysis, so the address is an int "
       "constant in the graph in strict mode too."},
      {def<Bad3>("bad3_nonstrict", std::string(kBad3) + " strict=False: the address is an int constant in the graph.",
                 {"x"}, x33),
       "graph breaks", "000"},
      {def<Bad4>("bad4_strict", std::string(kBad4) + " strict=True.", {"x"}, x33, "", true), "graph breaks", "000"},
      {def<Bad4>("bad4_nonstrict", std::string(kBad4) + " strict=False.", {"x"}, x33), "graph breaks", "000"},
  };
}

}  // namespace exportlens::trace::gallery
