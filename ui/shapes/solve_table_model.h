#pragma once
// A table over one solve's results (its guards, its violations): the solve
// it shows and the rows a subclass reads from it.
#include "ui/core/node_solve_facts.h"
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class SolveTableModel : public NodeTableModel {
 public:
  void setResult(const SolveResultPtr& result) {
    resetRows([&] { result_ = result; });
  }
  const SolveResultPtr& result() const { return result_; }

 protected:
  using NodeTableModel::NodeTableModel;

  SolveResultPtr result_;
};

}  // namespace exportlens::ui
