#pragma once
// torch's structured trace logs (TORCH_TRACE / TORCH_DTRACE, draft_export),
// read leniently. A line is a glog prefix and one JSON object whose first key
// names the event; a payload follows on lines that start with a tab; file
// names are interned once per process ({"str": [path, id]}) and a log may use
// ids it never defines. There is no schema: every field is optional, and an
// event nobody here knows is kept (and counted) rather than refused.
//
// The log is untrusted input (a file attached to a bug report): its size,
// line length and JSON nesting are bounded by serde::ReadLimits, and a line
// that is not an event is skipped with a note, never followed.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/serde/read_limits.h"

namespace exportlens::capture {

/// One event as it stands in the log.
struct TraceEvent {
  std::string name;      // the first key: "guard_added_fast", "artifact", ...
  std::string body;      // the JSON object after the glog prefix, whole
  std::string payload;   // the tab-indented lines after it, one tab removed from each
  std::string time;      // the glog timestamp, "1203 10:33:32.713000" (glog writes no year)
  std::string compile_id;  // "[0/0]" when the event names a frame and compile; else empty
  int file = 0;          // index into TraceLog::files
  int line = 0;          // 1-based line of the event in its file
};

/// What reading one or more log files gave.
struct TraceLog {
  std::vector<std::filesystem::path> files;
  std::vector<TraceEvent> events;
  /// The interned file names, by id (across every file read: one process' table).
  std::map<int64_t, std::string> filenames;
  /// Lines skipped, with why ("dedicated_log_…log:12: not an event"), at most a few dozen.
  std::vector<std::string> notes;
  int skipped_lines = 0;

  /// The file an interned id stands for, or "<file #id>" when the log never defined it.
  std::string filename(int64_t id) const;
};

/// Whether `path` is a trace log torch wrote: a file whose first line is a glog
/// event line with a JSON object, or a folder holding such files.
bool is_trace_log(const std::filesystem::path& path);

/// Reads a log file, or every `*.log` file of a folder (in name order: one per
/// process). Throws exportlens::Error (kind Input or Limit) naming the file,
/// line and limit when a file cannot be read or is over the limits.
TraceLog read_trace_log(const std::filesystem::path& path, const serde::ReadLimits& limits = {});

/// The same for a log's text already in memory (`name` stands for its file in notes).
TraceLog read_trace_log_text(std::string_view text, const std::string& name, const serde::ReadLimits& limits = {});

}  // namespace exportlens::capture
