// The bounds check every RandomAccessFile::ReadAt makes before reading.
//
// Thread-safety: a pure function.
#pragma once

#include <cstdint>
#include <string>

#include "shoal/status.h"

namespace shoal::io {

// OK when [offset, offset + length) lies inside a file of `size` bytes, else the Corruption
// ReadAt returns (the caller trusted a length from the file).
Status CheckReadRange(const std::string& path, int64_t offset, int64_t length, int64_t size);

}  // namespace shoal::io
