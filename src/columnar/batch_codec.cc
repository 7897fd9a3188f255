#include "columnar/batch_codec.h"

#include <cstring>

namespace shoal::columnar {

namespace {

template <typename T>
void Put(std::string* out, T v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// Bytes of values() that hold `v`'s rows.
size_t ValueBytes(const Vector& v) {
  const DataType& t = *v.type();
  if (t.HasOffsets()) return static_cast<size_t>(v.size() + 1) * sizeof(int64_t);
  return static_cast<size_t>(v.size()) * static_cast<size_t>(t.SlotWidth());
}

void PutVector(const Vector& v, std::string* out) {
  const int64_t n = v.size();
  Put<uint64_t>(out, static_cast<uint64_t>(n));
  const bool validity = v.MayHaveNulls();
  Put<uint8_t>(out, validity ? 1 : 0);
  if (validity) out->append(reinterpret_cast<const char*>(v.validity().data()), static_cast<size_t>(n));
  const size_t nv = ValueBytes(v);
  Put<uint64_t>(out, nv);
  if (nv) out->append(reinterpret_cast<const char*>(v.values().data()), nv);
  const size_t nb = v.type()->IsStringLike() ? static_cast<size_t>(v.offsets()[n]) : 0;
  Put<uint64_t>(out, nb);
  if (nb) out->append(reinterpret_cast<const char*>(v.bytes().data()), nb);
  for (const auto& c : v.children()) PutVector(*c, out);
}

int64_t VectorSize(const Vector& v) {
  int64_t s = 8 + 1 + 8 + 8 + static_cast<int64_t>(ValueBytes(v));
  if (v.MayHaveNulls()) s += v.size();
  if (v.type()->IsStringLike() && !v.IsDictionary()) s += v.offsets()[v.size()];
  for (const auto& c : v.children()) s += VectorSize(*c);
  return s;
}

class Reader {
 public:
  Reader(const uint8_t* p, size_t n, const std::string& what) : p_(p), end_(p + n), what_(what) {}

  template <typename T>
  Status Get(T* v) {
    RETURN_NOT_OK(Need(sizeof(T)));
    std::memcpy(v, p_, sizeof(T));
    p_ += sizeof(T);
    return Status::OK();
  }
  Status Need(uint64_t n) const {
    if (n > static_cast<uint64_t>(end_ - p_)) {
      return Status::Corruption(what_ + ": a block claims " + std::to_string(n) + " bytes, " +
                                std::to_string(end_ - p_) + " are left");
    }
    return Status::OK();
  }
  const uint8_t* Take(size_t n) {
    const uint8_t* at = p_;
    p_ += n;
    return at;
  }
  bool AtEnd() const { return p_ == end_; }
  Status Bad(const std::string& m) const { return Status::Corruption(what_ + ": " + m); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  const std::string& what_;
};

Status ReadBuffer(Reader* r, Buffer* b, uint64_t expect, bool exact, const char* name) {
  uint64_t n = 0;
  RETURN_NOT_OK(r->Get(&n));
  if (exact ? n != expect : n > expect) {
    return r->Bad(std::string(name) + " of " + std::to_string(n) + " bytes where " +
                  std::to_string(expect) + " are expected");
  }
  RETURN_NOT_OK(r->Need(n));
  b->Clear();
  b->Append(r->Take(n), n);
  return Status::OK();
}

Result<VectorPtr> GetVector(Reader* r, const TypePtr& type) {
  uint64_t n = 0;
  RETURN_NOT_OK(r->Get(&n));
  if (n > (uint64_t{1} << 40)) return r->Bad("a vector of " + std::to_string(n) + " rows");
  auto v = std::make_shared<Vector>(type);
  uint8_t has_validity = 0;
  RETURN_NOT_OK(r->Get(&has_validity));
  if (has_validity > 1) return r->Bad("bad validity flag");
  if (has_validity) {
    RETURN_NOT_OK(r->Need(n));
    const uint8_t* p = r->Take(n);
    v->validity().assign(p, p + n);
  }
  const DataType& t = *type;
  const uint64_t slots = t.HasOffsets() ? (n + 1) * sizeof(int64_t) : n * static_cast<uint64_t>(t.SlotWidth());
  RETURN_NOT_OK(ReadBuffer(r, &v->values(), slots, true, "values"));
  uint64_t nbytes = 0;
  if (t.IsStringLike()) {
    RETURN_NOT_OK(r->Get(&nbytes));
    RETURN_NOT_OK(r->Need(nbytes));
    v->bytes().Append(r->Take(nbytes), nbytes);
  } else {
    RETURN_NOT_OK(ReadBuffer(r, &v->bytes(), 0, true, "string bytes"));
  }
  for (size_t c = 0; c < v->children().size(); ++c) {
    ASSIGN_OR_RETURN(v->children()[c], GetVector(r, t.children()[c].type));
  }
  if (t.HasOffsets()) {
    // Offsets start at 0 and grow up to the string bytes or the child's length.
    const uint64_t limit = t.IsStringLike() ? nbytes : static_cast<uint64_t>(v->children()[0]->size());
    const int64_t* o = v->offsets();
    if (o[0] < 0) return r->Bad("negative offset");
    for (uint64_t i = 0; i < n; ++i) {
      if (o[i + 1] < o[i]) return r->Bad("offsets out of order");
    }
    if (static_cast<uint64_t>(o[n]) > limit) return r->Bad("offset past the end of its data");
  } else if (t.id() == TypeId::kStruct) {
    for (const auto& c : v->children()) {
      if (static_cast<uint64_t>(c->size()) < n) return r->Bad("struct field shorter than the struct");
    }
  }
  v->SetLength(static_cast<int64_t>(n));
  return v;
}

}  // namespace

void SerializeBatch(const RecordBatch& b, std::string* out) {
  Put<uint64_t>(out, static_cast<uint64_t>(b.num_rows));
  Put<uint32_t>(out, static_cast<uint32_t>(b.columns.size()));
  for (const auto& c : b.columns) {
    if (c->IsDictionary()) {
      PutVector(*Decode(c), out);
    } else {
      PutVector(*c, out);
    }
  }
}

int64_t SerializedSize(const RecordBatch& b) {
  int64_t s = 12;
  for (const auto& c : b.columns) s += VectorSize(*c);
  return s;
}

Result<BatchPtr> DeserializeBatch(const SchemaPtr& schema, const uint8_t* data, size_t n,
                                  const std::string& what) {
  Reader r(data, n, what);
  uint64_t rows = 0;
  uint32_t ncols = 0;
  RETURN_NOT_OK(r.Get(&rows));
  RETURN_NOT_OK(r.Get(&ncols));
  if (ncols != schema->size()) {
    return r.Bad("a block of " + std::to_string(ncols) + " columns where " +
                 std::to_string(schema->size()) + " are expected");
  }
  std::vector<VectorPtr> cols;
  for (size_t c = 0; c < ncols; ++c) {
    ASSIGN_OR_RETURN(auto v, GetVector(&r, (*schema)[c].type));
    if (static_cast<uint64_t>(v->size()) != rows) return r.Bad("a column of another length than its block");
    cols.push_back(std::move(v));
  }
  if (!r.AtEnd()) return r.Bad("bytes after the last column");
  return std::make_shared<RecordBatch>(schema, std::move(cols), static_cast<int64_t>(rows));
}

}  // namespace shoal::columnar
