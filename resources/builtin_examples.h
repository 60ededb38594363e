#pragma once
// The example programs compiled into the executable (Qt resources made at
// build time by examples/make_examples.py with the venv's torch).
#include <QString>
#include <QVector>

namespace exportlens::resources {

struct BuiltinExample {
  QString name;          // "dynamic_model"
  QString title;         // shown in menus
  QString description;   // one line
  QString resource_path; // ":/examples/dynamic_model.pt2"
};

QVector<BuiltinExample> builtin_examples();
/// The example the GUI opens when no file is given.
BuiltinExample default_example();
/// Copies an example out of the resources into a real file (the reader
/// needs a path) and returns that path; empty on failure.
QString materialize(const BuiltinExample& example);

}  // namespace exportlens::resources
