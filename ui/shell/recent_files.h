#pragma once
// The most recently opened files, newest first, kept in QSettings.
#include <QStringList>

namespace exportlens::ui {

class RecentFiles {
 public:
  static constexpr int kMaximum = 10;

  QStringList files() const;
  /// Moves `path` to the front (adding it), dropping the oldest beyond kMaximum.
  void add(const QString& path);
  void remove(const QString& path);
  void clear();

 private:
  void store(const QStringList& files);
};

}  // namespace exportlens::ui
