#include "sql/functions/table_function.h"

#include <algorithm>
#include <cctype>

#include "sql/parser/token.h"

namespace shoal::sql {

const TableFunctionRegistry& TableFunctionRegistry::Get() {
  static const TableFunctionRegistry* registry = [] {
    auto* r = new TableFunctionRegistry();
    RegisterRangeFunctions(r);
    RegisterParquetFunctions(r);
    return r;
  }();
  return *registry;
}

void TableFunctionRegistry::Add(TableFunction fn) {
  std::string key = Lower(fn.name);
  functions_[key] = std::move(fn);
}

const TableFunction* TableFunctionRegistry::Find(const std::string& name) const {
  auto it = functions_.find(Lower(name));
  return it == functions_.end() ? nullptr : &it->second;
}

std::vector<std::string> TableFunctionRegistry::Names() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : functions_) out.push_back(k);
  return out;
}

}  // namespace shoal::sql
