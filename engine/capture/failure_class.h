#pragma once
// Which kind of export failure an exception is, from torch's type name and
// message (the capture package records it too; a plain trace log has only
// compilation_metrics' fail_type and fail_reason). The classes are the ones
// the torch.export tutorials teach: a spec torch would refuse, a guard on a
// data-dependent value, Python the strict tracer does not support, an op
// without a fake kernel.
#include <string>
#include <string_view>

namespace exportlens::capture {

/// "constraint_violation", "data_dependent", "unsupported", "missing_fake_kernel", "user_error" or "other".
std::string classify_failure(std::string_view type, std::string_view message);

/// What a class is called in the product ("Constraint violation", "Data-dependent error", ...).
std::string failure_class_title(std::string_view failure_class);

}  // namespace exportlens::capture
