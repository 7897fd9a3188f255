#include "table/column_default_alter.h"

#include <strings.h>

#include "delta/json_fields.h"
#include "delta/schema_json.h"

namespace shoal::table {

Result<AlterResult> SetColumnDefault(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                     const std::string& column, const std::optional<std::string>& expression) {
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  delta::SchemaField* field = nullptr;
  for (auto& c : root.children) {
    if (strcasecmp(c.name.c_str(), column.c_str()) == 0) field = &c;
  }
  if (!field) return Status::Binder("Column " + column + " does not exist");
  if (expression) {
    if (field->GenerationExpression()) {
      return Status::InvalidArgument("column " + field->name + " is a generated column and cannot have a DEFAULT");
    }
    if (field->IsIdentityColumn()) {
      return Status::InvalidArgument("column " + field->name + " is an identity column and cannot have a DEFAULT");
    }
    if (expression->empty()) return Status::InvalidArgument("column " + field->name + ": empty DEFAULT expression");
    field->metadata["CURRENT_DEFAULT"] = *expression;
  } else if (field->metadata.is_object()) {
    field->metadata.erase("CURRENT_DEFAULT");
  }
  AlterResult r;
  r.metadata = metadata;
  r.metadata.schema_string = delta::SerializeSchemaJson(root);
  ASSIGN_OR_RETURN(r.protocol, UpgradeProtocolFor(protocol, r.metadata));
  r.operation = "CHANGE COLUMN";
  delta::Json col = delta::Json::object();
  col["name"] = field->name;
  col["type"] = delta::SchemaTypeToJson(*field);
  col["nullable"] = field->nullable;
  col["metadata"] = field->metadata;
  r.parameters["column"] = delta::JsonText(col);
  return r;
}

}  // namespace shoal::table
