#include "engine/serde/read_limits.h"

#include <unistd.h>

#include <cctype>
#include <limits>
#include <stdexcept>

namespace exportlens::serde {
namespace {

// "512", "64K", "8G": a non-negative count with an optional binary suffix.
uint64_t parse_amount(const std::string& key, const std::string& text, bool bytes) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  const std::string suffix = text.substr(digits);
  unsigned shift = 0;
  if (bytes && (suffix == "K" || suffix == "k")) shift = 10;
  else if (bytes && (suffix == "M" || suffix == "m")) shift = 20;
  else if (bytes && (suffix == "G" || suffix == "g")) shift = 30;
  else if (!suffix.empty()) digits = 0;
  if (digits == 0 || digits > 18)
    throw std::invalid_argument("limit " + key + ": expected a whole number" + (bytes ? " (K/M/G suffix allowed)" : "") +
                                ", got '" + text + "'");
  const uint64_t value = std::stoull(text.substr(0, digits));
  if (value > (std::numeric_limits<uint64_t>::max() >> shift))
    throw std::invalid_argument("limit " + key + ": " + text + " is too large");
  return value << shift;
}

}  // namespace

uint64_t ReadLimits::default_run_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t(16) << 30;
  return static_cast<uint64_t>(pages) / 4 * 3 * static_cast<uint64_t>(page);
}

void set_limit(ReadLimits& limits, const std::string& key_equals_value) {
  const auto eq = key_equals_value.find('=');
  if (eq == std::string::npos)
    throw std::invalid_argument("limit '" + key_equals_value + "': expected KEY=VALUE");
  const std::string key = key_equals_value.substr(0, eq), value = key_equals_value.substr(eq + 1);
  if (key == "entry-bytes") limits.max_entry_bytes = parse_amount(key, value, true);
  else if (key == "total-bytes") limits.max_total_bytes = parse_amount(key, value, true);
  else if (key == "ratio") limits.max_compression_ratio = parse_amount(key, value, false);
  else if (key == "pickle-objects") limits.max_pickle_objects = parse_amount(key, value, false);
  else if (key == "nodes") limits.max_nodes = parse_amount(key, value, false);
  else if (key == "input-bytes") limits.max_input_bytes = parse_amount(key, value, true);
  else if (key == "run-bytes") limits.max_run_bytes = parse_amount(key, value, true);
  else if (key == "source-bytes") limits.max_source_bytes = parse_amount(key, value, true);
  else if (key == "nesting") {
    const uint64_t n = parse_amount(key, value, false);
    // Deeper nesting needs a deeper stack than a thread is given.
    if (n > 10'000) throw std::invalid_argument("limit nesting: at most 10000, got " + value);
    limits.max_nesting = static_cast<int>(n);
  } else {
    throw std::invalid_argument("unknown limit '" + key + "' (known: entry-bytes, total-bytes, ratio, nesting, pickle-objects, nodes, input-bytes, run-bytes, source-bytes)");
  }
}

std::string describe_limits() {
  const ReadLimits d;
  return "  entry-bytes=" + std::to_string(d.max_entry_bytes >> 30) + "G   inflated size of one archive entry\n" +
         "  total-bytes=" + std::to_string(d.max_total_bytes >> 30) + "G  inflated size of all entries read\n" +
         "  ratio=" + std::to_string(d.max_compression_ratio) + "          compression ratio of a deflated entry\n" +
         "  nesting=" + std::to_string(d.max_nesting) + "        nesting of JSON, subgraphs, pickled containers\n" +
         "  pickle-objects=" + std::to_string(d.max_pickle_objects) + "  objects one pickle may make\n" +
         "  nodes=" + std::to_string(d.max_nodes) + "      nodes in the program and its subgraphs\n" +
         "  input-bytes=" + std::to_string(d.max_input_bytes >> 30) + "G   inputs run --random may allocate\n" +
         "  run-bytes=" + std::to_string(d.max_run_bytes >> 20) + "M  memory a run may hold, and any node may declare\n" +
         "                 (default: 3/4 of this machine's memory)\n" +
         "  source-bytes=" + std::to_string(d.max_source_bytes >> 20) + "M  one source file of a compiled model (wrapper, kernels)\n";
}

}  // namespace exportlens::serde
