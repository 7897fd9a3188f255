#include "sql/write/identity_columns.h"

#include <strings.h>

#include "delta/json_fields.h"
#include "delta/schema_json.h"

namespace shoal::sql {

Result<columnar::VectorPtr> IdentityValues(const IdentitySequence& seq, int64_t first, int64_t n,
                                           const std::string& column) {
  auto v = columnar::Vector::Make(columnar::Int64(), n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t index = 0, offset = 0, value = 0;
    if (__builtin_add_overflow(first, i, &index) || __builtin_mul_overflow(index, seq.step, &offset) ||
        __builtin_add_overflow(seq.base, offset, &value)) {
      return Status::OutOfRange("identity column " + column + " overflowed BIGINT");
    }
    v->Append<int64_t>(value);
  }
  return v;
}

Result<IdentityColumns> IdentityColumns::Make(const delta::Metadata& metadata, const columnar::Schema& table_schema) {
  IdentityColumns r;
  r.columns_.resize(table_schema.size());
  ASSIGN_OR_RETURN(delta::SchemaField root, delta::ParseSchemaJson(metadata.schema_string));
  for (size_t c = 0; c < table_schema.size(); ++c) {
    for (const auto& f : root.children) {
      if (!f.IsIdentityColumn() || strcasecmp(f.name.c_str(), table_schema.fields[c].name.c_str()) != 0) continue;
      Column& col = r.columns_[c];
      col.identity = true;
      col.allow_explicit_insert = f.IdentityAllowExplicitInsert().value_or(false);
      col.name = f.name;
      col.start = f.IdentityStart().value_or(1);
      col.step = f.IdentityStep().value_or(1);
      if (col.step == 0) return Status::Corruption("identity column " + f.name + " has delta.identity.step 0");
      col.high_water_mark = f.IdentityHighWaterMark();
      r.any_ = true;
    }
  }
  return r;
}

Status IdentityColumns::CheckExplicitInsert(size_t c) const {
  if (!IsAlways(c)) return Status::OK();
  return Status::Binder("Providing values for GENERATED ALWAYS AS IDENTITY column " + columns_[c].name +
                        " is not supported.");
}

Status IdentityColumns::UpdateNotSupported(size_t c) const {
  return Status::NotSupported("UPDATE on IDENTITY column \"" + columns_[c].name +
                              "\" is not supported (DELTA_IDENTITY_COLUMNS_UPDATE_NOT_SUPPORTED)");
}

IdentitySequence IdentityColumns::Sequence(size_t c) const {
  const Column& col = columns_[c];
  IdentitySequence seq;
  seq.step = col.step;
  seq.base = col.high_water_mark ? *col.high_water_mark + col.step : col.start;
  return seq;
}

Result<delta::Metadata> IdentityColumns::WithHighWaterMarks(const delta::Metadata& metadata,
                                                            const std::vector<int64_t>& used) const {
  delta::Json schema = delta::Json::parse(metadata.schema_string, nullptr, false);
  if (!schema.is_object() || !schema.contains("fields") || !schema["fields"].is_array()) {
    return Status::Corruption("table schema is not a JSON struct");
  }
  for (size_t c = 0; c < columns_.size() && c < used.size(); ++c) {
    if (!columns_[c].identity || used[c] <= 0) continue;
    ASSIGN_OR_RETURN(columnar::VectorPtr last, IdentityValues(Sequence(c), used[c] - 1, 1, columns_[c].name));
    for (auto& f : schema["fields"]) {
      if (f.is_object() && f.contains("name") && f["name"].is_string() &&
          f["name"].get<std::string>() == columns_[c].name) {
        f["metadata"]["delta.identity.highWaterMark"] = last->data<int64_t>()[0];
      }
    }
  }
  delta::Metadata updated = metadata;
  updated.schema_string = delta::JsonText(schema);
  return updated;
}

}  // namespace shoal::sql
