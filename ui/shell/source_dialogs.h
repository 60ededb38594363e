#pragma once
// Program sources as the window's file dialogs and drops see them (the kinds
// themselves are engine/sources' to decide).
#include <QString>

#include "engine/sources/program_source.h"

class QUrl;

namespace exportlens::ui {

/// A file dialog's filter for one kind of program source, then "All files".
QString file_filter(sources::SourceKind kind);
/// File › Open's filter: exported programs first, then captures and trace logs, then "All files".
QString open_filter();
/// What `path` is as a program source.
sources::SourceKind source_kind(const QString& path);
/// A dropped URL the window can open: a local .pt2 or model library.
bool is_program_source(const QUrl& url);

}  // namespace exportlens::ui
