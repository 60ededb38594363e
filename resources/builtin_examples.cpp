#include "builtin_examples.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace exportlens::resources {

QVector<BuiltinExample> builtin_examples() {
  return {{"dynamic_model", "DynamicModel (Dim.AUTO)",
           "The torch.export tutorial's DynamicModel exported with every dimension Dim.AUTO: "
           "symbolic shapes s0..s3 and their range constraints.",
           ":/examples/dynamic_model.pt2"}};
}

BuiltinExample default_example() { return builtin_examples().front(); }

QString materialize(const BuiltinExample& example) {
  const QString dir = QDir::temp().filePath("exportlens-examples");
  if (!QDir().mkpath(dir)) return {};
  const QString path = dir + "/" + example.name + ".pt2";
  QFile::remove(path);
  if (!QFile::copy(example.resource_path, path)) return {};
  QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
  return path;
}

}  // namespace exportlens::resources
