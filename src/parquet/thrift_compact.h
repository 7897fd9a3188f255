// Thrift compact protocol reader and writer: the encoding of every Parquet footer, page header
// and page index structure. The reader checks every length and count against the bytes that
// remain and limits nesting depth, so hostile input fails cleanly instead of allocating or
// recursing without bound.
//
// Thread-safety: CompactReader and CompactWriter are not thread-safe; use one per thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::parquet {

// Compact protocol type codes (field headers, list/map element types).
enum CType : uint8_t {
  kCStop = 0,
  kCBoolTrue = 1,
  kCBoolFalse = 2,
  kCByte = 3,
  kCI16 = 4,
  kCI32 = 5,
  kCI64 = 6,
  kCDouble = 7,
  kCBinary = 8,
  kCList = 9,
  kCSet = 10,
  kCMap = 11,
  kCStruct = 12,
};

// Decodes compact-protocol values from a byte range. Errors are sticky: after the first one
// every read returns zero/empty, ReadFieldBegin returns false, and status() names the error.
class CompactReader {
 public:
  struct FieldHeader {
    int16_t id = 0;
    uint8_t type = kCStop;
  };
  struct ListHeader {
    uint8_t elem_type = 0;
    int64_t size = 0;
  };
  struct MapHeader {
    uint8_t key_type = 0;
    uint8_t value_type = 0;
    int64_t size = 0;
  };

  CompactReader(const uint8_t* data, size_t size, int max_depth = 64)
      : data_(data), size_(size), max_depth_(max_depth) {}

  // Enters a struct (pushes the last-field-id context); fails past the depth limit.
  void StructBegin();
  void StructEnd();
  // Reads the next field header of the current struct; false at STOP or on error.
  bool ReadFieldBegin(FieldHeader* f);

  // The value of a bool *field* (its value is in the field type).
  static bool FieldBool(const FieldHeader& f) { return f.type == kCBoolTrue; }
  // A bool list element (one byte).
  bool ReadBoolElement();
  int8_t ReadByte();
  int16_t ReadI16();
  int32_t ReadI32();
  int64_t ReadI64();
  double ReadDouble();
  // Binary / string: a view into the input (valid while the input lives).
  std::string_view ReadBinary();
  std::string ReadString() { return std::string(ReadBinary()); }
  // List or set header; size is checked against the remaining bytes.
  ListHeader ReadListBegin();
  MapHeader ReadMapBegin();

  // Skips one value of compact type `type` (any nesting, depth-limited).
  void Skip(uint8_t type);

  // Records an error (first one wins).
  void Fail(std::string what);

  bool ok() const { return error_.empty(); }
  Status status() const;
  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

 private:
  uint64_t ReadVarint();
  static int64_t Unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  int max_depth_;
  int depth_ = 0;
  int16_t last_field_ = 0;
  std::vector<int16_t> field_stack_;
  std::string error_;
};

// Encodes compact-protocol values by appending to a string.
class CompactWriter {
 public:
  explicit CompactWriter(std::string* out) : out_(out) {}

  void StructBegin();
  // Writes the STOP byte and leaves the struct.
  void StructEnd();
  void FieldBegin(int16_t id, uint8_t type);
  void FieldBool(int16_t id, bool v) { FieldBegin(id, v ? kCBoolTrue : kCBoolFalse); }

  void WriteBoolElement(bool v) { out_->push_back(v ? 1 : 2); }
  void WriteByte(int8_t v) { out_->push_back(static_cast<char>(v)); }
  void WriteI16(int16_t v) { WriteVarint(Zigzag(v)); }
  void WriteI32(int32_t v) { WriteVarint(Zigzag(v)); }
  void WriteI64(int64_t v) { WriteVarint(Zigzag(v)); }
  void WriteDouble(double v);
  void WriteBinary(std::string_view s);
  void ListBegin(uint8_t elem_type, int64_t size);
  void MapBegin(uint8_t key_type, uint8_t value_type, int64_t size);

  // Convenience: one field with its value.
  void FieldI32(int16_t id, int32_t v) { FieldBegin(id, kCI32); WriteI32(v); }
  void FieldI64(int16_t id, int64_t v) { FieldBegin(id, kCI64); WriteI64(v); }
  void FieldI16(int16_t id, int16_t v) { FieldBegin(id, kCI16); WriteI16(v); }
  void FieldByte(int16_t id, int8_t v) { FieldBegin(id, kCByte); WriteByte(v); }
  void FieldBinary(int16_t id, std::string_view s) { FieldBegin(id, kCBinary); WriteBinary(s); }
  void FieldDouble(int16_t id, double v) { FieldBegin(id, kCDouble); WriteDouble(v); }

 private:
  void WriteVarint(uint64_t v);
  static uint64_t Zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

  std::string* out_;
  int16_t last_field_ = 0;
  std::vector<int16_t> field_stack_;
};

}  // namespace shoal::parquet
