// Data-dependent values (seed 002): item() / tolist() as unbacked symbols,
// guards that need them (errors), torch._check refining their ranges,
// indexing and repeat with them, and int() of one (specialization error).
#include "engine/trace/gallery/gallery.h"

namespace exportlens::trace::gallery {

namespace {

namespace el = exportlens::sdk;

struct FooItemToList : torch::nn::Module {
  std::vector<c10::SymInt> forward(torch::Tensor x, torch::Tensor y) {
    auto a = el::item_int(x);  // a = x.item()
    auto b = el::tolist(y);    // b = y.tolist()
    b.push_back(a);            // return b + [a]
    return b;
  }
};

struct FooDataDependentBranch : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto a = el::item_int(x);
    if (a / 2 >= 5) {  // if a // 2 >= 5:
      return y + 2;
    } else {
      return y * 5;
    }
  }
};

struct FooDataDependentBranchChecked : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto a = el::item_int(x);
    el::check(el::sym(a) >= 10);  // torch._check(a >= 10)
    el::check(el::sym(a) <= 60);  // torch._check(a <= 60)
    if (a / 2 >= 5) {
      return y + 2;
    } else {
      return y * 5;
    }
  }
};

struct FooItemIndex : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto a = el::item_int(x);
    return el::index(y, {a});  // y[a]
  }
};

struct FooItemIndexChecked : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto a = el::item_int(x);
    el::check(el::sym(a) >= 0);               // torch._check(a >= 0)
    el::check(el::sym(a) < y.sym_size(0));    // torch._check(a < y.shape[0])
    return el::index(y, {a});
  }
};

struct FooItemIntCast : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto a = el::item_int(x);
    const int64_t n = a.guard_int(__FILE__, __LINE__);  // range(a) / int(a): a plain integer
    std::vector<torch::Tensor> parts(size_t(n), y);
    auto b = torch::cat(parts, 0);
    return b + n;
  }
};

struct FooItemRepeat : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    auto a = el::item_int(x);
    auto b = y.unsqueeze(0).repeat_symint({a, 1});  // y.unsqueeze(0).repeat(a, 1)
    return b + a;
  }
};

el::Inputs item_inputs() { return {torch::tensor(int64_t{32}), torch::randn({60})}; }
el::Inputs branch_inputs() { return {torch::tensor(int64_t{32}), torch::randn({4})}; }

}  // namespace

std::vector<Example> data_dependent_examples() {
  return {
      {def<FooItemToList>("unbacked_item_tolist",
                          "a = x.item(), b = y.tolist(), return b + [a]: three unbacked symbols u0..u2 are returned.",
                          {"x", "y"}, [] { return el::Inputs{torch::tensor(int64_t{1}), torch::tensor({2, 3})}; }),
       "data-dependent", "002"},
      {def<FooDataDependentBranch>("data_dependent_branch",
                                   "if a // 2 >= 5 on a = x.item() without checks: could not guard on a "
                                   "data-dependent expression.",
                                   {"x", "y"}, branch_inputs),
       "data-dependent", "002", "data_dependent"},
      {def<FooDataDependentBranchChecked>("data_dependent_branch_checked",
                                          "check(a >= 10) and check(a <= 60) before if a // 2 >= 5: exports, u0 in "
                                          "[10, 60].",
                                          {"x", "y"}, branch_inputs),
       "data-dependent", "002"},
      {def<FooItemIndex>("item_index_unchecked", "y[a] with a = x.item() and no checks.", {"x", "y"}, item_inputs),
       "data-dependent", "002", "ok",
       "LibTorch's C++ indexing checks the index against the size (expect_true), which the tracer turns into "
       "runtime asserts; torch 2.13's Python indexing adds none."},
      {def<FooItemIndexChecked>("item_index_checked",
                                "check(a >= 0), check(a < y.shape[0]) then y[a]: exports, u0 in [0, 59].", {"x", "y"},
                                item_inputs),
       "data-dependent", "002"},
      {def<FooItemIntCast>("item_int_cast",
                           "torch.cat over range(a) and int(a) on a = x.item(): could not extract a specialized "
                           "integer from a data-dependent expression.",
                           {"x", "y"}, item_inputs),
       "data-dependent", "002", "data_dependent"},
      {def<FooItemRepeat>("item_repeat", "y.unsqueeze(0).repeat(a, 1) + a: exports with an unbacked size u0 >= 0.",
                          {"x", "y"}, item_inputs),
       "data-dependent", "002"},
  };
}

}  // namespace exportlens::trace::gallery
