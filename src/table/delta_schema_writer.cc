#include "table/delta_schema_writer.h"

#include <set>

#include "table/uuid.h"

namespace shoal::table {

using columnar::DataType;
using columnar::TypeId;
using delta::SchemaField;

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Status FillType(const DataType& type, bool nullable, const std::string& where, SchemaField* out) {
  out->nullable = nullable;
  switch (type.id()) {
    case TypeId::kList: {
      out->type = "array";
      SchemaField elem;
      elem.name = "element";
      RETURN_NOT_OK(FillType(*type.element(), type.children()[0].nullable, where + ".element", &elem));
      out->children = {std::move(elem)};
      return Status::OK();
    }
    case TypeId::kMap: {
      out->type = "map";
      const auto& entry = type.children()[0].type->children();
      SchemaField key, value;
      key.name = "key";
      value.name = "value";
      RETURN_NOT_OK(FillType(*entry[0].type, false, where + ".key", &key));
      RETURN_NOT_OK(FillType(*entry[1].type, entry[1].nullable, where + ".value", &value));
      out->children = {std::move(key), std::move(value)};
      return Status::OK();
    }
    case TypeId::kStruct: {
      out->type = "struct";
      std::set<std::string> seen;
      for (const auto& f : type.children()) {
        if (f.name.empty()) return Status::InvalidArgument("empty field name in " + where);
        if (!seen.insert(Lower(f.name)).second) {
          return Status::InvalidArgument("duplicate field name " + f.name + " in " + where);
        }
        SchemaField child;
        child.name = f.name;
        RETURN_NOT_OK(FillType(*f.type, f.nullable, where + "." + f.name, &child));
        out->children.push_back(std::move(child));
      }
      return Status::OK();
    }
    case TypeId::kDecimal:
      if (type.precision() < 1 || type.precision() > 38 || type.scale() < 0 || type.scale() > type.precision()) {
        return Status::InvalidArgument("column " + where + ": Delta decimals need 1 <= precision <= 38 and 0 <= scale <= precision, got " + type.ToString());
      }
      out->type = "decimal";
      out->precision = type.precision();
      out->scale = type.scale();
      return Status::OK();
    default: {
      auto name = DeltaPrimitiveTypeName(type);
      if (!name.ok()) return name.status().WithContext("column " + where);
      out->type = *name;
      return Status::OK();
    }
  }
}

bool AnyField(const SchemaField& f, bool (*pred)(const SchemaField&)) {
  if (pred(f)) return true;
  for (const auto& c : f.children) {
    if (AnyField(c, pred)) return true;
  }
  return false;
}

}  // namespace

Result<std::string> DeltaPrimitiveTypeName(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return std::string("boolean");
    case TypeId::kInt8: return std::string("byte");
    case TypeId::kInt16: return std::string("short");
    case TypeId::kInt32: return std::string("integer");
    case TypeId::kInt64: return std::string("long");
    case TypeId::kFloat: return std::string("float");
    case TypeId::kDouble: return std::string("double");
    case TypeId::kString: return std::string("string");
    case TypeId::kBinary: return std::string("binary");
    case TypeId::kDate: return std::string("date");
    case TypeId::kTimestamp: return std::string("timestamp");
    case TypeId::kTimestampNtz: return std::string("timestamp_ntz");
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) + ")";
    default:
      return Status::NotSupported("Delta tables cannot store type " + type.ToString());
  }
}

Result<SchemaField> ToDeltaSchema(const columnar::Schema& schema, const ColumnSpecs& specs) {
  if (schema.fields.empty()) return Status::InvalidArgument("a Delta table needs at least one column");
  SchemaField root;
  root.type = "struct";
  std::set<std::string> seen;
  for (const auto& f : schema.fields) {
    if (f.name.empty()) return Status::InvalidArgument("empty column name");
    if (!seen.insert(Lower(f.name)).second) return Status::InvalidArgument("duplicate column name " + f.name);
    SchemaField col;
    col.name = f.name;
    RETURN_NOT_OK(FillType(*f.type, f.nullable, f.name, &col));
    root.children.push_back(std::move(col));
  }
  for (const auto& [name, spec] : specs) {
    int idx = schema.Find(name);
    if (idx < 0) return Status::InvalidArgument("column options name unknown column " + name);
    SchemaField& col = root.children[idx];
    if (spec.comment) col.metadata["comment"] = *spec.comment;
    if (spec.identity) {
      if (col.type != "long") {
        return Status::InvalidArgument("identity column " + col.name + " must be BIGINT, not " + col.TypeName());
      }
      if (spec.identity->step == 0) {
        return Status::InvalidArgument("identity column " + col.name + ": INCREMENT BY must not be 0");
      }
      if (spec.generation_expression) {
        return Status::InvalidArgument("column " + col.name + " cannot be both an identity and a generated column");
      }
      col.metadata["delta.identity.start"] = spec.identity->start;
      col.metadata["delta.identity.step"] = spec.identity->step;
      col.metadata["delta.identity.allowExplicitInsert"] = spec.identity->allow_explicit_insert;
    }
    if (spec.generation_expression) col.metadata["delta.generationExpression"] = *spec.generation_expression;
    if (spec.default_expression) col.metadata["CURRENT_DEFAULT"] = *spec.default_expression;
  }
  return root;
}

void AssignColumnMapping(SchemaField* node, int64_t* max_column_id) {
  for (auto& child : node->children) {
    // Only struct fields carry metadata; array elements and map keys/values are not fields.
    if (node->IsStruct()) {
      if (!child.ColumnMappingId()) child.metadata["delta.columnMapping.id"] = ++*max_column_id;
      if (!child.PhysicalName()) child.metadata["delta.columnMapping.physicalName"] = "col-" + RandomUuid();
    }
    AssignColumnMapping(&child, max_column_id);
  }
}

bool SchemaUsesTimestampNtz(const SchemaField& root) {
  return AnyField(root, [](const SchemaField& f) { return f.type == "timestamp_ntz"; });
}
bool SchemaUsesIdentity(const SchemaField& root) {
  for (const auto& c : root.children) {
    if (c.IsIdentityColumn()) return true;
  }
  return false;
}
bool SchemaUsesGeneratedColumns(const SchemaField& root) {
  for (const auto& c : root.children) {
    if (c.GenerationExpression()) return true;
  }
  return false;
}
bool SchemaUsesColumnDefaults(const SchemaField& root) {
  for (const auto& c : root.children) {
    if (c.DefaultExpression()) return true;
  }
  return false;
}

}  // namespace shoal::table
