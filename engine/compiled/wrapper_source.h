#pragma once
// What an AOTInductor wrapper's C++ says about its model. Inductor writes the
// model's interface into the wrapper's constructor (inputs_info_,
// outputs_info_, constants_info_, in_spec_, out_spec_) and its launches into
// run_impl, each after a "[Provenance debug handles] NAME:ID" comment when
// compiled with provenance tracking and, for ATen fallbacks, after a
// "Topologically Sorted Source Nodes: [...]" comment. One linear pass over
// the lines; what does not read as expected is left out, never guessed.
#include <string>
#include <string_view>
#include <vector>

#include "engine/compiled/compiled_model.h"

namespace exportlens::compiled {

/// Fills `model`'s inputs, outputs, specs, constants and kernels (in launch
/// order, each with its wrapper line) from the wrapper's text; a kernel's
/// nodes from a source comment when it has one (mapped_by "source comment").
void read_wrapper_source(std::string_view text, const std::string& entry, CompiledModel& model);

/// The kernels a kernel source defines (`extern "C" void NAME(`, triton's
/// `def NAME(`): sets defined_in and definition_line of `model`'s kernels of those names.
void read_kernel_source(std::string_view text, const std::string& entry, CompiledModel& model);

/// "[batch_norm, relu]" -> {"batch_norm", "relu"}: the names in a bracketed list.
std::vector<std::string> bracketed_names(std::string_view text);

}  // namespace exportlens::compiled
