// Vector: one column of a record batch — values in the physical layout of its type (type.h),
// a validity byte per row, and children for nested types. RecordBatch: equal-length vectors.
//
// STRING and BINARY vectors may instead be dictionary-coded: an int32 code per row into a
// dictionary shared by many vectors (one Parquet column chunk's), so a scan need not copy the
// strings and a filter or GROUP BY can work once per distinct value (see "dictionary coding").
//
// Thread-safety: a Vector is built by one thread; once shared (VectorPtr handed to others) it is
// read-only and may be read concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "columnar/buffer.h"
#include "columnar/type.h"

namespace shoal::columnar {

class Vector;
using VectorPtr = std::shared_ptr<Vector>;

class Vector {
 public:
  explicit Vector(TypePtr type);
  // An empty vector of `type` with room for `capacity` rows (children created, also empty).
  static VectorPtr Make(TypePtr type, int64_t capacity = 0);
  // A vector of `n` NULLs of `type`.
  static VectorPtr MakeNull(TypePtr type, int64_t n);

  const TypePtr& type() const { return type_; }
  TypeId id() const { return type_->id(); }
  int64_t size() const { return size_; }

  // ---- validity: empty validity() means every row is valid.
  bool IsNull(int64_t i) const { return !validity_.empty() && validity_[i] == 0; }
  bool IsValid(int64_t i) const { return validity_.empty() || validity_[i] != 0; }
  bool MayHaveNulls() const { return !validity_.empty(); }
  int64_t CountNulls() const;
  const std::vector<uint8_t>& validity() const { return validity_; }
  std::vector<uint8_t>& validity() { return validity_; }
  // Materializes the validity bytes (all valid) so they can be written per row.
  uint8_t* MutableValidity();
  void DropValidityIfAllValid();

  // ---- values
  Buffer& values() { return values_; }
  const Buffer& values() const { return values_; }
  template <typename T>
  T* data() { return values_.As<T>(); }
  template <typename T>
  const T* data() const { return values_.As<T>(); }
  template <typename T>
  T Get(int64_t i) const { return values_.As<T>()[i]; }

  // Strings / binary: size+1 offsets in values(), characters in bytes().
  Buffer& bytes() { return bytes_; }
  const Buffer& bytes() const { return bytes_; }
  const int64_t* offsets() const { return values_.As<int64_t>(); }
  int64_t* offsets() { return values_.As<int64_t>(); }
  std::string_view GetString(int64_t i) const {
    if (dictionary_) [[unlikely]] return dictionary_->GetString(codes()[i]);
    const int64_t* o = offsets();
    return {reinterpret_cast<const char*>(bytes_.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
  }

  // ---- dictionary coding (STRING and BINARY only). A coded vector holds in values() one int32
  // code per row into dictionary(), a flat vector of the same type shared with other vectors;
  // validity is the coded vector's own (a NULL row's code is 0; dictionary entries no row
  // refers to may hold anything, NULL included). bytes() is empty and offsets() meaningless, so
  // only code that checks IsDictionary() may be handed one: the scan makes them on request and
  // the executor decodes them for every operator that does not take them (executor.h).
  // GetString follows the code; Gather, GatherOrNull, Slice and Concat of one dictionary keep
  // the coding; AppendFrom decodes into a flat vector; Decode makes a flat copy.
  //
  // A coded vector of `dictionary`'s type with n rows whose codes the caller writes to
  // mutable_codes() (each in [0, dictionary->size()), or 0 on a NULL row).
  static VectorPtr MakeCoded(VectorPtr dictionary, int64_t n);
  bool IsDictionary() const { return dictionary_ != nullptr; }
  const VectorPtr& dictionary() const { return dictionary_; }
  const int32_t* codes() const { return values_.As<int32_t>(); }
  int32_t* mutable_codes() { return values_.As<int32_t>(); }

  // Nested: LIST/MAP have one child (elements / entries), STRUCT one per field.
  std::vector<VectorPtr>& children() { return children_; }
  const std::vector<VectorPtr>& children() const { return children_; }
  const VectorPtr& child(size_t i) const { return children_[i]; }

  // ---- building. Append* keep the layout invariants (offsets, child lengths, validity).
  // Fixed-width types: sets the row count and sizes values() for it (new slots uninitialized),
  // so a decoder can write data() directly.
  void Resize(int64_t n);
  // Sets the row count after a producer filled values()/bytes()/children()/validity() directly;
  // the producer guarantees the layout invariants of type.h.
  void SetLength(int64_t n) { size_ = n; }
  void AppendNull();
  void AppendNulls(int64_t n);
  template <typename T>
  void Append(T v) {
    values_.Push(v);
    if (!validity_.empty()) validity_.push_back(1);
    ++size_;
  }
  void AppendString(std::string_view s);
  // For LIST/MAP: closes a row whose elements were appended to child(0) since the last row.
  void AppendListEnd();
  // For STRUCT: counts a row whose fields were appended to each child.
  void AppendStructRow();
  // Appends rows [offset, offset+length) of `other` (same type; decoded when coded). This
  // vector must not be coded.
  void AppendFrom(const Vector& other, int64_t offset, int64_t length);
  void Reserve(int64_t capacity);
  void Clear();

  // Rows [offset, offset+length) as a new vector (copied).
  VectorPtr Slice(int64_t offset, int64_t length) const;
  // Bytes allocated for this vector's buffers and children (capacities, not sizes), for
  // memory accounting.
  int64_t MemoryBytes() const;

 private:
  TypePtr type_;
  int64_t size_ = 0;
  std::vector<uint8_t> validity_;
  Buffer values_;
  Buffer bytes_;
  std::vector<VectorPtr> children_;
  VectorPtr dictionary_;  // set: values_ holds int32 codes into it
};

// Rows selected by index, as a new vector: result[i] = v[sel[i]].
VectorPtr Gather(const Vector& v, const uint32_t* sel, int64_t n);
// Like Gather, but a negative index yields NULL (outer joins).
VectorPtr GatherOrNull(const Vector& v, const int64_t* sel, int64_t n);
// Concatenates vectors of one type (coded when all parts are coded with one dictionary).
VectorPtr Concat(const std::vector<VectorPtr>& parts);
// `v` itself when it is not dictionary-coded, else a flat copy of its values.
VectorPtr Decode(const VectorPtr& v);

// A batch of rows: equal-length columns described by a schema.
struct RecordBatch {
  SchemaPtr schema;
  std::vector<VectorPtr> columns;
  int64_t num_rows = 0;

  RecordBatch() = default;
  RecordBatch(SchemaPtr s, std::vector<VectorPtr> cols, int64_t rows)
      : schema(std::move(s)), columns(std::move(cols)), num_rows(rows) {}
  const VectorPtr& column(size_t i) const { return columns[i]; }
  size_t num_columns() const { return columns.size(); }
};
using BatchPtr = std::shared_ptr<RecordBatch>;

// Bytes allocated for a batch's columns (Vector::MemoryBytes; a vector that appears in several
// columns counted once).
int64_t BatchMemoryBytes(const RecordBatch& b);

// Rows selected by index from every column.
BatchPtr GatherBatch(const RecordBatch& b, const uint32_t* sel, int64_t n);
BatchPtr SliceBatch(const RecordBatch& b, int64_t offset, int64_t length);
// Decodes every dictionary-coded column of `b` in place (the batch must not be shared).
void DecodeColumns(RecordBatch* b);
// True when some column of `b` is dictionary-coded.
bool HasCodedColumns(const RecordBatch& b);

}  // namespace shoal::columnar
