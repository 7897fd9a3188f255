// Spark's Murmur3 hash (the `hash` SQL function, seed 42) over strings and ints, and the
// partition a Spark hash partitioner assigns: what PROTOCOL.md requires of multi-part
// checkpoints ("clustered by spark-style hash partitioning" of the file actions).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

namespace shoal::table {

inline constexpr int32_t kSparkHashSeed = 42;

// Murmur3_x86_32 of the bytes as Spark hashes a string (trailing bytes mixed one at a time,
// sign-extended), continuing from `seed`.
int32_t SparkHashBytes(std::string_view bytes, int32_t seed);
// Spark's hash of an int value, continuing from `seed`.
int32_t SparkHashInt(int32_t value, int32_t seed);
// The non-negative remainder Spark's `pmod(hash, n)` gives: a row's hash partition of `n`.
int32_t SparkPartition(int32_t hash, int32_t n);

}  // namespace shoal::table
