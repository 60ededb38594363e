#include "engine/layout/graphviz_session.h"

#include <locale.h>

#include <stdexcept>
#include <string>

namespace exportlens::layout {
namespace {

std::mutex& graphviz_mutex() {
  static std::mutex m;
  return m;
}

// Only touched while graphviz_mutex() is held.
std::string& captured_messages() {
  static std::string text;
  return text;
}

int capture_message(char* text) {
  captured_messages() += text;
  return 0;
}

// One context for the process: creating it loads Graphviz's plugins, which is
// slow. Freed at exit.
struct SharedContext {
  GVC_t* gvc = gvContext();
  ~SharedContext() { gvFreeContext(gvc); }
};

GVC_t* shared_context() {
  static SharedContext context;
  return context.gvc;
}

}  // namespace

GraphvizSession::GraphvizSession() : lock_(graphviz_mutex()) {
  // Qt applications set LC_NUMERIC from the environment; Graphviz must read
  // "0.5" as one half whatever the user's locale is.
  c_locale_ = newlocale(LC_NUMERIC_MASK, "C", static_cast<locale_t>(nullptr));
  if (c_locale_) previous_locale_ = uselocale(static_cast<locale_t>(c_locale_));
  captured_messages().clear();
  previous_error_sink_ = agseterrf(capture_message);
}

GraphvizSession::~GraphvizSession() {
  if (graph_) {
    if (laid_out_) gvFreeLayout(context(), graph_);
    agclose(graph_);
  }
  agseterrf(previous_error_sink_);
  if (c_locale_) {
    uselocale(static_cast<locale_t>(previous_locale_));
    freelocale(static_cast<locale_t>(c_locale_));
  }
}

GVC_t* GraphvizSession::context() const { return shared_context(); }

Agraph_t* GraphvizSession::open_graph(std::string_view name) {
  if (graph_) throw std::logic_error("graphviz session: a graph is already open");
  std::string owned(name);
  graph_ = agopen(owned.data(), Agdirected, nullptr);
  if (!graph_) throw std::runtime_error("graphviz: could not create a graph: " + messages());
  return graph_;
}

void GraphvizSession::run_layout(const char* engine) {
  if (!graph_) throw std::logic_error("graphviz session: no graph to lay out");
  if (gvLayout(context(), graph_, engine) != 0) {
    throw std::runtime_error(std::string("graphviz: '") + engine + "' layout failed" +
                             (messages().empty() ? std::string() : ": " + messages()));
  }
  laid_out_ = true;
}

const std::string& GraphvizSession::messages() const { return captured_messages(); }

void GraphvizSession::set(void* object, const char* attribute, std::string_view value) {
  std::string name(attribute), text(value), fallback;
  agsafeset(object, name.data(), text.data(), fallback.data());
}

}  // namespace exportlens::layout
