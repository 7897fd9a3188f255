#include "delta/checkpoint_batch_decoder.h"

#include <limits>
#include <type_traits>
#include <string_view>

namespace shoal::delta {
namespace {

using columnar::TypeId;
using columnar::Vector;

int ChildIndex(const Vector& v, std::string_view name) {
  const auto& fields = v.type()->children();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool IsString(const Vector& v) { return v.id() == TypeId::kString || v.id() == TypeId::kBinary; }

// Integer value of row i (any signed width; UInt64 within int64 range).
bool IntAt(const Vector& v, int64_t i, int64_t* out) {
  switch (v.id()) {
    case TypeId::kInt8: *out = v.Get<int8_t>(i); return true;
    case TypeId::kInt16: *out = v.Get<int16_t>(i); return true;
    case TypeId::kInt32: *out = v.Get<int32_t>(i); return true;
    case TypeId::kInt64: *out = v.Get<int64_t>(i); return true;
    case TypeId::kUInt64: {
      uint64_t u = v.Get<uint64_t>(i);
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
      *out = static_cast<int64_t>(u);
      return true;
    }
    default: return false;
  }
}

// Struct child `c` of `s` (-1: absent). The child is null for row i when absent.
const Vector* Child(const Vector& s, int c) { return c < 0 ? nullptr : s.child(static_cast<size_t>(c)).get(); }
bool Present(const Vector* v, int64_t i) { return v && v->IsValid(i); }

bool RequiredString(const Vector* v, int64_t i, std::string* out) {
  if (!Present(v, i) || !IsString(*v)) return false;
  out->assign(v->GetString(i));
  return true;
}

bool OptionalString(const Vector* v, int64_t i, std::optional<std::string>* out) {
  if (!Present(v, i)) {
    out->reset();
    return true;
  }
  if (!IsString(*v)) return false;
  out->emplace(v->GetString(i));
  return true;
}

bool RequiredInt(const Vector* v, int64_t i, int64_t* out) { return Present(v, i) && IntAt(*v, i, out); }

bool OptionalInt(const Vector* v, int64_t i, std::optional<int64_t>* out) {
  if (!Present(v, i)) {
    out->reset();
    return true;
  }
  int64_t x;
  if (!IntAt(*v, i, &x)) return false;
  *out = x;
  return true;
}

bool RequiredBool(const Vector* v, int64_t i, bool* out) {
  if (!Present(v, i) || v->id() != TypeId::kBoolean) return false;
  *out = v->Get<uint8_t>(i) != 0;
  return true;
}

bool OptionalBool(const Vector* v, int64_t i, std::optional<bool>* out) {
  if (!Present(v, i)) {
    out->reset();
    return true;
  }
  if (v->id() != TypeId::kBoolean) return false;
  *out = v->Get<uint8_t>(i) != 0;
  return true;
}

// A map<string, string> row as partition values (null values kept) or tags (`drop_nulls`).
// Duplicate keys decline (the JSON route keeps the last one).
template <typename M>
bool MapRow(const Vector& v, int64_t i, bool drop_nulls, M* out) {
  if (v.id() != TypeId::kMap || v.children().empty()) return false;
  const Vector& entries = *v.child(0);
  if (entries.children().size() < 2) return false;
  const Vector& keys = *entries.child(0);
  const Vector& values = *entries.child(1);
  if (!IsString(keys) || !IsString(values)) return false;
  const int64_t* o = v.offsets();
  for (int64_t k = o[i]; k < o[i + 1]; ++k) {
    if (keys.IsNull(k)) return false;
    std::string key(keys.GetString(k));
    if (out->count(key)) return false;
    if (values.IsNull(k)) {
      if (drop_nulls) {
        // A later non-null duplicate would win in the JSON route: decline to be safe.
        for (int64_t j = k + 1; j < o[i + 1]; ++j) {
          if (!keys.IsNull(j) && keys.GetString(j) == key) return false;
        }
        continue;
      }
      if constexpr (std::is_same_v<typename M::mapped_type, std::optional<std::string>>) {
        out->emplace(std::move(key), std::nullopt);
      }
      continue;
    }
    out->emplace(std::move(key), std::string(values.GetString(k)));
  }
  return true;
}

}  // namespace

FileActionColumnDecoder::FileActionColumnDecoder(const Vector& column, bool is_add)
    : column_(column), is_add_(is_add) {
  if (column.id() != TypeId::kStruct) {
    usable_ = false;
    return;
  }
  path_ = ChildIndex(column, "path");
  partition_values_ = ChildIndex(column, "partitionValues");
  size_ = ChildIndex(column, "size");
  modification_time_ = ChildIndex(column, "modificationTime");
  data_change_ = ChildIndex(column, "dataChange");
  stats_ = ChildIndex(column, "stats");
  stats_parsed_ = ChildIndex(column, "stats_parsed");
  tags_ = ChildIndex(column, "tags");
  deletion_vector_ = ChildIndex(column, "deletionVector");
  base_row_id_ = ChildIndex(column, "baseRowId");
  default_row_commit_version_ = ChildIndex(column, "defaultRowCommitVersion");
  clustering_provider_ = ChildIndex(column, "clusteringProvider");
  deletion_timestamp_ = ChildIndex(column, "deletionTimestamp");
  extended_file_metadata_ = ChildIndex(column, "extendedFileMetadata");
  if (deletion_vector_ >= 0) {
    const Vector& dv = *column.child(static_cast<size_t>(deletion_vector_));
    if (dv.id() != TypeId::kStruct) {
      usable_ = false;
      return;
    }
    dv_storage_type_ = ChildIndex(dv, "storageType");
    dv_path_ = ChildIndex(dv, "pathOrInlineDv");
    dv_offset_ = ChildIndex(dv, "offset");
    dv_size_ = ChildIndex(dv, "sizeInBytes");
    dv_cardinality_ = ChildIndex(dv, "cardinality");
    dv_max_row_index_ = ChildIndex(dv, "maxRowIndex");
  }
}

std::optional<Action> FileActionColumnDecoder::Decode(int64_t row) const {
  if (!usable_) return std::nullopt;
  std::optional<Action> out;
  if (is_add_) {
    AddFile a;
    if (!DecodeAdd(row, &a)) return std::nullopt;
    out.emplace(std::in_place_type<AddFile>, std::move(a));
  } else {
    RemoveFile r;
    if (!DecodeRemove(row, &r)) return std::nullopt;
    out.emplace(std::in_place_type<RemoveFile>, std::move(r));
  }
  return out;
}

bool FileActionColumnDecoder::Stats(int64_t row, std::optional<std::string>* out) const {
  const Vector* parsed = Child(column_, stats_parsed_);
  const Vector* stats = Child(column_, stats_);
  // Only stats_parsed: the JSON route re-serializes it.
  if (!Present(stats, row) && Present(parsed, row)) return false;
  return OptionalString(stats, row, out);
}

namespace {

struct DvColumns {
  const Vector* storage_type;
  const Vector* path;
  const Vector* offset;
  const Vector* size;
  const Vector* cardinality;
  const Vector* max_row_index;
};

bool DecodeDv(const DvColumns& c, int64_t row, std::optional<DeletionVectorDescriptor>* out) {
  DeletionVectorDescriptor d;
  std::string st;
  if (!RequiredString(c.storage_type, row, &st)) return false;
  if (st.size() != 1 || (st[0] != 'u' && st[0] != 'i' && st[0] != 'p')) return false;
  d.storage_type = st[0];
  if (!RequiredString(c.path, row, &d.path_or_inline_dv)) return false;
  std::optional<int64_t> offset;
  if (!OptionalInt(c.offset, row, &offset)) return false;
  if (offset) {
    if (*offset < 0 || *offset > std::numeric_limits<int32_t>::max()) return false;
    d.offset = static_cast<int32_t>(*offset);
  }
  int64_t size;
  if (!RequiredInt(c.size, row, &size) || size < 0 || size > std::numeric_limits<int32_t>::max()) return false;
  d.size_in_bytes = static_cast<int32_t>(size);
  if (!RequiredInt(c.cardinality, row, &d.cardinality) || d.cardinality < 0) return false;
  if (!OptionalInt(c.max_row_index, row, &d.max_row_index)) return false;
  *out = std::move(d);
  return true;
}

}  // namespace

bool FileActionColumnDecoder::DecodeAdd(int64_t row, AddFile* a) const {
  const Vector& s = column_;
  if (!RequiredString(Child(s, path_), row, &a->path)) return false;
  const Vector* pv = Child(s, partition_values_);
  if (!Present(pv, row) || !MapRow(*pv, row, false, &a->partition_values)) return false;
  if (!RequiredInt(Child(s, size_), row, &a->size)) return false;
  if (!RequiredInt(Child(s, modification_time_), row, &a->modification_time)) return false;
  if (!RequiredBool(Child(s, data_change_), row, &a->data_change)) return false;
  if (!Stats(row, &a->stats)) return false;
  const Vector* tags = Child(s, tags_);
  if (Present(tags, row)) {
    a->tags.emplace();
    if (!MapRow(*tags, row, true, &*a->tags)) return false;
  }
  if (!Dv(row, &a->deletion_vector)) return false;
  if (!OptionalInt(Child(s, base_row_id_), row, &a->base_row_id)) return false;
  if (!OptionalInt(Child(s, default_row_commit_version_), row, &a->default_row_commit_version)) return false;
  return OptionalString(Child(s, clustering_provider_), row, &a->clustering_provider);
}

bool FileActionColumnDecoder::DecodeRemove(int64_t row, RemoveFile* r) const {
  const Vector& s = column_;
  if (!RequiredString(Child(s, path_), row, &r->path)) return false;
  if (!OptionalInt(Child(s, deletion_timestamp_), row, &r->deletion_timestamp)) return false;
  if (!RequiredBool(Child(s, data_change_), row, &r->data_change)) return false;
  if (!OptionalBool(Child(s, extended_file_metadata_), row, &r->extended_file_metadata)) return false;
  const Vector* pv = Child(s, partition_values_);
  if (Present(pv, row)) {
    r->partition_values.emplace();
    if (!MapRow(*pv, row, false, &*r->partition_values)) return false;
  }
  if (!OptionalInt(Child(s, size_), row, &r->size)) return false;
  const Vector* tags = Child(s, tags_);
  if (Present(tags, row)) {
    r->tags.emplace();
    if (!MapRow(*tags, row, true, &*r->tags)) return false;
  }
  if (!Dv(row, &r->deletion_vector)) return false;
  if (!OptionalInt(Child(s, base_row_id_), row, &r->base_row_id)) return false;
  if (!OptionalInt(Child(s, default_row_commit_version_), row, &r->default_row_commit_version)) return false;
  return Stats(row, &r->stats);
}

bool FileActionColumnDecoder::Dv(int64_t row, std::optional<DeletionVectorDescriptor>* out) const {
  const Vector* dv = Child(column_, deletion_vector_);
  if (!Present(dv, row)) {
    out->reset();
    return true;
  }
  DvColumns c{Child(*dv, dv_storage_type_), Child(*dv, dv_path_),        Child(*dv, dv_offset_),
              Child(*dv, dv_size_),         Child(*dv, dv_cardinality_), Child(*dv, dv_max_row_index_)};
  return DecodeDv(c, row, out);
}

}  // namespace shoal::delta
