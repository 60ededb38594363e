#pragma once
// What differs between the seeds' programs as torch 2.5 ... 2.12 exported
// them (tests/fixtures/old_torch/) and as torch 2.13 exports them, each
// difference with the releases it holds for and why. test_release_diff
// diffs every pair and requires every difference reported to be one of
// these, and every one of these to be reported at least once: when a
// release's files stop showing one, its entry must go.
//
// A difference is judged one reported item at a time (a Finding): a node
// only A has (removed) or only B has (added), one change of a matched node,
// one signature entry, one guard or range line.
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "engine/diff/program_diff.h"

namespace exportlens::testing {

struct Finding {
  enum class Kind { Node, Change, Signature, Guard };
  Kind kind = Kind::Node;
  diff::Status status = diff::Status::Changed;
  std::string op_a, op_b;  // the nodes' ops (Node, Change)
  diff::Change change;     // Change
  std::string what, before, after;  // Signature, Guard
  bool a_has_guards_code = false, b_has_guards_code = false;
  std::string fixture;
};

struct KnownReleaseDifference {
  const char* name;
  const char* first;  // the releases it holds for, both included
  const char* last;
  const char* why;
  std::function<bool(const Finding&)> explains;
};

inline bool one_of(const std::string& s, std::initializer_list<const char*> options) {
  for (const char* o : options)
    if (s == o) return true;
  return false;
}

inline bool mentions_unbacked(const std::string& text) { return std::regex_search(text, std::regex("\\bu\\d+\\b")); }

inline const std::vector<KnownReleaseDifference>& known_release_differences() {
  using K = Finding::Kind;
  using S = diff::Status;
  static const std::vector<KnownReleaseDifference> all = {
      {"view offsets recorded as 0", "2.5", "2.8",
       "torch <= 2.8 serialized a view's storage offset as 0 (a slice y[1:], an unbind's second row, a select at "
       "an .item() index); 2.13 records it",
       [](const Finding& f) {
         return f.kind == K::Change && f.change.aspect == diff::Aspect::Strides &&
                f.change.before.find(" offset ") == std::string::npos && f.change.after.find(" offset ") != std::string::npos;
       }},
      {"open slice ends as None", "2.8", "2.8",
       "torch 2.8 recorded a slice's open start and end as None; 2.13 as 0 and sys.maxsize",
       [](const Finding& f) {
         return f.kind == K::Change && f.op_a == "aten.slice.Tensor" && f.change.aspect == diff::Aspect::Arguments &&
                f.change.before == "None" &&
                ((f.change.what == "start" && f.change.after == "0") ||
                 (f.change.what == "end" && f.change.after == "9223372036854775807"));
       }},
      {"batch_norm cudnn_enabled", "2.6", "2.10",
       "torch 2.6 ... 2.10 traced batch_norm with cudnn_enabled=True on the CPU; 2.13 passes False",
       [](const Finding& f) {
         return f.kind == K::Change && f.op_a == "aten.batch_norm.default" && f.change.what == "cudnn_enabled" &&
                f.change.before == "True" && f.change.after == "False";
       }},
      {"runtime asserts on input relations", "2.6", "2.8",
       "torch <= 2.8 asserted relations between input dims (a derived Dim, a dim fixed by a guard) in the graph: "
       "sym_size, the comparison and _assert_scalar; 2.13 checks the inputs before the graph runs",
       [](const Finding& f) {
         return f.kind == K::Node && f.status == S::Removed &&
                one_of(f.op_a, {"aten.sym_size.int", "_operator.eq", "_operator.ge", "_operator.le", "_operator.add",
                                "_operator.sub", "_operator.mul", "_operator.floordiv", "aten._assert_scalar.default"});
       }},
      {"no guards_code", "2.5", "2.8",
       "torch <= 2.8 files do not record guards_code, so re-solved they lack the guards user code made (a derived "
       "dim's relation, a bound from an if); 2.13's carry them",
       [](const Finding& f) { return f.kind == K::Guard && !f.a_has_guards_code && f.b_has_guards_code; }},
      {"sym_constrain_range_for_size", "2.5", "2.9",
       "torch <= 2.9 kept torch._check_is_size as sym_constrain_range_for_size; 2.13 drops the node and checks u0 >= 0 "
       "as a runtime assert",
       [](const Finding& f) {
         return (f.kind == K::Node && f.status == S::Removed && f.op_a == "aten.sym_constrain_range_for_size.default") ||
                (f.kind == K::Guard && f.status == S::Added && std::regex_match(f.after, std::regex("u\\d+ >= 0")));
       }},
      {"training IR functionalized", "2.5", "2.5",
       "torch 2.5 exported the training IR functionalized: relu_ as relu, batch norm as "
       "_native_batch_norm_legit_functional with its buffer updates as outputs; 2.13 keeps in-place ops",
       [](const Finding& f) {
         if (f.kind == K::Change && f.change.aspect == diff::Aspect::Target)
           return f.change.after == std::regex_replace(f.change.before, std::regex("\\.(\\w+)$"), "_.$1");
         if (f.kind == K::Node && f.status == S::Removed)
           return one_of(f.op_a, {"aten._native_batch_norm_legit_functional.default", "_operator.getitem", "aten.add.Tensor"});
         if (f.kind == K::Node && f.status == S::Added) return one_of(f.op_b, {"aten.batch_norm.default", "aten.add_.Tensor"});
         if (f.kind == K::Change) return f.op_a == "output" && f.change.aspect == diff::Aspect::Arguments;
         return f.kind == K::Signature && f.status == S::Removed && f.what.starts_with("BUFFER_MUTATION ");
       }},
      {"flatten as view", "2.5", "2.5",
       "torch 2.5 recorded flatten as a view to the product of the sizes (sym_size, mul, view); 2.13 keeps flatten",
       [](const Finding& f) {
         if (f.kind == K::Node && f.status == S::Added) return f.op_b == "aten.flatten.using_ints";
         if (f.kind == K::Node && f.status == S::Removed)
           return one_of(f.op_a, {"aten.view.default", "aten.sym_size.int", "_operator.mul"});
         return f.kind == K::Change && f.op_a == "aten.view.default" && f.op_b == "aten.flatten.using_ints";
       }},
      {"unused checked .item() dropped", "2.5", "2.5",
       "torch 2.5 removed an .item() the output does not use, with its torch._check asserts; 2.13 keeps them (and "
       "their u0 bounds)",
       [](const Finding& f) {
         if (f.kind == K::Node && f.status == S::Added)
           return one_of(f.op_b, {"aten.item.default", "_operator.ge", "_operator.le", "aten._assert_scalar.default"});
         return f.kind == K::Guard && mentions_unbacked(f.what + " " + f.before + " " + f.after);
       }},
      {"an object's id() as a constant", "2.5", "2.12",
       "not a release difference: the seed bad3_nonstrict adds id(x) to x, a number that differs in every process",
       [](const Finding& f) {
         return f.fixture == "bad3_nonstrict" && f.kind == K::Change && f.change.aspect == diff::Aspect::Arguments &&
                f.change.what == "other" && std::regex_match(f.change.before, std::regex("\\d{9,}")) &&
                std::regex_match(f.change.after, std::regex("\\d{9,}"));
       }},
  };
  return all;
}

}  // namespace exportlens::testing
