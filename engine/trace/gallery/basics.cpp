// Basic usage (seeds 000/002), the book's model (003), and the Linear
// modules of the decompositions and "running the exported program" sections.
#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

namespace {

namespace el = exportlens::sdk;

struct MyModule : torch::nn::Module {
  el::Linear lin{this, "lin", 100, 10};

  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    return lin(x + y).relu_();  // torch.nn.functional.relu(self.lin(x + y), inplace=True)
  }
};

struct BookMLP : torch::nn::Module {
  el::Linear fc1{this, "fc1", 10, 5};
  el::ReLU relu{this, "relu"};
  el::Linear fc2{this, "fc2", 5, 2};

  torch::Tensor forward(torch::Tensor x) {
    x = fc1(x);
    x = relu(x);
    x = fc2(x);
    return x;
  }
};

template <int In, int Out>
struct MLinear : torch::nn::Module {
  el::Linear linear{this, "linear", In, Out};

  torch::Tensor forward(torch::Tensor x) {
    x = linear(x);
    return x;
  }
};

}  // namespace

std::vector<Example> basic_examples() {
  return {
      {def<MyModule>("my_module",
                     "MyModule: relu(lin(x + y), inplace=True) with Linear(100, 10); the in-place relu stays "
                     "aten.relu_ in the training IR.",
                     {"x", "y"}, random_inputs({{8, 100}, {8, 100}})),
       "basics", "000"},
      {def<BookMLP>("book_mlp", "The book's model: Linear(10, 5) -> ReLU -> Linear(5, 2) on randn(2, 10).", {"x"},
                    random_inputs({{2, 10}})),
       "basics", "003"},
      {def<MLinear<3, 4>>("m_linear", "M with Linear(3, 4) (the decompositions example), input randn(2, 3).", {"x"},
                          random_inputs({{2, 3}})),
       "basics", "000"},
      {def<MLinear<3, 3>>("m_linear3",
                          "M with Linear(3, 3) (running the exported program), on the CPU, input randn(2, 3).",
                          {"x"}, random_inputs({{2, 3}})),
       "basics", "000"},
  };
}

}  // namespace exportlens::trace::gallery
