#pragma once
// The inspector's "Compiled kernels" section: the kernels of the compiled
// model that compute the selected node (how that is known, their time in the
// latest run), each a link that selects it in the Compiled model dock, and
// links that open its definition and its launch in the wrapper.
#include <QPalette>
#include <QString>
#include <QUrl>

namespace exportlens::ui {

class CompiledSession;

/// The link schemes the section writes: kernel:INDEX selects, kernel-source:INDEX opens
/// its definition, kernel-launch:INDEX where the wrapper launches it.
inline constexpr char kKernelLinkScheme[] = "kernel";
inline constexpr char kKernelSourceLinkScheme[] = "kernel-source";
inline constexpr char kKernelLaunchLinkScheme[] = "kernel-launch";

/// "" when no kernel of the session's compiled model computes `node`.
QString node_kernels_html(const CompiledSession& session, const QString& node, const QPalette& palette);

/// The kernel index a section link names, or -1 (and whether it asks for a source: definition or launch).
int kernel_of_link(const QUrl& url, bool* source = nullptr);

}  // namespace exportlens::ui
