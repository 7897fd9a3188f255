#include "scan/column_adapter.h"

#include <cctype>

#include "expr/cast.h"

namespace shoal::scan {
namespace {

using columnar::TypeId;

bool IEquals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool IsTimestamp(TypeId id) { return id == TypeId::kTimestamp || id == TypeId::kTimestampNtz; }

int FindByName(const std::vector<columnar::Field>& fields, const std::string& name) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return static_cast<int>(i);
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (IEquals(fields[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

// A vector of `type` with the validity and values of `in` (same physical layout).
columnar::VectorPtr Relabel(columnar::VectorPtr in, const columnar::TypePtr& type) {
  auto out = std::make_shared<columnar::Vector>(type);
  out->values() = std::move(in->values());
  out->validity() = std::move(in->validity());
  out->SetLength(in->size());
  return out;
}

Result<columnar::VectorPtr> AdaptStruct(const columnar::VectorPtr& in, const TableColumn& col) {
  const auto& file_fields = in->type()->children();
  auto out = std::make_shared<columnar::Vector>(col.type);
  out->children().clear();  // the constructor made empty ones
  out->validity() = in->validity();
  for (const TableColumn& child : col.children) {
    int f = FindByName(file_fields, child.physical_name);
    if (f < 0) {
      out->children().push_back(columnar::Vector::MakeNull(child.type, in->size()));
    } else {
      ASSIGN_OR_RETURN(columnar::VectorPtr c, AdaptColumn(in->child(f), child));
      out->children().push_back(std::move(c));
    }
  }
  out->SetLength(in->size());
  return out;
}

}  // namespace

std::vector<std::optional<int32_t>> TopLevelFieldIds(const parquet::FileMetaData& metadata) {
  std::vector<std::optional<int32_t>> ids;
  const auto& el = metadata.schema;
  if (el.empty()) return ids;
  int top = el[0].num_children.value_or(0);
  size_t pos = 1;
  for (int f = 0; f < top && pos < el.size(); ++f) {
    ids.push_back(el[pos].field_id);
    // Skip the subtree: count the elements still owed to open groups.
    int64_t pending = el[pos].num_children.value_or(0);
    ++pos;
    while (pending > 0 && pos < el.size()) {
      pending += el[pos].num_children.value_or(0) - 1;
      ++pos;
    }
  }
  return ids;
}

int FindFileField(const columnar::Schema& file_schema,
                  const std::vector<std::optional<int32_t>>& file_field_ids, const TableColumn& column,
                  ColumnMappingMode mode) {
  if (mode == ColumnMappingMode::kId && column.field_id) {
    for (size_t i = 0; i < file_field_ids.size() && i < file_schema.size(); ++i) {
      if (file_field_ids[i] == column.field_id) return static_cast<int>(i);
    }
  }
  // Never fall back to the logical name: after a rename it may belong to another column.
  return FindByName(file_schema.fields, column.physical_name);
}

Result<columnar::VectorPtr> AdaptColumn(columnar::VectorPtr in, const TableColumn& col) {
  const columnar::TypePtr& to = col.type;
  if (in->type()->Equals(*to)) {
    // Equal types may still differ in nested field names (column mapping).
    if (!to->IsNested()) return in;
  }
  TypeId from_id = in->id();
  if (to->id() == TypeId::kNull) return columnar::Vector::MakeNull(to, in->size());
  if (to->id() == TypeId::kStruct && from_id == TypeId::kStruct) return AdaptStruct(in, col);
  if ((to->id() == TypeId::kList && from_id == TypeId::kList) ||
      (to->id() == TypeId::kMap && from_id == TypeId::kMap)) {
    auto out = std::make_shared<columnar::Vector>(to);
    out->values() = in->values();
    out->validity() = in->validity();
    columnar::VectorPtr child;
    if (to->id() == TypeId::kList) {
      if (col.children.size() != 1) return Status::Internal("list column without element: " + col.name);
      ASSIGN_OR_RETURN(child, AdaptColumn(in->child(0), col.children[0]));
    } else {
      if (col.children.size() != 2) return Status::Internal("map column without key/value: " + col.name);
      const columnar::VectorPtr& entries = in->child(0);
      auto e = std::make_shared<columnar::Vector>(to->element());
      e->children().clear();
      for (int k = 0; k < 2; ++k) {
        columnar::VectorPtr part = k < static_cast<int>(entries->children().size())
                                       ? entries->child(k)
                                       : columnar::Vector::MakeNull(col.children[k].type, entries->size());
        ASSIGN_OR_RETURN(columnar::VectorPtr a, AdaptColumn(part, col.children[k]));
        e->children().push_back(std::move(a));
      }
      e->validity() = entries->validity();
      e->SetLength(entries->size());
      child = std::move(e);
    }
    out->children()[0] = std::move(child);
    out->SetLength(in->size());
    return out;
  }
  if (IsTimestamp(from_id) && IsTimestamp(to->id())) return Relabel(std::move(in), to);
  if (to->IsNested() || in->type()->IsNested()) {
    return Status::NotSupported("cannot read file column of type " + in->type()->ToString() +
                                " as " + to->ToString() + " for column '" + col.name + "'");
  }
  auto cast = expr::CastVector(in, to);
  if (!cast.ok()) {
    return cast.status().WithContext("reading column '" + col.name + "' of type " +
                                     in->type()->ToString() + " as " + to->ToString());
  }
  return *cast;
}

std::optional<columnar::Value> AdaptBound(const columnar::Value& v, const columnar::TypePtr& to) {
  if (v.type()->Equals(*to)) return v;
  TypeId f = v.type()->id(), t = to->id();
  if (IsTimestamp(f) && IsTimestamp(t)) return columnar::Value::Integer(to, v.GetInt());
  bool widening = (v.type()->IsInteger() && (to->IsInteger() || to->IsFloating() || t == TypeId::kDecimal)) ||
                  (f == TypeId::kFloat && t == TypeId::kDouble) ||
                  (f == TypeId::kDecimal && t == TypeId::kDecimal) ||
                  (f == TypeId::kDate && IsTimestamp(t));
  if (!widening) return std::nullopt;
  auto c = expr::CastValue(v, to);
  if (!c.ok()) return std::nullopt;
  return *c;
}

}  // namespace shoal::scan
