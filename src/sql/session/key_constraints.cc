#include "sql/session/key_constraints.h"

#include "sql/parser/token.h"

namespace shoal::sql {

Result<std::string> AddKeyConstraint(const KeyConstraint& k, const std::string& table, const columnar::Schema& schema,
                                     std::map<std::string, std::string>* configuration) {
  const bool primary = k.kind == KeyConstraint::Kind::kPrimaryKey;
  for (const std::string& name : k.columns) {
    int i = schema.Find(name);
    if (i < 0) return Status::Binder("key constraint column \"" + name + "\" is not a column of the table");
    if (primary && schema.fields[static_cast<size_t>(i)].nullable) {
      return Status::Binder("PRIMARY KEY column \"" + name + "\" must be NOT NULL (ALTER TABLE " + table +
                            " ALTER COLUMN " + name + " SET NOT NULL)");
    }
  }
  if (primary && !PrimaryKeyProperty(*configuration).empty()) {
    return Status::Binder("a table has at most one PRIMARY KEY");
  }
  std::string name = k.name;
  if (name.empty() && primary) {
    name = table + "_pk";
  } else if (name.empty()) {
    const std::string base = table + (k.kind == KeyConstraint::Kind::kUnique ? "_uk" : "_fk");
    for (int n = 1; name.empty(); ++n) {
      std::string candidate = base + std::to_string(n);
      if (!configuration->count(std::string(kKeyConstraintPrefix) + candidate)) name = candidate;
    }
  }
  std::string key = std::string(kKeyConstraintPrefix) + name;
  for (const auto& [existing, text] : *configuration) {
    if (IsKeyConstraintProperty(existing) && Lower(existing) == Lower(key)) {
      return Status::Binder("constraint \"" + name + "\" is declared twice");
    }
  }
  (*configuration)[key] = k.ToString();
  return key;
}

}  // namespace shoal::sql
