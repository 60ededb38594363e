#include "engine/runtime/additional_inputs.h"

#include "engine/runtime/program_runner.h"

#include <map>

namespace exportlens::runtime {

InputsFile read_inputs_file(const std::filesystem::path& path) {
  InputsFile f;
  f.path = path;
  std::vector<ValueSummary> values;
  f.inputs = describe_inputs_file(path, &values);
  for (const auto& v : values) f.texts.push_back(v.text);
  return f;
}

// The forward() argument names (what a dict spec is keyed by), else the placeholders'.
std::vector<std::string> user_input_names(const ir::ExportedProgram& ep) {
  std::vector<std::string> names;
  for (const auto* spec : ep.signature.user_inputs()) names.push_back(spec->arg.name);
  for (const auto& entry : ep.module_call_graph)
    if (entry.fqn.empty() && entry.forward_arg_names.size() == names.size()) return entry.forward_arg_names;
  return names;
}

symbolic::ExampleSet program_examples(const ir::ExportedProgram& ep) {
  symbolic::ExampleSet set;
  const auto names = user_input_names(ep);
  for (const auto* spec : ep.signature.user_inputs()) {
    symbolic::ArgumentExample a;
    a.name = names[set.size()];
    const ir::Node* n = ep.graph().find(spec->arg.name);
    if (spec->arg.type == ir::SpecArgument::Type::Constant) {
      if (const auto* i = std::get_if<int64_t>(&spec->arg.constant.v)) {
        a.kind = symbolic::ArgumentExample::Kind::Int;
        a.value = *i;
      } else {
        a.kind = symbolic::ArgumentExample::Kind::Other;
      }
    } else if (const ir::TensorMeta* t = n ? n->value.tensor() : nullptr) {
      for (const auto& s : t->sizes) {
        if (!s.hint) throw std::runtime_error("input '" + a.name + "' has a size without an example value (" + s.str() + ")");
        a.sizes.push_back(*s.hint);
      }
    } else if (const ir::SymInt* s = n ? n->value.sym_int() : nullptr; s && s->hint) {
      a.kind = symbolic::ArgumentExample::Kind::Int;
      a.value = *s->hint;
    } else {
      a.kind = symbolic::ArgumentExample::Kind::Other;
    }
    set.push_back(std::move(a));
  }
  return set;
}

symbolic::ExampleSet file_examples(const InputsFile& file, const std::vector<std::string>& names) {
  symbolic::ExampleSet set;
  for (size_t i = 0; i < file.inputs.size(); ++i) {
    symbolic::ArgumentExample a;
    a.name = i < names.size() ? names[i] : "arg" + std::to_string(i);
    const auto& d = file.inputs[i];
    if (d.is_tensor) {
      a.sizes = d.sizes;
    } else if (d.int_value) {
      a.kind = symbolic::ArgumentExample::Kind::Int;
      a.value = *d.int_value;
    } else {
      a.kind = symbolic::ArgumentExample::Kind::Other;
      a.text = file.texts[i];
    }
    set.push_back(std::move(a));
  }
  return set;
}

// Only what check_inputs reads: the signature, one placeholder per input (the
// user inputs with their solved sizes) and the solved range constraints.
ir::ExportedProgram with_solved_inputs(const ir::ExportedProgram& ep, const ops::SolveResult& solved) {
  ir::ExportedProgram out;
  out.signature = ep.signature;
  // The solve names inputs by forward() argument; the placeholders may be named otherwise.
  std::map<std::string, std::string> argument_of;
  const auto names = user_input_names(ep);
  const auto users = ep.signature.user_inputs();
  for (size_t i = 0; i < users.size() && i < names.size(); ++i) argument_of[users[i]->arg.name] = names[i];
  for (const auto& spec : ep.signature.inputs) {
    const ir::Node* original = ep.graph().find(spec.arg.name);
    auto n = std::make_unique<ir::Node>();
    n->op = ir::OpKind::Placeholder;
    n->name = spec.arg.name;
    if (original) n->value = original->value;
    if (auto* t = std::get_if<ir::TensorMeta>(&n->value.v))
      for (const auto& shape : solved.input_shapes)
        if (shape.is_tensor && shape.name == argument_of[spec.arg.name] && shape.dims.size() == t->sizes.size())
          for (size_t d = 0; d < shape.dims.size(); ++d)
            t->sizes[d] = ir::SymInt(symbolic::Expr::parse(shape.dims[d]), t->sizes[d].hint);
    out.graph().append(std::move(n));
  }
  auto bound = [](const std::string& s) {
    return s == "int_oo" ? symbolic::Expr::infinity(false) : s == "-int_oo" ? symbolic::Expr::infinity(true)
                                                                             : symbolic::Expr::parse(s);
  };
  for (const auto& r : solved.range_constraints)
    out.range_constraints.entries.emplace_back(symbolic::Expr::parse(r.expr), ir::ValueRange{bound(r.lower), bound(r.upper)});
  return out;
}

std::vector<std::string> verify_inputs(const ir::ExportedProgram& ep, const std::vector<InputsFile>& files) {
  std::vector<std::string> problems;
  for (const auto& f : files) {
    const InputCheckResult r = check_inputs(ep, f.inputs);
    if (!r.ok()) {
      std::string why = r.message();
      for (char& c : why)
        if (c == '\n') c = ';';
      problems.push_back(f.path.string() + ": " + why);
    }
  }
  return problems;
}

}  // namespace exportlens::runtime
