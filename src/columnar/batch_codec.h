// The raw byte form of a record batch's columns, for spill files (sql/execution/spill_file.h):
// each vector's row count, validity bytes, value slots, string bytes and children copied as they
// are in memory (type.h's layouts), so writing and reading cost a memcpy per buffer. The reader
// knows the schema; nothing of the type is written. Every length and offset read back is checked
// against the bytes given and the type's layout, so bad bytes are a Corruption status, never a
// read out of bounds.
//
// Layout of one batch (little-endian, as the machine writes it; spill files never leave it):
//   u64 rows, u32 columns, then per column a vector:
//   u64 size, u8 has_validity, [size validity bytes], u64 n + n value bytes, u64 m + m string
//   bytes, then the children (LIST/MAP: one, STRUCT: one per field) as vectors.
// Dictionary-coded vectors are written decoded.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::columnar {

// Appends the columns of `b` to `out`.
void SerializeBatch(const RecordBatch& b, std::string* out);
// Bytes SerializeBatch appends for `b` (without decoding coded columns: an estimate for those).
int64_t SerializedSize(const RecordBatch& b);
// The batch serialized in data[0, n), with `schema`'s types; Corruption (naming `what`) when the
// bytes do not hold one batch of that schema.
Result<BatchPtr> DeserializeBatch(const SchemaPtr& schema, const uint8_t* data, size_t n,
                                  const std::string& what);

}  // namespace shoal::columnar
