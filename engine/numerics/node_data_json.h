#pragma once
// Per-node values in Model Explorer's node-data format, so figures computed
// elsewhere colour ExportLens' graph and ExportLens' own figures (run times,
// numerics errors) colour Model Explorer's: a graph's data is {"results":
// {node: {"value": v}}, "thresholds": [{"value", "bgColor"}], "gradient":
// [{"stop", "bgColor"}]}; a model's is {graph id: that}. Keys are node names.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/numerics/numerics_report.h"

namespace exportlens::numerics {

struct NodeDataThreshold {
  double value = 0;     // the upper bound of its range (values above the last are not coloured)
  std::string colour;   // a CSS colour: "#e53935", "red"
};

struct NodeDataGradientStop {
  double stop = 0;      // 0: the smallest value, 1: the largest
  std::string colour;
};

/// One graph's per-node values and how to colour them (thresholds, or a
/// gradient, which wins when both are given).
struct NodeData {
  std::string name;  // what the overlay is called ("max_abs introduced", a file's graph id)
  std::map<std::string, double> values;            // numeric values by node name
  std::map<std::string, std::string> labels;       // non-numeric values by node name
  std::map<std::string, std::string> colours;      // a node's own colour (bgColor), which wins
  std::vector<NodeDataThreshold> thresholds;
  std::vector<NodeDataGradientStop> gradient;

  /// The colour for a value: its own, else the gradient's (interpolated), else the threshold's; "" for none.
  std::string colour_of(const std::string& node) const;
};

/// Reads a node-data file's text: one graph's data, or a model's (every graph's,
/// by graph id). Throws exportlens::Error naming `label` and the JSON path.
std::vector<NodeData> read_node_data(const std::string& text, const std::string& label);

/// A numerics report as node data: each node's error by `metric` (the error it
/// introduced where known, else its total), on a green-yellow-red gradient.
NodeData node_data_of(const NumericsReport& report, const std::string& metric);

/// Writes one graph's data in that format.
std::string write_node_data(const NodeData& data);

}  // namespace exportlens::numerics
