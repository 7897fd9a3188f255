#include "sql/session/arrow_export.h"

#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "shoal/result.h"
#include "sql/session/streaming_result_impl.h"

namespace shoal::sql {

namespace {

using columnar::TypeId;
using columnar::Vector;

// Zeroed, 64-byte aligned memory for the buffers of empty arrays (never null pointers).
const void* ZeroBuffer() {
  alignas(64) static const uint8_t zeros[64] = {};
  return zeros;
}

// ---- schema

struct SchemaData {
  std::string format;
  std::string name;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> child_ptrs;
};

void ReleaseSchema(ArrowSchema* s) {
  if (!s || !s->release) return;
  auto* d = static_cast<SchemaData*>(s->private_data);
  for (auto& c : d->children) {
    if (c->release) c->release(c.get());
  }
  delete d;
  s->release = nullptr;
}

Status FillSchema(const std::string& name, const columnar::DataType& type, bool nullable, ArrowSchema* out);

Status FillSchemaChildren(const std::vector<columnar::Field>& fields, SchemaData* d) {
  for (const auto& f : fields) {
    auto c = std::make_unique<ArrowSchema>();
    c->release = nullptr;
    RETURN_NOT_OK(FillSchema(f.name, *f.type, f.nullable, c.get()));
    d->child_ptrs.push_back(c.get());
    d->children.push_back(std::move(c));
  }
  return Status::OK();
}

void Publish(SchemaData* d, int64_t flags, ArrowSchema* out) {
  out->format = d->format.c_str();
  out->name = d->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = static_cast<int64_t>(d->children.size());
  out->children = d->child_ptrs.empty() ? nullptr : d->child_ptrs.data();
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = d;
}

Status FillSchema(const std::string& name, const columnar::DataType& type, bool nullable, ArrowSchema* out) {
  auto d = std::make_unique<SchemaData>();
  ASSIGN_OR_RETURN(d->format, ArrowFormat(type));
  d->name = name;
  int64_t flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  if (type.id() == TypeId::kMap) {
    // entries: STRUCT<key (not null), value>
    const auto& entries = type.children()[0];
    auto e = std::make_unique<SchemaData>();
    e->format = "+s";
    e->name = entries.name.empty() ? "entries" : entries.name;
    const auto& kv = entries.type->children();
    std::vector<columnar::Field> fields = {{kv[0].name, kv[0].type, false}, {kv[1].name, kv[1].type, kv[1].nullable}};
    Status st = FillSchemaChildren(fields, e.get());
    auto ec = std::make_unique<ArrowSchema>();
    Publish(e.release(), 0, ec.get());
    d->child_ptrs.push_back(ec.get());
    d->children.push_back(std::move(ec));
    if (!st.ok()) {
      for (auto& c : d->children) ReleaseSchema(c.get());
      return st;
    }
  } else {
    Status st = FillSchemaChildren(type.children(), d.get());
    if (!st.ok()) {
      for (auto& c : d->children) ReleaseSchema(c.get());
      return st;
    }
  }
  Publish(d.release(), flags, out);
  return Status::OK();
}

// ---- arrays

struct ArrayData {
  std::shared_ptr<const void> keep;                  // the batch whose buffers are shared
  std::vector<std::unique_ptr<columnar::Buffer>> owned;  // converted buffers
  std::vector<const void*> buffers;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_ptrs;
};

void ReleaseArray(ArrowArray* a) {
  if (!a || !a->release) return;
  auto* d = static_cast<ArrayData*>(a->private_data);
  for (auto& c : d->children) {
    if (c->release) c->release(c.get());
  }
  delete d;
  a->release = nullptr;
}

const void* Own(ArrayData* d, columnar::Buffer b) {
  d->owned.push_back(std::make_unique<columnar::Buffer>(std::move(b)));
  const void* p = d->owned.back()->data();
  return p ? p : ZeroBuffer();
}

const void* Shared(const columnar::Buffer& b) { return b.data() ? b.data() : ZeroBuffer(); }

// A bitmap of `n` bits from bytes (non-zero = set).
columnar::Buffer BitsFromBytes(const uint8_t* bytes, int64_t n) {
  columnar::Buffer b;
  b.ResizeZeroed(static_cast<size_t>((n + 7) / 8));
  uint8_t* out = b.data();
  for (int64_t i = 0; i < n; ++i) {
    if (bytes[i]) out[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
  }
  return b;
}

Status FillArray(const std::shared_ptr<const void>& keep, const Vector& v, ArrowArray* out);

Status FillArray(const std::shared_ptr<const void>& keep, const Vector& v, ArrowArray* out) {
  auto d = std::make_unique<ArrayData>();
  d->keep = keep;
  const int64_t n = v.size();
  const auto& type = *v.type();
  int64_t null_count = type.id() == TypeId::kNull ? n : v.CountNulls();
  const void* validity = nullptr;
  if (type.id() != TypeId::kNull && null_count > 0) validity = Own(d.get(), BitsFromBytes(v.validity().data(), n));
  auto add_children = [&](const std::vector<const Vector*>& kids) -> Status {
    for (const Vector* k : kids) {
      auto c = std::make_unique<ArrowArray>();
      c->release = nullptr;
      Status st = FillArray(keep, *k, c.get());
      if (!st.ok()) return st;
      d->child_ptrs.push_back(c.get());
      d->children.push_back(std::move(c));
    }
    return Status::OK();
  };
  Status st;
  switch (type.id()) {
    case TypeId::kNull: break;
    case TypeId::kBoolean:
      d->buffers = {validity, Own(d.get(), BitsFromBytes(v.values().data(), n))};
      break;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: d->buffers = {validity, Shared(v.values())}; break;
    case TypeId::kDecimal:
      if (type.IsWideDecimal()) {
        d->buffers = {validity, Shared(v.values())};
      } else {
        columnar::Buffer wide;
        wide.Resize(static_cast<size_t>(n) * 16);
        auto* w = wide.As<columnar::int128_t>();
        const int64_t* narrow = v.data<int64_t>();
        for (int64_t i = 0; i < n; ++i) w[i] = narrow[i];
        d->buffers = {validity, Own(d.get(), std::move(wide))};
      }
      break;
    case TypeId::kString:
    case TypeId::kBinary: d->buffers = {validity, Shared(v.values()), Shared(v.bytes())}; break;
    case TypeId::kList:
      d->buffers = {validity, Shared(v.values())};
      st = add_children({v.child(0).get()});
      break;
    case TypeId::kMap: {
      columnar::Buffer narrow;
      narrow.Resize(static_cast<size_t>(n + 1) * 4);
      auto* o32 = narrow.As<int32_t>();
      const int64_t* o64 = n > 0 ? v.offsets() : nullptr;
      for (int64_t i = 0; i <= n && o64; ++i) {
        if (o64[i] > std::numeric_limits<int32_t>::max()) {
          return Status::NotSupported("a MAP column with more than 2^31 entries in one batch cannot be exported to Arrow");
        }
        o32[i] = static_cast<int32_t>(o64[i]);
      }
      if (!o64) o32[0] = 0;
      d->buffers = {validity, Own(d.get(), std::move(narrow))};
      st = add_children({v.child(0).get()});
      break;
    }
    case TypeId::kStruct: {
      d->buffers = {validity};
      std::vector<const Vector*> kids;
      for (const auto& c : v.children()) kids.push_back(c.get());
      st = add_children(kids);
      break;
    }
  }
  if (!st.ok()) {
    for (auto& c : d->children) ReleaseArray(c.get());
    return st;
  }
  out->length = n;
  out->null_count = null_count;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(d->buffers.size());
  out->n_children = static_cast<int64_t>(d->children.size());
  out->buffers = d->buffers.empty() ? nullptr : d->buffers.data();
  out->children = d->child_ptrs.empty() ? nullptr : d->child_ptrs.data();
  out->dictionary = nullptr;
  out->release = ReleaseArray;
  out->private_data = d.release();
  return Status::OK();
}

// ---- stream

struct StreamData {
  std::unique_ptr<StreamingResult> result;
  std::string last_error;
};

int ErrnoOf(const Status& st) {
  switch (st.code()) {
    case StatusCode::kNotSupported: return ENOSYS;
    case StatusCode::kInvalidArgument: return EINVAL;
    case StatusCode::kInterrupted: return EINTR;
    case StatusCode::kOutOfMemory: return ENOMEM;
    default: return EIO;
  }
}

int StreamGetSchema(ArrowArrayStream* s, ArrowSchema* out) {
  auto* d = static_cast<StreamData*>(s->private_data);
  Status st = ExportArrowSchema(*d->result->impl().schema, out);
  if (!st.ok()) {
    d->last_error = st.ToString();
    return ErrnoOf(st);
  }
  return 0;
}

int StreamGetNext(ArrowArrayStream* s, ArrowArray* out) {
  auto* d = static_cast<StreamData*>(s->private_data);
  auto b = d->result->impl().NextBatch();
  Status st = b.status();
  if (st.ok()) {
    if (!*b) {
      std::memset(out, 0, sizeof(*out));
      out->release = nullptr;  // end of stream
      return 0;
    }
    st = ExportArrowBatch(*b, out);
  }
  if (!st.ok()) {
    d->last_error = st.ToString();
    return ErrnoOf(st);
  }
  return 0;
}

const char* StreamGetLastError(ArrowArrayStream* s) {
  auto* d = static_cast<StreamData*>(s->private_data);
  return d->last_error.empty() ? nullptr : d->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* s) {
  if (!s || !s->release) return;
  delete static_cast<StreamData*>(s->private_data);
  s->release = nullptr;
}

// A stream over batches in memory.
struct BatchListData {
  columnar::SchemaPtr schema;
  std::vector<columnar::BatchPtr> batches;
  size_t next = 0;
  std::string last_error;
};

int BatchListGetSchema(ArrowArrayStream* s, ArrowSchema* out) {
  auto* d = static_cast<BatchListData*>(s->private_data);
  Status st = ExportArrowSchema(*d->schema, out);
  if (!st.ok()) {
    d->last_error = st.ToString();
    return ErrnoOf(st);
  }
  return 0;
}

int BatchListGetNext(ArrowArrayStream* s, ArrowArray* out) {
  auto* d = static_cast<BatchListData*>(s->private_data);
  if (d->next >= d->batches.size()) {
    std::memset(out, 0, sizeof(*out));
    out->release = nullptr;  // end of stream
    return 0;
  }
  Status st = ExportArrowBatch(d->batches[d->next], out);
  if (!st.ok()) {
    d->last_error = st.ToString();
    return ErrnoOf(st);
  }
  d->batches[d->next++].reset();  // the exported array keeps it alive as long as it is needed
  return 0;
}

const char* BatchListGetLastError(ArrowArrayStream* s) {
  auto* d = static_cast<BatchListData*>(s->private_data);
  return d->last_error.empty() ? nullptr : d->last_error.c_str();
}

void BatchListRelease(ArrowArrayStream* s) {
  if (!s || !s->release) return;
  delete static_cast<BatchListData*>(s->private_data);
  s->release = nullptr;
}

}  // namespace

Status ExportArrowBatches(columnar::SchemaPtr schema, std::vector<columnar::BatchPtr> batches, ArrowArrayStream* out) {
  if (!schema) return Status::InvalidArgument("ExportArrowBatches: no schema");
  if (!out) return Status::InvalidArgument("ExportArrowBatches: no output stream");
  for (const auto& f : schema->fields) RETURN_NOT_OK(ArrowFormat(*f.type).status());
  for (const auto& b : batches) {
    if (!b || b->columns.size() != schema->size()) {
      return Status::InvalidArgument("ExportArrowBatches: a batch does not have the schema's " +
                                     std::to_string(schema->size()) + " columns");
    }
  }
  auto d = std::make_unique<BatchListData>();
  d->schema = std::move(schema);
  d->batches = std::move(batches);
  out->get_schema = BatchListGetSchema;
  out->get_next = BatchListGetNext;
  out->get_last_error = BatchListGetLastError;
  out->release = BatchListRelease;
  out->private_data = d.release();
  return Status::OK();
}

Result<std::string> ArrowFormat(const columnar::DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: return std::string("n");
    case TypeId::kBoolean: return std::string("b");
    case TypeId::kInt8: return std::string("c");
    case TypeId::kInt16: return std::string("s");
    case TypeId::kInt32: return std::string("i");
    case TypeId::kInt64: return std::string("l");
    case TypeId::kUInt64: return std::string("L");
    case TypeId::kFloat: return std::string("f");
    case TypeId::kDouble: return std::string("g");
    case TypeId::kDecimal: return "d:" + std::to_string(type.precision()) + "," + std::to_string(type.scale());
    case TypeId::kString: return std::string("U");
    case TypeId::kBinary: return std::string("Z");
    case TypeId::kDate: return std::string("tdD");
    case TypeId::kTime: return std::string("ttu");
    case TypeId::kTimestamp: return std::string("tsu:UTC");
    case TypeId::kTimestampNtz: return std::string("tsu:");
    case TypeId::kList: return std::string("+L");
    case TypeId::kStruct: return std::string("+s");
    case TypeId::kMap: return std::string("+m");
  }
  return Status::NotSupported("type " + type.ToString() + " has no Arrow form");
}

Status ExportArrowSchema(const columnar::Schema& schema, ArrowSchema* out) {
  return FillSchema("", *columnar::Struct(schema.fields), false, out);
}

Status ExportArrowBatch(const columnar::BatchPtr& batch, ArrowArray* out) {
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < batch->columns.size(); ++i) fields.push_back({"", batch->columns[i]->type(), true});
  Vector root(columnar::Struct(std::move(fields)));
  root.children() = batch->columns;
  root.SetLength(batch->num_rows);
  return FillArray(batch, root, out);
}

}  // namespace shoal::sql

namespace shoal {

Status ExportArrowStream(std::unique_ptr<StreamingResult> result, ArrowArrayStream* out) {
  if (!result) return Status::InvalidArgument("ExportArrowStream: no result");
  if (!out) return Status::InvalidArgument("ExportArrowStream: no output stream");
  // Fail now, not in get_schema, when a column has no Arrow form.
  for (const auto& f : result->impl().schema->fields) RETURN_NOT_OK(sql::ArrowFormat(*f.type).status());
  auto d = std::make_unique<sql::StreamData>();
  d->result = std::move(result);
  out->get_schema = sql::StreamGetSchema;
  out->get_next = sql::StreamGetNext;
  out->get_last_error = sql::StreamGetLastError;
  out->release = sql::StreamRelease;
  out->private_data = d.release();
  return Status::OK();
}

}  // namespace shoal
