#pragma once
// A ProgramBuilder (tests/support/program_builder.h) whose calls take their
// values from the shape rules, as the passes' own builder gives them.
#include "engine/passes/meta_inference.h"
#include "support/program_builder.h"

namespace exportlens::testing {

inline ProgramBuilder pass_program() {
  ProgramBuilder p;
  p.infer = [](const ir::Node& n) {
    passes::Hints hints;
    passes::MetaInference inference(hints);
    return inference.infer(n);
  };
  return p;
}

}  // namespace exportlens::testing
