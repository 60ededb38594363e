// The C++ kernels of the corpus' Python-defined custom ops
// (tests/oracle/corpus_programs.py), registered under the same schema as the
// user would load their op library next to a program (the runtime's "load the
// library that defines it"): with them the corpus runs its custom-op programs,
// the exported one (the call mutates the buffer in place) and the lowered one
// (auto_functionalized_v2 runs the op on a copy of the buffer), against torch.
#include <torch/library.h>

namespace {

// exportlens_corpus::scale_: state *= factor (corpus_programs.scale_).
void scale_(at::Tensor state, double factor) { state.mul_(factor); }

// exportlens_corpus::accumulate_: each total += x.sum(0) * weight; returns x * weight (corpus_programs.accumulate_).
at::Tensor accumulate_(at::TensorList totals, const at::Tensor& x, double weight) {
  for (const at::Tensor& t : totals) const_cast<at::Tensor&>(t).add_(x.sum(0).mul(weight));
  return x.mul(weight);
}

}  // namespace

TORCH_LIBRARY(exportlens_corpus, m) {
  m.def("scale_(Tensor(a0!) state, float factor) -> ()");
  m.def("accumulate_(Tensor(a0!)[] totals, Tensor x, float weight=1.) -> Tensor");
}
TORCH_LIBRARY_IMPL(exportlens_corpus, CompositeExplicitAutograd, m) {
  m.impl("scale_", &scale_);
  m.impl("accumulate_", &accumulate_);
}
