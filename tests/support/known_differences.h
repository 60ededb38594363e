#pragma once
// Every place where a suite accepts a difference from torch, in one reviewed
// list: which suite, which fixture / port / case, what is compared instead,
// and why torch's own result cannot be matched. Nothing else in the suites may
// skip a comparison with torch. Each entry is also checked to be needed: a
// suite that finds the difference gone fails and asks for the entry to go.
#include <string>
#include <string_view>

namespace exportlens::testing {

struct KnownDifference {
  const char* suite;    // "decompositions", "trace", "check", "runtime"
  const char* subject;  // the fixture ("name/level"), gallery port, check case or program node
  const char* aspect;   // what is compared differently (see each suite)
  const char* reason;   // why torch's result cannot be matched
};

// clang-format off
// Reasons shared by several corpus entries (tests/corpus/test_corpus).
inline constexpr const char* kwindow_guards =
    "with every spatial dim a named Dim, window and grid partitions split each (size - 1) // k + 1 size into "
    "n // (n // w) windows; torch reads such a nested division as w once guards prove both divisions exact, and "
    "ExportLens does too (timm's asserts that the window divides the size are placed before the partition's view). "
    "torch then decides the partition's remaining checks from facts its trace already holds, without issuing a "
    "guard: MaxViT's contiguity checks over Max(1, n // 2) and n == 2*(n // 2) follow from the guard n // 2 != 0 "
    "it recorded earlier, TinyViT's over padded sizes p // (p // 7) from the padding making p a multiple of the "
    "window; ExportLens' static evaluation does not draw those consequences yet, so its message lists those guards "
    "as well. The suggested fixes are torch's";
inline constexpr const char* kgpt2_core =
    "torch's own Core ATen lowering fails on GPT-2 under symbolic sizes (Cannot view a tensor ... as a tensor with shape (s70*s72, 32)); ExportLens' strides allow that view, so it lowers the program";
inline constexpr KnownDifference kKnownDifferences[] = {
    // ---- tests/engine/test_module_hierarchy: the values crossing each scope's
    // boundary compared by count instead of by name.
    {"module_hierarchy", "transformer_stack_dynamic/core", "boundary names",
     "as dynamic_model_auto below: torch's retrace numbers the symbolic-size nodes after the guard nodes it made and "
     "removed (sym_size_int_102, sym_size_int_103), ExportLens' lowering from 0 (sym_size_int, sym_size_int_1)"},
    // ---- tests/passes/test_decompositions: print(ep) text compared with node
    // names renumbered by order of first use (torch's retrace numbers its nodes
    // after nodes it made and removed); everything else byte for byte.
    {"decompositions", "lowering_cases/unfold_of_intermediate/*", "refused",
     "torch writes a mutation through an unfold back with unfold_backward (Core ATen: its full/arange/index_put "
     "decomposition, and a second one for overlapping windows); ExportLens has neither yet, so it refuses the "
     "program with one line naming the view rather than lower it wrong (test_decompositions and test_rule_numerics "
     "check the refusal)"},
    {"decompositions", "dynamic_model_auto/*", "node names",
     "torch numbers the sym_size/mul/add nodes after the nodes its retrace made for the input guards (_guards_fn) "
     "and then removed (sym_size_int_8, mul_5, add_9); ExportLens has no guard function to retrace, so its names "
     "count from 0 (sym_size_int, mul, add_1)"},
    {"decompositions", "dynamic_model_v2_auto/*", "node names", "as dynamic_model_auto: torch's retrace numbers the symbolic-size nodes after its removed guard nodes"},
    {"decompositions", "derived_dim_example1/*", "node names", "as dynamic_model_auto: torch's retrace numbers the add after its guard nodes"},
    {"decompositions", "derived_dim_example2/*", "node names", "as dynamic_model_auto: torch's retrace numbers the add after its guard nodes"},
    {"decompositions", "data_dependent_branch_checked/*", "node names",
     "torch regenerates the runtime asserts of unbacked symbols after its retrace (renaming ge_2 to ge_1); "
     "ExportLens keeps the program's asserts and their names"},
    {"decompositions", "item_index_checked/*", "node names", "as data_dependent_branch_checked: regenerated runtime asserts"},
    {"decompositions", "item_repeat/*", "node names", "as data_dependent_branch_checked: regenerated runtime asserts"},
    {"decompositions", "lowering_cases/sizes_class_token_cat/*", "node names",
     "torch's retrace numbers its nodes after the ones it made and removed: a sym_size.int and an eq for each size "
     "its functional wrapper compares on every output, the guard function's (sym_size_int_10 for the first input "
     "size); ExportLens makes only the nodes that stay, so its names count from 0"},
    {"decompositions", "lowering_cases/sizes_two_strided_convs/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/sizes_routed_reshape/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/sizes_derived_dim/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/sizes_resolved_view/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/sizes_padded_windows/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/sizes_inferred_known/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/matmul_requires_grad/*", "generated-code file name",
     "the nodes of its inlined torch.no_grad() body carry the frame of the body's generated code, <eval_with_key>.N, "
     "N a counter of the modules torch's process has made (as the corpus' per-process tokens); compared with N normalised"},
    {"decompositions", "lowering_cases/causal_triangles_dynamic/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/shifted_windows_dynamic/*", "node names", "as sizes_class_token_cat: torch numbers after the size nodes its retrace made and removed"},
    {"decompositions", "lowering_cases/while_loop_counter/*", "operand containers",
     "a .pt2 does not say whether a sequence was a tuple or a list: it writes a higher-order op's operand tuple as a "
     "list, a subgraph's returned list as a tuple. torch prints the program in its memory, while torch.export.load "
     "of the same file, lowered, prints what ExportLens reads; compared with the higher-order ops' operands and the "
     "returns written as lists"},
    {"decompositions", "lowering_cases/scan_tanh_cell/*", "operand containers",
     "as while_loop_counter: the combine function's returned list is read back from the file as a tuple"},
    {"decompositions", "lowering_cases/autocast_region/*", "generated-code file name",
     "as matmul_requires_grad: the nodes of its inlined torch.autocast body carry the frame of the body's generated "
     "code, <eval_with_key>.N, N a counter of the modules torch's process has made; compared with N normalised"},
    {"decompositions", "item_index_unchecked/*", "node names and unbacked ranges",
     "torch's retrace allocates fresh unbacked symbols (u3, u5, ...) whose ranges stay in its range constraints; "
     "compared with symbol and node numbering renumbered and those extra range lines dropped"},

    // ---- tests/corpus/test_corpus: the real-architecture corpus.
    {"corpus", "lowered programs", "per-process tokens",
     "torch's retrace numbers the nodes of run_decompositions() after nodes it made and dropped while re-running "
     "the exported graph (sym_size_int_37, sub_10, add_895: counters ExportLens has no trace to reproduce), and an "
     "inlined wrap_with_set_grad_enabled body's frame is its generated code, <eval_with_key>.N, N a counter of "
     "the process's modules; lowered text is compared with node numbering renumbered by first use and N normalised"},

    {"corpus", "hop_while_loop/*", "file round trip",
     "torch prints the lowered program in its memory, ExportLens lowers the file: as lowering_cases/while_loop_counter, "
     "the while_loop operands are tuples its Python wrapper built, which a .pt2 writes as lists; and torch.export.save "
     "leaves out the range of the loop's iteration count (u0: [1, int_oo], an unbacked symbol of torch's autograd "
     "tracing that no node holds), so the program read back has none; torch.export.load of the file, lowered, prints "
     "what ExportLens does; compared with operands and returns written as lists and unbacked ranges left out"},
    {"corpus", "hop_scan/*", "file round trip",
     "as lowering_cases/scan_tanh_cell: the combine function's returned list is read back from the file as a tuple"},

    // Not fixed yet ("open <aspect>"): each still differs from torch, for the reason given.
    {"corpus", "gpt2/core", "open lowering", kgpt2_core},
    {"corpus", "timm_maxvit/named", "open check", kwindow_guards},
    {"corpus", "timm_tiny_vit/named", "open check", kwindow_guards},
    {"corpus", "wav2vec2/named", "open check",
     "torch issues the guard Max(1, (s96//10) - 1)**2 > 1 (its static check, with s96 >= 30 known, leaves it "
     "undecided), prints it simplified to ((s96//10) - 1)**2 > 1 and reads the congruence s96 % 10 == 0 from it: "
     "samples = 10*_samples; ExportLens' bounds decide that guard true from s96 >= 30, so it is not issued and "
     "only the range fix remains (samples min=30)"},

    // ---- tests/trace/test_trace: the port asserts its own documented outcome
    // (gallery Example::expected) instead of torch's.
    {"trace", "bad2_strict", "outcome",
     "torch 2.13 lifts the .data write to a constant copy (its program returns x unchanged); C++ has no .data "
     "proxy, so the port records select, select, fill_ on x itself, as eager code writes x[0, 0]"},
    {"trace", "bad2_nonstrict", "outcome",
     "torch 2.13 fails ('We found a fake tensor in the exported program constant's list'); the C++ port exports "
     "select, select, fill_ on x"},
    {"trace", "bad3_strict", "outcome",
     "torch's Dynamo rejects id() in strict mode; C++ has no bytecode analysis, so the address is an int constant "
     "in the graph in strict mode too"},
    {"trace", "dynamic_model_v2_auto", "output names",
     "torch names the user-code size arithmetic of `if w.shape[0] == x.shape[0] + 2` (add) and removes it, so "
     "its tensor adds are add_1 and add_2; the C++ port's SymInt arithmetic makes no node, so they are add and "
     "add_1 (the outputs' kinds and order are compared)"},
    {"trace", "bad3_nonstrict", "outputs", "the original bakes id(x) into the graph: it differs from process to process"},

    // ---- tests/shapes/test_check_oracle.
    // "rules only": the model's cases rest on guards that no op makes (its own
    // code branches or asserts on sizes: if / assert / torch._check), which only
    // the file's recorded guards (guards_code) carry; solved with the shape rules
    // alone they must differ from torch (and with the file's guards, match it).
    {"check", "example3_unfixed", "rules only", "DynamicShapesExample3 branches on x.shape[0] <= 16 in user code"},
    {"check", "dynamic_model_v2_auto", "rules only",
     "DynamicModelV2 asserts w.shape[0] <= 512, calls torch._check(x.shape[0] >= 4) and branches on "
     "w.shape[0] == x.shape[0] + 2 in user code"},
    {"check", "dynamic_model_v2_named", "rules only", "as dynamic_model_v2_auto: user-code asserts and branches"},
    {"check", "even_strided_width_named", "rules only",
     "EvenStridedWidth calls torch._check(y.shape[3] % 2 == 0) in user code"},
    // Op guards the shape rules do not make yet; they come from the file only.
    {"check", "patch_positions_side", "rules only",
     "with one Dim for both sides, torch's message also lists the guards of the position add's output strides "
     "((side // 8)**2 > 1, 1 % (side // 8)**2 != 0); flatten(2)'s view guards and the conv's (side >= 8) "
     "come from the rules"},

    // ---- tests/engine/test_runtime, tests/passes/test_rule_numerics: fixtures
    // whose outputs are not compared with torch's.
    {"runtime", "custom_op", "outputs",
     "its op (my_custom_library::custom_op) is defined in Python only (test_runtime checks that running it "
     "names the missing op)"},
    {"runtime", "bad3_nonstrict", "outputs", "the program bakes id(x) into the graph: its outputs are its own"},

    // ---- tests/engine/test_old_torch: a file of an older release saved as a 2.13 one.
    {"old_torch", "2.5/bad1_fixed", "saved print",
     "torch 2.5's deserializer gave a cond branch's get_attr node no metadata (so 2.5 prints \"No stacktrace "
     "found\" before them); in the saved 2.13 file they carry the cond's stack trace, as 2.13 reads every file"},

};
// clang-format on

/// Whether entry `k` names `subject`; a subject "name/*" stands for every "name/<anything>".
inline bool names_subject(const KnownDifference& k, std::string_view subject) {
  const std::string_view s = k.subject;
  return s == subject || (s.ends_with("/*") && subject.starts_with(s.substr(0, s.size() - 1)));
}

/// The entry for `subject` in `suite` about `aspect` (any aspect when empty).
inline const KnownDifference* known_difference(std::string_view suite, std::string_view subject,
                                               std::string_view aspect = {}) {
  for (const auto& k : kKnownDifferences)
    if (suite == k.suite && (aspect.empty() || aspect == k.aspect) && names_subject(k, subject)) return &k;
  return nullptr;
}

}  // namespace exportlens::testing
