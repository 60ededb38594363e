#pragma once
// One FX-style node: placeholder, call_function, get_attr or output.
#include <atomic>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/argument.h"
#include "engine/ir/value.h"

namespace exportlens::ir {

class Graph;

enum class OpKind { Placeholder, CallFunction, GetAttr, Output };
std::string_view op_kind_name(OpKind k);  // "placeholder", "call_function", ...

/// One entry of nn_module_stack: FX key, module path ("layers.0.fc"), class.
struct ModuleScope {
  std::string key;   // e.g. "L__self__l"
  std::string path;  // e.g. "l"
  std::string type;  // e.g. "torch.nn.modules.linear.Linear"
};

/// A source location parsed from the innermost stack-trace frame.
struct SourceLocation {
  std::string file;
  int line = 0;
  std::string function;
  std::string code;
};

/// One step of a node's lineage through the passes (functionalization,
/// decomposition): the node it was made from in the pass's input program.
struct NodeOrigin {
  std::string pass;    // "functionalize", "decompose"
  std::string node;    // that node's name
  std::string target;  // its op, "aten.linear.default" (empty for placeholders)
};

struct NodeMetadata {
  std::string stack_trace;                 // Python-style traceback text
  std::vector<ModuleScope> nn_module_stack;
  std::vector<std::pair<std::string, std::string>> source_fn_stack;  // (name, fn)
  std::string torch_fn;
  std::map<std::string, std::string> custom;  // anything else the file carried
  /// Set by passes: nearest origin first, the node of the program as exported last.
  std::vector<NodeOrigin> provenance;

  /// The innermost frame of the stack trace, if there is one.
  std::optional<SourceLocation> innermost_frame() const;
};

/// The callee of a call_function node. For torch ops the qualified name is
/// "torch.ops.<ns>.<name>.<overload>", parsed once into its parts, which the
/// accessors read without splitting the string again; other callables keep
/// their Python path ("_operator.getitem", "torch.ops.higher_order.cond",
/// "torch.sym_float").
class Target {
 public:
  Target() = default;
  explicit Target(std::string qualified);
  const std::string& qualified() const { return qualified_; }
  bool is_torch_op() const { return in_ops_ && !higher_order_; }  // torch.ops.<ns>.<name>.<overload>, not higher_order
  bool is_higher_order() const { return higher_order_; }            // torch.ops.higher_order.*
  bool is_getitem() const { return getitem_; }                      // operator.getitem
  std::string op_namespace() const;  // "aten"
  std::string op_name() const;       // "add"
  std::string overload() const;      // "Tensor" ("default" for the default overload)
  /// "aten::add.Tensor" / "aten::relu" (the dispatcher's name); empty for non-ops.
  std::string schema_name() const;
  /// "add.Tensor": short label for views.
  std::string short_name() const;
  friend bool operator==(const Target& a, const Target& b) { return a.qualified_ == b.qualified_; }

 private:
  std::string qualified_;
  bool in_ops_ = false, higher_order_ = false, getitem_ = false;
  // The op's parts in qualified_: namespace at 10 ("torch.ops."), then the
  // name, then the overload (none written: "default"); ns_len_ 0: not split.
  uint32_t ns_len_ = 0, name_len_ = 0;
  bool has_overload_ = false;
};

/// A node's operands are read through args() and kwargs() and changed only
/// through the setters, which keep the graph's use lists (users()) right, as
/// torch.fx's Node.args() setter and MLIR's operand setters do.
class Node {
 public:
  OpKind op = OpKind::CallFunction;
  std::string name;                 // unique in its graph
  Target target;                    // call_function only
  std::string attr;                 // get_attr: attribute path ("true_graph_0")
  ValueInfo value;                  // FX meta["val"]
  NodeMetadata meta;

  const std::vector<Argument>& args() const { return args_; }
  const std::vector<NamedArgument>& kwargs() const { return kwargs_; }
  void set_args(std::vector<Argument> args);
  void set_kwargs(std::vector<NamedArgument> kwargs);
  void set_inputs(std::vector<Argument> args, std::vector<NamedArgument> kwargs);
  /// Points every operand that reads `from` at `to` (fx's replace_input_with).
  void replace_input(Node* from, Node* to);

  Graph* graph() const { return graph_; }
  /// Nodes that take this one as an argument, in the order the uses were made.
  const std::vector<Node*>& users() const { return users_; }
  /// Calls f(Node*) for each node this one reads, args then kwargs.
  template <typename F>
  void for_each_input(F&& f) const {
    for (const auto& a : args_) a.for_each_node(f);
    for (const auto& k : kwargs_) k.value.for_each_node(f);
  }
  /// Position in its graph (0-based). Numbers are refreshed lazily: an
  /// insertion or removal marks them stale, the next call renumbers once.
  int index() const {
    // Inline: runs and passes ask for positions on every node they touch.
    if (order_stale_ && order_stale_->load(std::memory_order_acquire)) renumber_graph();
    return index_;
  }
  /// The node after / before this one in its graph (nullptr at the ends).
  Node* next() const;
  Node* prev() const;

 private:
  friend class Graph;
  void add_uses();
  void remove_uses();
  std::vector<Argument> args_;
  std::vector<NamedArgument> kwargs_;
  void renumber_graph() const;
  Graph* graph_ = nullptr;
  const std::atomic<bool>* order_stale_ = nullptr;  // graph_'s flag: positions to renumber
  std::vector<Node*> users_;
  std::list<std::unique_ptr<Node>>::iterator place_;  // in graph_'s list
  mutable int index_ = -1;
};

}  // namespace exportlens::ir
