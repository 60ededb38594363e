#pragma once
// The hashing the fingerprints and the matcher's keys are made of: 64-bit
// mixing, and canonical hashes of symbolic expressions, tensor metadata and
// node arguments. Private to the matching room and the rooms built on it
// (structure, diff).
#include <cstdint>
#include <string_view>

#include "engine/ir/node.h"

namespace exportlens::matching::hash {

inline uint64_t avalanche(uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline uint64_t mix(uint64_t h, uint64_t v) { return avalanche(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2))); }
uint64_t text(std::string_view s);

/// An expression's structure, with data-dependent symbols (u0, u1, ...)
/// made equal: each instance of a layer calling .item() makes its own.
uint64_t expression(const symbolic::Expr& e);
/// dtype, sizes, strides, storage offset, device, layout of a value (tuples recursively).
uint64_t value(const ir::ValueInfo& v);
/// The same without strides and storage offset: what a value is, not how
/// it lies in memory (a layer's input, permuted or contiguous).
uint64_t value_shape(const ir::ValueInfo& v);
/// A node's op: its kind and target (get_attr's attribute name left out:
/// each instance of a layer with a cond names its own branches).
uint64_t op(const ir::Node& node);
/// A node's attributes: every argument and keyword that is not a node
/// reference (a reference contributes only that one is there).
uint64_t attributes(const ir::Node& node);

}  // namespace exportlens::matching::hash
