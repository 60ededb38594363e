#pragma once
// torch.fx's _Namespace: hands out unique, legal Python identifiers. The
// printer runs every node name and global through one, as FX's codegen does,
// so a name that would shadow a builtin or a global ("input", "torch") is
// printed with FX's suffix ("input_1").
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace exportlens::ir {

class FxNamespace {
 public:
  /// A namespace holding the globals FX pre-registers for generated code
  /// (inf, nan, NoneType, torch, device, fx_pytree, pytree).
  static FxNamespace for_codegen();

  /// FX's create_name(candidate, obj): the name for `owner` (same owner, same
  /// name), derived from `candidate`. A null owner never matches a builtin.
  std::string create_name(std::string_view candidate, const void* owner);

 private:
  std::string allocate(std::string_view candidate, const void* owner, bool owner_is_that_builtin);
  std::map<const void*, std::string> owner_names_;
  std::set<std::string, std::less<>> used_;
  std::map<std::string, long long, std::less<>> base_count_;
};

}  // namespace exportlens::ir
