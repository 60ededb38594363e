#pragma once
// "Compare with…": two instances of a stack side by side in the shared
// side-by-side view (ui/compare/side_by_side_view.h), each pane the program
// with its instance open; picking a node in one pane selects the node it
// corresponds to in the other (structure::RepeatedStructure::correspondence:
// position by position, or along the common ops when they differ). The
// captions say what differs when one is a differing instance.
#include <QString>
#include <QStringList>

#include <vector>

#include "ui/structure/repeated_structure_model.h"

class QWidget;

namespace exportlens::ui {

class SideBySideView;

/// An instance of a stack: its module calls (one, or the several of a
/// repeated group such as [2 × ConvBlock, Mixer]), in program order.
using InstanceScopes = std::vector<int>;

/// The nodes of instance `to` corresponding to `node` of instance `from`,
/// call by call (a node outside both, e.g. an input, is itself).
QStringList corresponding_in(const StructureSnapshot& snapshot, const InstanceScopes& from, const InstanceScopes& to,
                             const QString& node);

/// A window (a child of `parent`, deleted when closed) comparing instances `a` and `b`.
SideBySideView* open_instance_comparison(QWidget* parent, const StructureSnapshotPtr& snapshot, const InstanceScopes& a,
                                         const InstanceScopes& b);

}  // namespace exportlens::ui
