// Process-wide allocator tuning for scan workloads.
//
// A scan allocates and frees its column buffers batch after batch (hundreds of KiB each). With
// glibc's default malloc settings those blocks are served by mmap or returned to the kernel
// when the heap top is trimmed, so every batch faults its pages in again: on a string-heavy
// file that is about half of a full read's time (doc/benchmarks.md, "Parquet read/write vs
// DuckDB"). TuneAllocator() sets glibc's mmap threshold to 32 MiB and its trim threshold to
// 128 MiB, so freed buffers are reused from the heap instead; up to 128 MiB of free heap per
// malloc arena stays mapped. It is process-wide, runs once (later calls do nothing), and does
// nothing when the C library is not glibc.
//
// Database::Open calls it, unless the environment variable SHOAL_TUNE_ALLOCATOR is "0" (for a
// host process that tunes or replaces malloc itself; such a host may also set its own
// mallopt() values after opening the database).
#pragma once

namespace shoal {

// Returns true when the settings are (or already were) applied; false when SHOAL_TUNE_ALLOCATOR
// is "0" or the C library is not glibc.
bool TuneAllocator();

}  // namespace shoal
