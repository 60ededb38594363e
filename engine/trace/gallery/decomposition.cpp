// IR / decompositions (seed 002): DecompExample, Conv2d + BatchNorm2d in
// training mode (the training IR keeps aten.conv2d, aten.batch_norm and the
// in-place num_batches_tracked.add_(1)) and in eval mode; the decomposition
// oracle's transformer block and small CNN (tests/oracle/decomp_cases.py).
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

/// decomp_cases.py's TransformerBlock: pre-norm block, causal attention, GELU MLP, softmax.
struct TransformerBlock : torch::nn::Module {
  static constexpr int64_t d = 16, heads = 2;
  el::LayerNorm ln1{this, "ln1", d};
  el::Linear qkv{this, "qkv", d, 3 * d};
  el::Linear proj{this, "proj", d, d};
  el::LayerNorm ln2{this, "ln2", d};
  el::Linear fc1{this, "fc1", d, 4 * d};
  el::Linear fc2{this, "fc2", 4 * d, d};

  torch::Tensor attend(const torch::Tensor& x) {
    const auto B = x.sym_size(0), T = x.sym_size(1), C = x.sym_size(2);  // B, T, C = x.shape
    const auto parts = qkv(ln1(x)).split_symint(C, 2);
    auto heads_of = [&](const torch::Tensor& t) {  // t.view(B, T, heads, C // heads).transpose(1, 2)
      return t.view_symint({B, T, heads, C / heads}).transpose(1, 2);
    };
    const auto q = heads_of(parts[0]), k = heads_of(parts[1]), v = heads_of(parts[2]);
    auto a = at::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true);
    a = a.transpose(1, 2).contiguous().view_symint({B, T, C});
    return x + torch::dropout(proj(a), 0.1, is_training());  // self.drop = Dropout(0.1)
  }

  torch::Tensor forward(torch::Tensor x) {
    x = attend(x);
    x = x + fc2(torch::gelu(fc1(ln2(x))));
    return torch::softmax(x, -1);
  }
};

/// decomp_cases.py's SmallCNN: conv, batch norm, relu, max pool, conv, relu, avg pool, adaptive pool, linear.
struct SmallCNN : torch::nn::Module {
  el::Conv2d conv1{this, "conv1", 3, 8, 3, 1, 1};
  el::BatchNorm2d bn1{this, "bn1", 8};
  el::Conv2d conv2{this, "conv2", 8, 16, 3};
  el::Linear fc{this, "fc", 16, 10};

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(bn1(conv1(x))), {2, 2}, {2, 2});  // MaxPool2d(2)
    x = torch::avg_pool2d(torch::relu(conv2(x)), {2, 2}, {2, 2});        // AvgPool2d(2)
    x = torch::flatten(torch::adaptive_avg_pool2d(x, {1, 1}), 1);        // AdaptiveAvgPool2d((1, 1))
    return fc(x);
  }
};

/// `d` with the module switched to eval mode (Python's model.eval()) or train mode.
sdk::ModelDef in_mode(sdk::ModelDef d, bool training) {
  d.make = [make = d.make, training] {
    auto m = make();
    m->train(training);
    return m;
  };
  return d;
}

}  // namespace

std::vector<Example> decomposition_examples() {
  return {
      {def<DecompExample>("decomp_example",
                          "DecompExample: Conv2d(1, 3, 1, 1) + BatchNorm2d(3) in training mode (export_for_training "
                          "/ the default training IR).",
                          {"x"}, random_inputs({{1, 1, 3, 3}})),
       "decompositions", "002"},
      {in_mode(def<DecompExample>("decomp_example_eval",
                                  "DecompExample in eval mode: aten.batch_norm with training=False, nothing is "
                                  "mutated.",
                                  {"x"}, random_inputs({{1, 1, 3, 3}})),
               false),
       "decompositions", "002"},
      {in_mode(def<TransformerBlock>("transformer_block",
                                     "A pre-norm transformer block in eval mode: layer norm, causal "
                                     "scaled_dot_product_attention, dropout, GELU MLP, softmax.",
                                     {"x"}, random_inputs({{2, 5, 16}})),
               false),
       "decompositions", "002"},
      {in_mode(def<SmallCNN>("small_cnn",
                             "A small CNN in eval mode: conv2d, batch norm, relu, max_pool2d, avg_pool2d, "
                             "adaptive_avg_pool2d, flatten, linear.",
                             {"x"}, random_inputs({{2, 3, 16, 16}})),
               false),
       "decompositions", "002"},
      {in_mode(def<SmallCNN>("small_cnn_train",
                             "The small CNN in train mode: batch norm updates its running statistics.", {"x"},
                             random_inputs({{2, 3, 16, 16}})),
               true),
       "decompositions", "002"},
  };
}

}  // namespace exportlens::trace::gallery
