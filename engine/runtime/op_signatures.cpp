#include "engine/runtime/op_signatures.h"
#include "engine/runtime/python_defined_ops.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/jit_type.h>

namespace exportlens::runtime {
namespace {

// A list's element kind, looking through Optional (`int[]?`, `Tensor?[]`).
ir::ListKind list_kind(c10::TypePtr type) {
  if (type->kind() == c10::TypeKind::OptionalType) type = type->containedType(0);
  if (type->kind() != c10::TypeKind::ListType) return ir::ListKind::Unknown;
  c10::TypePtr elem = type->containedType(0);
  if (elem->kind() == c10::TypeKind::OptionalType) elem = elem->containedType(0);
  switch (elem->kind()) {
    case c10::TypeKind::BoolType: return ir::ListKind::Bool;
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: return ir::ListKind::Int;
    case c10::TypeKind::FloatType:
    case c10::TypeKind::SymFloatType: return ir::ListKind::Float;
    case c10::TypeKind::StringType: return ir::ListKind::String;
    case c10::TypeKind::TensorType: return ir::ListKind::Tensor;
    default: return ir::ListKind::Unknown;
  }
}

ir::ReturnKind return_kind(const c10::TypePtr& type) {
  switch (type->kind()) {
    case c10::TypeKind::TensorType: return ir::ReturnKind::Tensor;
    case c10::TypeKind::OptionalType:
      return type->containedType(0)->kind() == c10::TypeKind::TensorType ? ir::ReturnKind::OptionalTensor
                                                                          : ir::ReturnKind::Other;
    case c10::TypeKind::ListType:
      return type->containedType(0)->kind() == c10::TypeKind::TensorType ? ir::ReturnKind::TensorList
                                                                          : ir::ReturnKind::Other;
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: return ir::ReturnKind::SymInt;
    case c10::TypeKind::FloatType:
    case c10::TypeKind::SymFloatType: return ir::ReturnKind::SymFloat;
    case c10::TypeKind::BoolType:
    case c10::TypeKind::SymBoolType: return ir::ReturnKind::SymBool;
    default: return ir::ReturnKind::Other;
  }
}

// A schema default as an IR argument, when it is a plain value.
std::optional<ir::Argument> plain_value(const c10::IValue& v) {
  if (v.isNone()) return ir::Argument(ir::None{});
  if (v.isBool()) return ir::Argument(v.toBool());
  if (v.isInt()) return ir::Argument(v.toInt());
  if (v.isDouble()) return ir::Argument(v.toDouble());
  if (v.isString()) return ir::Argument(v.toStringRef());
  if (v.isIntList()) {
    ir::ArgumentList list;
    for (int64_t i : v.toIntVector()) list.items.emplace_back(i);
    return ir::Argument(std::move(list));
  }
  return std::nullopt;
}

// The dispatcher's handle of "ns::name.overload" ("ns::name": the default overload).
std::optional<c10::OperatorHandle> find_op(const std::string& schema_name) {
  const auto dot = schema_name.find('.', schema_name.find("::") == std::string::npos ? 0 : schema_name.find("::"));
  const std::string name = schema_name.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : schema_name.substr(dot + 1);
  ensure_python_defined_ops();
  auto handle = c10::Dispatcher::singleton().findSchema({name, overload});
  if (!handle || !handle->hasSchema()) return std::nullopt;
  return handle;
}

std::optional<ir::OpSignature> lookup(const std::string& schema_name) {
  const auto handle = find_op(schema_name);
  if (!handle) return std::nullopt;
  const c10::FunctionSchema& schema = handle->schema();
  ir::OpSignature sig;
  for (const auto& a : schema.arguments()) {
    // real_type(): SymInt[] stays a SymInt list (type() shows it as int[]); both are Int here.
    sig.arguments.push_back({a.name(), a.kwarg_only(), list_kind(a.real_type()), a.default_value().has_value(),
                             a.default_value() ? plain_value(*a.default_value()) : std::nullopt,
                             a.alias_info() && a.alias_info()->isWrite()});
  }
  for (const auto& r : schema.returns()) sig.returns.push_back(return_kind(r.real_type()));
  return sig;
}

}  // namespace

ir::OpSignatureLookup dispatcher_signatures() { return lookup; }

ir::SchemaEffectsLookup dispatcher_schema_effects() {
  return [](const std::string& schema_name) -> std::optional<ir::SchemaEffects> {
    const auto handle = find_op(schema_name);
    if (!handle) return std::nullopt;
    return ir::SchemaEffects{handle->schema().is_mutable(), handle->hasTag(at::Tag::nondeterministic_seeded)};
  };
}

void use_dispatcher_schema_effects() { ir::set_schema_effects(dispatcher_schema_effects()); }

}  // namespace exportlens::runtime
