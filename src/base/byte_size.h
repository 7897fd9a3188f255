// Byte sizes as people write them: parsing the value of SET memory_limit ('200MB', '1.5 GiB')
// and printing a byte count in a readable unit ("190.7 MiB").
//
// Units are powers of 1024 whether written KB or KiB (as PostgreSQL reads its memory settings;
// DuckDB reads KB/MB/GB as powers of 1000): B, KB, MB, GB, TB and KiB, MiB, GiB, TiB, any case,
// with optional spaces between the number and the unit; no unit means bytes.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "shoal/status.h"

namespace shoal {

// The byte count of `text`: a non-negative decimal number ('1.5') and an optional unit, rounded
// to the nearest byte. InvalidArgument naming the text when it is empty, negative, has an unknown
// unit or is larger than 2^62 bytes.
Result<int64_t> ParseByteSize(std::string_view text);

// "512 bytes" below 1 KiB; otherwise one decimal and the largest binary unit that keeps the
// number at least 1 ("1.5 GiB", "200.0 MiB").
std::string FormatByteSize(int64_t bytes);

}  // namespace shoal
