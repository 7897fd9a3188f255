#include "scan/delta_schema.h"

#include <algorithm>
#include <cctype>

namespace shoal::scan {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<TableColumn> BuildColumn(const delta::SchemaField& f, ColumnMappingMode mode) {
  TableColumn col;
  col.name = f.name;
  col.physical_name = f.name;
  col.nullable = f.nullable;
  if (mode != ColumnMappingMode::kNone) {
    if (auto p = f.PhysicalName()) col.physical_name = *p;
    if (auto id = f.ColumnMappingId()) col.field_id = static_cast<int32_t>(*id);
  }
  if (f.IsStruct() || f.IsArray() || f.IsMap()) {
    for (const delta::SchemaField& c : f.children) {
      ASSIGN_OR_RETURN(TableColumn child, BuildColumn(c, mode));
      col.children.push_back(std::move(child));
    }
  }
  if (f.IsStruct()) {
    std::vector<columnar::Field> fields;
    for (const TableColumn& c : col.children) fields.push_back({c.name, c.type, c.nullable});
    col.type = columnar::Struct(std::move(fields));
  } else if (f.IsArray()) {
    if (col.children.size() != 1) return Status::Corruption("array type of '" + f.name + "' has no element");
    col.type = columnar::List(col.children[0].type, col.children[0].nullable);
  } else if (f.IsMap()) {
    if (col.children.size() != 2) return Status::Corruption("map type of '" + f.name + "' lacks key or value");
    col.type = columnar::Map(col.children[0].type, col.children[1].type, col.children[1].nullable);
  } else {
    ASSIGN_OR_RETURN(col.type, DeltaTypeToColumnar(f));
  }
  return col;
}

}  // namespace

Result<columnar::TypePtr> DeltaTypeToColumnar(const delta::SchemaField& f) {
  const std::string& t = f.type;
  if (t == "string") return columnar::String();
  if (t == "long") return columnar::Int64();
  if (t == "integer") return columnar::Int32();
  if (t == "short") return columnar::Int16();
  if (t == "byte") return columnar::Int8();
  if (t == "float") return columnar::Float32();
  if (t == "double") return columnar::Float64();
  if (t == "boolean") return columnar::Boolean();
  if (t == "binary") return columnar::Binary();
  if (t == "date") return columnar::Date();
  if (t == "timestamp") return columnar::Timestamp();
  if (t == "timestamp_ntz") return columnar::TimestampNtz();
  if (t == "void") return columnar::NullType();
  if (t == "decimal") {
    if (f.precision < 1 || f.precision > 38 || f.scale < 0 || f.scale > f.precision) {
      return Status::Corruption("invalid decimal(" + std::to_string(f.precision) + "," +
                                std::to_string(f.scale) + ") for column '" + f.name + "'");
    }
    return columnar::Decimal(f.precision, f.scale);
  }
  if (t == "struct" || t == "array" || t == "map") {
    ASSIGN_OR_RETURN(TableColumn c, BuildColumn(f, ColumnMappingMode::kNone));
    return c.type;
  }
  return Status::NotSupported("Delta type '" + t + "' of column '" + f.name + "' is not supported");
}

Result<ColumnMappingMode> ColumnMappingModeOf(const delta::Metadata& metadata) {
  auto it = metadata.configuration.find("delta.columnMapping.mode");
  if (it == metadata.configuration.end()) return ColumnMappingMode::kNone;
  std::string m = Lower(it->second);
  if (m == "none") return ColumnMappingMode::kNone;
  if (m == "name") return ColumnMappingMode::kName;
  if (m == "id") return ColumnMappingMode::kId;
  return Status::NotSupported("column mapping mode '" + it->second + "' is not supported");
}

Result<TableSchema> BuildTableSchema(const delta::Metadata& metadata) {
  TableSchema out;
  ASSIGN_OR_RETURN(out.mapping, ColumnMappingModeOf(metadata));
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  for (const delta::SchemaField& f : root.children) {
    ASSIGN_OR_RETURN(TableColumn col, BuildColumn(f, out.mapping));
    out.schema.fields.push_back({col.name, col.type, col.nullable});
    out.columns.push_back(std::move(col));
  }
  for (const std::string& p : metadata.partition_columns) {
    int idx = -1;
    for (size_t i = 0; i < out.columns.size(); ++i) {
      if (out.columns[i].name == p) idx = static_cast<int>(i);
    }
    if (idx < 0) {
      for (size_t i = 0; i < out.columns.size(); ++i) {
        if (Lower(out.columns[i].name) == Lower(p)) idx = static_cast<int>(i);
      }
    }
    if (idx < 0) return Status::Corruption("partition column '" + p + "' is not in the table schema");
    out.columns[idx].is_partition = true;
  }
  return out;
}

TableColumn ColumnForType(const std::string& name, const columnar::TypePtr& type, bool nullable) {
  TableColumn col;
  col.name = name;
  col.physical_name = name;
  col.type = type;
  col.nullable = nullable;
  for (const columnar::Field& f : type->children()) {
    if (type->id() == columnar::TypeId::kMap) {
      // MAP's single child is the entries struct; expose key and value directly.
      for (const columnar::Field& kv : f.type->children()) {
        col.children.push_back(ColumnForType(kv.name, kv.type, kv.nullable));
      }
    } else {
      col.children.push_back(ColumnForType(f.name, f.type, f.nullable));
    }
  }
  return col;
}

}  // namespace shoal::scan
