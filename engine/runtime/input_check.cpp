#include "engine/runtime/input_check.h"

namespace exportlens::runtime {
namespace {

using symbolic::Expr;

std::string size_source(const std::string& input, size_t dim) {
  return input + ".size()[" + std::to_string(dim) + "]";
}

// Writes an expression over symbols in terms of the input dims they came from.
std::string describe(const Expr& e, const std::map<std::string, std::string>& sources) {
  std::map<std::string, Expr> subst;
  for (const auto& s : e.free_symbols()) {
    auto it = sources.find(s);
    if (it != sources.end()) subst[s] = Expr::symbol(it->second);
  }
  return e.substitute(subst).str();
}

struct Checker {
  const ir::ExportedProgram& ep;
  InputCheckResult result;
  std::map<std::string, std::string> sources;  // symbol -> "x.size()[0]"

  void fail(std::string msg) { result.errors.push_back(std::move(msg)); }

  // Pass 1: plain symbols take their value from the first dim that has them.
  void bind(const std::string& name, const ir::TensorMeta& meta, const std::vector<int64_t>& sizes) {
    for (size_t d = 0; d < meta.sizes.size() && d < sizes.size(); ++d) {
      const auto& e = meta.sizes[d].expr;
      if (e.is_symbol() && !result.symbol_values.count(e.symbol_name())) {
        result.symbol_values[e.symbol_name()] = sizes[d];
        sources[e.symbol_name()] = size_source(name, d);
      }
    }
  }

  // Pass 2: every dim must equal its expression under the bound symbols.
  void check_sizes(const std::string& name, const ir::TensorMeta& meta, const std::vector<int64_t>& sizes) {
    for (size_t d = 0; d < meta.sizes.size(); ++d) {
      const auto& e = meta.sizes[d].expr;
      const auto expected = e.evaluate(result.symbol_values);
      if (!expected) continue;  // a symbol bound nowhere (cannot happen for well-formed programs)
      if (*expected != sizes[d]) {
        if (e.is_integer()) {
          fail("Guard failed: " + size_source(name, d) + " == " + std::to_string(*expected) + " (got " +
               std::to_string(sizes[d]) + ")");
        } else {
          fail("Guard failed: " + size_source(name, d) + " == " + describe(e, sources) + " (got " +
               std::to_string(sizes[d]) + ", expected " + std::to_string(*expected) + ")");
        }
      }
    }
  }

  void check_ranges() {
    for (const auto& [key, range] : ep.range_constraints.entries) {
      const auto v = key.evaluate(result.symbol_values);
      if (!v) continue;  // unbacked symbols are checked by the graph's own asserts
      const std::string what = describe(key, sources);
      // As torch's _check_symint: dims may be 0 or 1 at run time, so a lower bound of 2 (or less) is not checked.
      if (auto lo = range.lower.as_integer(); lo && *lo > 2 && *v < *lo)
        fail("Guard failed: " + what + " >= " + std::to_string(*lo) + " (got " + std::to_string(*v) + ")");
      if (auto hi = range.upper.as_integer(); hi && *v > *hi)
        fail("Guard failed: " + what + " <= " + std::to_string(*hi) + " (got " + std::to_string(*v) + ")");
    }
  }
};

}  // namespace

std::string InputCheckResult::message() const {
  std::string out;
  for (const auto& e : errors) out += (out.empty() ? "" : "\n") + e;
  return out;
}

InputCheckResult check_inputs(const ir::ExportedProgram& ep, const std::vector<InputDescription>& inputs) {
  Checker c{ep, {}, {}};
  const auto user = ep.signature.user_inputs();
  if (inputs.size() != user.size()) {
    c.fail("Expected " + std::to_string(user.size()) + " inputs, got " + std::to_string(inputs.size()));
    return c.result;
  }
  struct TensorInput {
    std::string name;
    const ir::TensorMeta* meta;
    const InputDescription* given;
  };
  std::vector<TensorInput> tensors;
  for (size_t i = 0; i < user.size(); ++i) {
    const auto& spec = *user[i];
    const auto& given = inputs[i];
    const ir::Node* ph = ep.graph().find(spec.arg.name);
    const ir::TensorMeta* meta = ph ? ph->value.tensor() : nullptr;
    const std::string where = "input " + std::to_string(i) + " ('" + spec.arg.name + "')";
    if (!meta) {
      if (given.is_tensor && spec.arg.type == ir::SpecArgument::Type::Constant)
        c.fail(where + ": expected a constant, got a tensor");
      continue;
    }
    if (!given.is_tensor) {
      c.fail(where + ": expected a tensor, got a non-tensor value");
      continue;
    }
    if (given.dtype != meta->dtype) {
      c.fail(where + ": expected dtype " + std::string(ir::torch_name(meta->dtype)) + ", got " +
             std::string(ir::torch_name(given.dtype)));
    }
    if (given.sizes.size() != meta->sizes.size()) {
      c.fail(where + ": expected a tensor of rank " + std::to_string(meta->sizes.size()) + " (" +
             meta->annotation() + "), got rank " + std::to_string(given.sizes.size()));
      continue;
    }
    tensors.push_back({spec.arg.name, meta, &given});
  }
  for (const auto& t : tensors) c.bind(t.name, *t.meta, t.given->sizes);
  for (const auto& t : tensors) c.check_sizes(t.name, *t.meta, t.given->sizes);
  c.check_ranges();
  return c.result;
}

}  // namespace exportlens::runtime
