// A table source over an Arrow C stream (shoal/arrow_c.h) registered on a connection
// (Connection::RegisterArrowStream): FROM name reads the stream's batches once, converting
// them with arrow_import.h. A stream can be read by one scan only; a second scan (the same
// statement naming it twice, or the source opened again) is InvalidArgument.
//
// Thread-safety: the scan serializes calls into the stream (the C stream interface is not
// thread-safe); Next may be called from many workers.
#pragma once

#include <memory>
#include <string>

#include "shoal/arrow_c.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

// Takes ownership of *stream (moved out: *stream is left released, also on error) and reads its
// schema, which must be a struct ("+s") of supported types (NotSupported naming the format
// otherwise). `name` is the relation name, for errors and EXPLAIN.
Result<std::shared_ptr<const TableSource>> MakeArrowStreamSource(ArrowArrayStream* stream, const std::string& name);

// Takes ownership of *stream as MakeArrowStreamSource does and reads it to its end now: its rows
// in memory (a BatchTableSource, batches of at most `batch_size` rows) that any number of
// statements can read — the Python module's con.register of an object with __arrow_c_stream__.
// The stream is released before this returns, also on error.
Result<std::shared_ptr<const TableSource>> ReadArrowStream(ArrowArrayStream* stream, const std::string& name,
                                                           int batch_size);

}  // namespace shoal::sql
