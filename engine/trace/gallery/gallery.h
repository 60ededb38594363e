#pragma once
// The built-in examples: every seed example ported to C++ with the SDK
// (engine/trace/sdk/exportlens_sdk.h), each with its description, the seed it
// comes from, the outcome torch 2.13 gives for the Python original, and the
// oracle fixture (tests/oracle) that holds torch's result.
//
// One file per family; gallery.cpp lists them.
#include <string>
#include <vector>

#include "engine/trace/sdk/exportlens_sdk.h"

namespace exportlens::trace::gallery {

/// One example; a row says only what differs from the defaults (torch exports
/// it, no notes, its oracle fixture named after it).
struct Example {
  sdk::ModelDef def;
  std::string family;           // "basics", "graph breaks", "control flow", ...
  std::string seed;             // "000", "002", "003": the seed document
  std::string expected = "ok";  // "ok", or the error kind ("data_dependent", "constraint", ...)
  std::string notes;            // how the C++ port differs from the Python original, if it does
  std::string oracle = def.name;  // the oracle fixture with torch's result, named after the example ("" if none)
};

/// Every example, in gallery order.
const std::vector<Example>& examples();
/// The example called `name`, or nullptr.
const Example* find(const std::string& name);

// Families (one file each).
std::vector<Example> basic_examples();
std::vector<Example> graph_break_examples();
std::vector<Example> control_flow_examples();
std::vector<Example> dynamic_shape_examples();
std::vector<Example> dim_hint_examples();
std::vector<Example> data_dependent_examples();
std::vector<Example> custom_op_examples();
std::vector<Example> decomposition_examples();

/// Example inputs: one torch::randn tensor of each shape, in order.
std::function<sdk::Inputs()> random_inputs(std::vector<std::vector<int64_t>> shapes);

/// The ModelDef for module type M: name, description, argument names, inputs, spec.
template <class M>
sdk::ModelDef def(std::string name, std::string description, std::vector<std::string> args,
                  std::function<sdk::Inputs()> inputs, std::string spec = "", bool strict = false) {
  sdk::ModelDef d = sdk::model<M>(std::move(name)).describe(std::move(description)).def();
  d.arg_names = std::move(args);
  d.example_inputs = std::move(inputs);
  d.dynamic_shapes = std::move(spec);
  d.strict = strict;
  return d;
}

}  // namespace exportlens::trace::gallery
