#pragma once
// Exclusive, exception-safe access to Graphviz, which keeps global state and
// is not thread-safe: one session at a time holds a process-wide lock, the C
// numeric locale (Graphviz parses numbers with strtod) and captures Graphviz's
// error messages instead of letting them go to stderr.
#include <mutex>
#include <string>
#include <string_view>

#include <graphviz/gvc.h>

namespace exportlens::layout {

class GraphvizSession {
 public:
  GraphvizSession();
  ~GraphvizSession();
  GraphvizSession(const GraphvizSession&) = delete;
  GraphvizSession& operator=(const GraphvizSession&) = delete;

  GVC_t* context() const;
  /// A new directed graph, closed (with its layout) when the session ends.
  Agraph_t* open_graph(std::string_view name);
  /// Runs `engine` ("dot") on the open graph; throws std::runtime_error
  /// with Graphviz's own messages when it fails.
  void run_layout(const char* engine);
  /// What Graphviz reported during this session.
  const std::string& messages() const;

  static void set(void* object, const char* attribute, std::string_view value);

 private:
  std::unique_lock<std::mutex> lock_;
  Agraph_t* graph_ = nullptr;
  bool laid_out_ = false;
  void* previous_locale_ = nullptr;
  void* c_locale_ = nullptr;
  agusererrf previous_error_sink_ = nullptr;
};

}  // namespace exportlens::layout
