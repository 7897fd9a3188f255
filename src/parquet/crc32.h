// CRC-32 of the zlib / ISO-HDLC polynomial (0x04C11DB7, bit-reflected, initial and final value
// inverted): the checksum Parquet page headers carry and Delta deletion-vector files end with.
// Same results as zlib's crc32(); faster on x86-64 CPUs with carry-less multiplication
// (PCLMULQDQ), where the buffer is folded 64 bytes per step instead of table lookups per byte
// (the method of Gopal et al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
// Instruction", Intel, 2009). Other CPUs use zlib.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace shoal::parquet {

// CRC of `data[0, n)` continuing from `crc` (0 to start): Crc32(Crc32(0, a), b) == Crc32(0, a + b).
uint32_t Crc32(uint32_t crc, const void* data, size_t n);
inline uint32_t Crc32(std::string_view data) { return Crc32(0, data.data(), data.size()); }

// True when Crc32 uses the carry-less multiplication path on this CPU.
bool Crc32Accelerated();

}  // namespace shoal::parquet
