// IR / decompositions (seed 002): DecompExample, Conv2d + BatchNorm2d in
// training mode; the training IR keeps aten.conv2d, aten.batch_norm and the
// in-place num_batches_tracked.add_(1).
#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

namespace {

namespace el = exportlens::sdk;

struct DecompExample : torch::nn::Module {
  el::Conv2d conv{this, "conv", 1, 3, 1, 1};
  el::BatchNorm2d bn{this, "bn", 3};

  std::tuple<torch::Tensor> forward(torch::Tensor x) {
    x = conv(x);
    x = bn(x);
    return {x};
  }
};

}  // namespace

std::vector<Example> decomposition_examples() {
  return {
      {def<DecompExample>("decomp_example",
                          "DecompExample: Conv2d(1, 3, 1, 1) + BatchNorm2d(3) in training mode (export_for_training "
                          "/ the default training IR).",
                          {"x"}, [] { return el::Inputs{torch::randn({1, 1, 3, 3})}; }),
       "decompositions", "002", "ok", "decomp_example", ""},
  };
}

}  // namespace exportlens::trace::gallery
