// Every op key the engine's code names ("aten.linear.default",
// "torch.ops.aten.sym_size.int", the packet "aten.relu") must name an op the
// dispatcher has: a misspelled key compiles, so this suite reads the sources
// and asks LibTorch's registry for each one, printing FILE:LINE for a key it
// does not know. Also prints how many literals there are (issue tracking).
// Plain C++ over LibTorch: no Qt.
#include <ATen/core/dispatch/Dispatcher.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The namespace whose ops LibTorch itself registers; prims, quantized_decomposed
// and the others only exist once Python imports the module that defines them.
constexpr std::string_view kNamespace = "aten.";

struct Literal {
  std::string file;
  int line;
  std::string text;
};

bool key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The op-key literals of one file: a quoted string made only of key characters
// that starts with a checked namespace (or torch.ops.<namespace>).
std::vector<Literal> literals_in(const fs::path& path, const fs::path& root) {
  std::vector<Literal> out;
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    for (size_t q = line.find('"'); q != std::string::npos; q = line.find('"', q + 1)) {
      size_t end = q + 1;
      while (end < line.size() && key_char(line[end])) ++end;
      if (end >= line.size() || line[end] != '"' || end == q + 1) continue;
      std::string text = line.substr(q + 1, end - q - 1);
      std::string key = text.rfind("torch.ops.", 0) == 0 ? text.substr(10) : text;
      if (key.rfind(kNamespace, 0) == 0 && key.back() != '.' && key.size() > kNamespace.size())
        out.push_back({fs::relative(path, root).string(), number, key});
      q = end;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path root = argc > 1 ? fs::path(argv[1]) : fs::path(EXPORTLENS_SOURCE_DIR);
  std::set<std::string> packets;  // "aten::relu"
  std::unordered_set<std::string> ops;  // "aten::relu", "aten::add.Tensor"
  for (const auto& name : c10::Dispatcher::singleton().getAllOpNames()) {
    packets.insert(name.name);
    ops.insert(name.overload_name.empty() ? name.name : name.name + "." + name.overload_name);
  }
  std::vector<Literal> all;
  for (const auto& entry : fs::recursive_directory_iterator(root / "engine")) {
    const auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".cpp" || ext == ".h"))
      for (auto& l : literals_in(entry.path(), root)) all.push_back(std::move(l));
  }
  std::set<std::string> distinct;
  int unknown = 0;
  for (const auto& l : all) {
    distinct.insert(l.text);
    const size_t a = l.text.find('.');
    const size_t b = l.text.find('.', a + 1);
    const std::string packet = l.text.substr(0, a) + "::" + l.text.substr(a + 1, b == std::string::npos ? b : b - a - 1);
    bool known = false;
    if (b == std::string::npos) {
      known = packets.count(packet) > 0;
    } else if (l.text.find('.', b + 1) == std::string::npos) {
      const std::string overload = l.text.substr(b + 1);
      known = ops.count(overload == "default" ? packet : packet + "." + overload) > 0;
    }
    if (!known) {
      std::cout << l.file << ":" << l.line << ": '" << l.text << "' is not an op the dispatcher has\n";
      ++unknown;
    }
  }
  std::cout << all.size() << " op-key literals (" << distinct.size() << " distinct) in engine/, " << unknown
            << " unknown to the dispatcher\n";
  if (all.empty()) {
    std::cout << "no op-key literal found under " << (root / "engine").string() << "\n";
    return 1;
  }
  return unknown ? 1 : 0;
}
