#include "delta/action_line_parser.h"

#include <cstring>
#include <limits>

#include "delta/json_cursor.h"

namespace shoal::delta {
namespace {

using Cursor = JsonCursor;

// Calls on_member(key) for each member of the object at the cursor; on_member parses the value.
template <typename F>
bool ForEachMember(Cursor& c, F&& on_member) {
  if (!c.Consume('{')) return false;
  if (c.Consume('}')) return true;
  while (true) {
    std::string_view key;
    if (!c.Key(&key)) return false;
    if (!c.Consume(':')) return false;
    if (!on_member(key)) return false;
    if (c.Consume(',')) continue;
    return c.Consume('}');
  }
}

// Marks field `bit` seen; false on a duplicate key (the DOM keeps the last value: decline).
class SeenFields {
 public:
  bool Mark(int bit) {
    uint32_t m = 1u << bit;
    if (bits_ & m) return false;
    bits_ |= m;
    return true;
  }
  bool Has(int bit) const { return (bits_ & (1u << bit)) != 0; }

 private:
  uint32_t bits_ = 0;
};

bool OptString(Cursor& c, std::optional<std::string>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  out->emplace();
  return c.String(&**out);
}

bool OptInt64(Cursor& c, std::optional<int64_t>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  int64_t v;
  if (!c.Int64(&v)) return false;
  *out = v;
  return true;
}

bool OptBool(Cursor& c, std::optional<bool>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  bool v;
  if (!c.Bool(&v)) return false;
  *out = v;
  return true;
}

// {"k": "v" | null, ...}; duplicate keys decline.
bool PartitionMap(Cursor& c, PartitionValues* out) {
  out->clear();
  return ForEachMember(c, [&](std::string_view key) {
    std::optional<std::string> v;
    if (!OptString(c, &v)) return false;
    return out->emplace(std::string(key), std::move(v)).second;
  });
}

// {"k": "v", ...} where null values are dropped (as the DOM path does); duplicates decline.
bool TagMap(Cursor& c, std::optional<StringMap>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  out->emplace();
  StringMap& m = **out;
  std::vector<std::string> null_keys;
  return ForEachMember(c, [&](std::string_view key) {
    std::string k(key);
    if (m.count(k)) return false;
    for (const auto& n : null_keys) {
      if (n == k) return false;
    }
    if (c.ConsumeNull()) {
      null_keys.push_back(std::move(k));
      return true;
    }
    std::string v;
    if (!c.String(&v)) return false;
    m.emplace(std::move(k), std::move(v));
    return true;
  });
}

bool DeletionVector(Cursor& c, std::optional<DeletionVectorDescriptor>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  DeletionVectorDescriptor d;
  SeenFields seen;
  std::string storage;
  std::optional<int64_t> offset;
  int64_t size = 0;
  bool ok = ForEachMember(c, [&](std::string_view key) {
    if (key == "storageType") return seen.Mark(0) && c.String(&storage);
    if (key == "pathOrInlineDv") return seen.Mark(1) && c.String(&d.path_or_inline_dv);
    if (key == "offset") return seen.Mark(2) && OptInt64(c, &offset);
    if (key == "sizeInBytes") return seen.Mark(3) && c.Int64(&size);
    if (key == "cardinality") return seen.Mark(4) && c.Int64(&d.cardinality);
    if (key == "maxRowIndex") return seen.Mark(5) && OptInt64(c, &d.max_row_index);
    return c.SkipValue();
  });
  if (!ok || !seen.Has(0) || !seen.Has(1) || !seen.Has(3) || !seen.Has(4)) return false;
  if (storage.size() != 1 || (storage[0] != 'u' && storage[0] != 'i' && storage[0] != 'p')) {
    return false;
  }
  d.storage_type = storage[0];
  if (offset) {
    if (*offset < 0 || *offset > std::numeric_limits<int32_t>::max()) return false;
    d.offset = static_cast<int32_t>(*offset);
  }
  if (size < 0 || size > std::numeric_limits<int32_t>::max()) return false;
  d.size_in_bytes = static_cast<int32_t>(size);
  if (d.cardinality < 0) return false;
  *out = std::move(d);
  return true;
}

bool ParseAddBody(Cursor& c, AddFile* a) {
  SeenFields seen;
  bool ok = ForEachMember(c, [&](std::string_view key) {
    switch (key.size()) {
      case 4:
        if (key == "path") return seen.Mark(0) && c.String(&a->path);
        if (key == "size") return seen.Mark(2) && c.Int64(&a->size);
        if (key == "tags") return seen.Mark(6) && TagMap(c, &a->tags);
        break;
      case 5:
        if (key == "stats") return seen.Mark(5) && OptString(c, &a->stats);
        break;
      case 9:
        if (key == "baseRowId") return seen.Mark(8) && OptInt64(c, &a->base_row_id);
        break;
      case 10:
        if (key == "dataChange") return seen.Mark(4) && c.Bool(&a->data_change);
        break;
      case 14:
        if (key == "deletionVector") return seen.Mark(7) && DeletionVector(c, &a->deletion_vector);
        break;
      case 15:
        if (key == "partitionValues") return seen.Mark(1) && PartitionMap(c, &a->partition_values);
        break;
      case 16:
        if (key == "modificationTime") return seen.Mark(3) && c.Int64(&a->modification_time);
        break;
      case 18:
        if (key == "clusteringProvider") return seen.Mark(10) && OptString(c, &a->clustering_provider);
        break;
      case 23:
        if (key == "defaultRowCommitVersion") {
          return seen.Mark(9) && OptInt64(c, &a->default_row_commit_version);
        }
        break;
      default: break;
    }
    return c.SkipValue();
  });
  // path, partitionValues, size, modificationTime and dataChange are required.
  return ok && seen.Has(0) && seen.Has(1) && seen.Has(2) && seen.Has(3) && seen.Has(4);
}

bool ParseRemoveBody(Cursor& c, RemoveFile* r) {
  SeenFields seen;
  bool ok = ForEachMember(c, [&](std::string_view key) {
    if (key == "path") return seen.Mark(0) && c.String(&r->path);
    if (key == "deletionTimestamp") return seen.Mark(1) && OptInt64(c, &r->deletion_timestamp);
    if (key == "dataChange") return seen.Mark(2) && c.Bool(&r->data_change);
    if (key == "extendedFileMetadata") return seen.Mark(3) && OptBool(c, &r->extended_file_metadata);
    if (key == "partitionValues") {
      if (!seen.Mark(4)) return false;
      if (c.ConsumeNull()) {
        r->partition_values.reset();
        return true;
      }
      r->partition_values.emplace();
      return PartitionMap(c, &*r->partition_values);
    }
    if (key == "size") return seen.Mark(5) && OptInt64(c, &r->size);
    if (key == "tags") return seen.Mark(6) && TagMap(c, &r->tags);
    if (key == "deletionVector") return seen.Mark(7) && DeletionVector(c, &r->deletion_vector);
    if (key == "baseRowId") return seen.Mark(8) && OptInt64(c, &r->base_row_id);
    if (key == "defaultRowCommitVersion") {
      return seen.Mark(9) && OptInt64(c, &r->default_row_commit_version);
    }
    if (key == "stats") return seen.Mark(10) && OptString(c, &r->stats);
    return c.SkipValue();
  });
  return ok && seen.Has(0) && seen.Has(2);
}

}  // namespace

std::optional<Action> TryParseFileActionLine(std::string_view line) {
  Cursor c(line);
  if (!c.Consume('{')) return std::nullopt;
  std::string_view kind;
  if (!c.Key(&kind) || !c.Consume(':')) return std::nullopt;
  std::optional<Action> out;
  if (kind == "add") {
    AddFile a;
    if (!ParseAddBody(c, &a)) return std::nullopt;
    out.emplace(std::in_place_type<AddFile>, std::move(a));
  } else if (kind == "remove") {
    RemoveFile r;
    if (!ParseRemoveBody(c, &r)) return std::nullopt;
    out.emplace(std::in_place_type<RemoveFile>, std::move(r));
  } else {
    return std::nullopt;
  }
  // Exactly one member: other members could be another (or a repeated) action kind.
  if (!c.Consume('}') || !c.AtEnd()) return std::nullopt;
  return out;
}

}  // namespace shoal::delta
