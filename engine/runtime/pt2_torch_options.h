#pragma once
// What reading and writing a .pt2 take from LibTorch, in one place for the
// CLI, the GUI and the tests: op schemas from the dispatcher (argument names
// and defaults, returns). The serde layer itself stays LibTorch-free.
#include "engine/ir/exported_program.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/pt2_writer.h"

namespace exportlens::runtime {

/// serde::ReadOptions with `signatures` set from the dispatcher (how files
/// without argument kinds, torch <= 2.6's, bind their arguments).
serde::ReadOptions pt2_read_options();

/// serde::WriteOptions with `signatures` set from the dispatcher.
serde::WriteOptions pt2_write_options();

}  // namespace exportlens::runtime
