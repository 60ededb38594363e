#pragma once
// A capture as text and JSON: one block per attempt in the form of `exportlens
// check --report` (the problems in one pass, each with its guard, user line
// and code, then torch's suggested fixes and the spec with them applied), or
// one line per attempt for the summary `exportlens capture` prints.
#include <string>
#include <vector>

#include "engine/capture/attempt_diagnosis.h"
#include "engine/capture/capture_folder.h"

namespace exportlens::capture {

/// One line per attempt: "✗ 1  export  Model  model.py:12  Constraint violation: Constraints violated (b)!".
std::string format_summary(const Capture& capture);

/// The report of one attempt.
std::string format_attempt_report(const Attempt& attempt, const AttemptDiagnosis& diagnosis);

/// The report of every attempt (diagnoses in the capture's attempt order).
std::string format_capture_report(const Capture& capture, const std::vector<AttemptDiagnosis>& diagnoses);

/// The same as JSON, for tools.
std::string capture_report_json(const Capture& capture, const std::vector<AttemptDiagnosis>& diagnoses);

/// The attempt's spec with torch's suggested fixes applied (Python text), or "" when there is none to apply.
std::string fixed_spec(const Attempt& attempt, const AttemptDiagnosis& diagnosis);

}  // namespace exportlens::capture
