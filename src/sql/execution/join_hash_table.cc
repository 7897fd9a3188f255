#include "sql/execution/join_hash_table.h"

#include <algorithm>
#include <array>
#include <type_traits>

#include "expr/physical_type.h"
#include "sql/execution/task_runner.h"

namespace shoal::sql {

using columnar::Vector;
using columnar::VectorPtr;

struct JoinHashTable::ChunkHashes {
  int64_t rows = 0;
  std::vector<uint64_t> hashes;
  std::vector<int64_t> ints;
  std::vector<uint8_t> valid;
  RowKeys enc;
  std::array<uint32_t, 256> radix{};  // non-NULL rows per top-8-bit hash bucket
};

namespace {

constexpr int kRadixBits = 8;
constexpr int64_t kEntriesPerPartition = 1 << 14;

uint64_t MixInt(int64_t v) {
  uint64_t k = static_cast<uint64_t>(v);
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

bool IntLike(const columnar::DataType& t) {
  return expr::DispatchFixed(
      t, [](auto tag) { return std::is_integral_v<decltype(tag)>; }, [] { return false; });
}

// Loads an integer-like key column as int64 values, validity flags and hashes.
void LoadInts(const Vector& v, int64_t n, std::vector<int64_t>* ints, std::vector<uint8_t>* valid,
              std::vector<uint64_t>* hashes) {
  ints->resize(n);
  valid->resize(n);
  hashes->resize(n);
  expr::DispatchFixed(
      *v.type(),
      [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T>) {
          const T* d = v.data<T>();
          for (int64_t i = 0; i < n; ++i) (*ints)[i] = static_cast<int64_t>(d[i]);
        }
      },
      [] {});
  if (v.MayHaveNulls()) {
    for (int64_t i = 0; i < n; ++i) (*valid)[i] = v.IsValid(i) ? 1 : 0;
  } else {
    std::fill(valid->begin(), valid->end(), 1);
  }
  for (int64_t i = 0; i < n; ++i) (*hashes)[i] = MixInt((*ints)[i]);
}

std::vector<const Vector*> Ptrs(const std::vector<VectorPtr>& v) {
  std::vector<const Vector*> out;
  for (const auto& x : v) out.push_back(x.get());
  return out;
}

}  // namespace

JoinHashTable::JoinHashTable(const std::vector<columnar::TypePtr>& build_types,
                             const std::vector<columnar::TypePtr>& probe_types) {
  int_keys_ = build_types.size() == 1 && probe_types.size() == 1 && *build_types[0] == *probe_types[0] &&
              IntLike(*build_types[0]);
}

JoinHashTable::~JoinHashTable() = default;

int64_t JoinHashTable::ChunkBytes() const {
  int64_t n = 0;
  for (const auto& ch : chunks_) {
    n += static_cast<int64_t>(sizeof(ChunkHashes) + ch->hashes.capacity() * sizeof(uint64_t) +
                              ch->ints.capacity() * sizeof(int64_t) + ch->valid.capacity()) +
         ch->enc.MemoryBytes();
  }
  return n;
}

int64_t JoinHashTable::MemoryBytes() const {
  const int64_t entry = int_keys_ ? sizeof(IntEntry) : sizeof(KeyEntry);
  const int64_t dir = dir_start_.empty() ? 0 : dir_start_.back();
  return ChunkBytes() + std::max<int64_t>(entries_, 1) * entry +
         dir * static_cast<int64_t>(sizeof(uint32_t)) +
         static_cast<int64_t>((dir_start_.capacity() + dir_mask_.capacity()) * sizeof(int64_t));
}

Status JoinHashTable::Build(ExecContext& ctx, std::vector<std::vector<VectorPtr>> chunk_keys,
                            MemoryReservation* memory) {
  const size_t nc = chunk_keys.size();
  MemoryReservation none;
  if (!memory) memory = &none;
  const int64_t held = memory->bytes();  // what the caller held before
  chunks_.clear();
  for (size_t c = 0; c < nc; ++c) chunks_.push_back(std::make_unique<ChunkHashes>());
  // Phase 1 allocates per row a hash, a validity byte and an int64 key or (encoded keys) an
  // offset, a hash, a NULL flag and the encoding itself (measured afterwards).
  int64_t rows = 0;
  for (const auto& k : chunk_keys) rows += k.empty() ? 0 : k[0]->size();
  RETURN_NOT_OK(memory->Resize(held + rows * (int_keys_ ? 17 : 34)));
  // 1. Hash every chunk and count its non-NULL rows per radix bucket.
  RETURN_NOT_OK(RunTasks(ctx, static_cast<int64_t>(nc), [&](int64_t c, int) {
    ChunkHashes& ch = *chunks_[c];
    auto& keys = chunk_keys[c];
    const int64_t n = keys.empty() ? 0 : keys[0]->size();
    ch.rows = n;
    if (int_keys_) {
      LoadInts(*keys[0], n, &ch.ints, &ch.valid, &ch.hashes);
    } else {
      ch.enc.Encode(Ptrs(keys), n);
      ch.hashes.resize(n);
      ch.valid.resize(n);
      for (int64_t i = 0; i < n; ++i) {
        ch.hashes[i] = ch.enc.hash(i);
        ch.valid[i] = ch.enc.has_null(i) ? 0 : 1;
      }
    }
    for (int64_t i = 0; i < n; ++i) ch.radix[ch.hashes[i] >> (64 - kRadixBits)] += ch.valid[i];
    keys.clear();  // release evaluated key columns early
    return Status::OK();
  }));
  RETURN_NOT_OK(memory->Resize(held + ChunkBytes()));
  // 2. Partition sizes and each chunk's write cursor per partition (O(chunks x partitions)).
  int64_t total = 0;
  for (const auto& ch : chunks_) {
    for (uint32_t x : ch->radix) total += x;
  }
  if (total >= static_cast<int64_t>(UINT32_MAX)) {
    return Status::NotSupported("hash join build side of " + std::to_string(total) + " rows (limit 4294967294)");
  }
  entries_ = total;
  bits_ = 0;
  while (bits_ < kRadixBits && (total >> bits_) > kEntriesPerPartition) ++bits_;
  const int parts = 1 << bits_;
  const int fine_per_part = 1 << (kRadixBits - bits_);
  std::vector<int64_t> part_start(parts + 1, 0);
  std::vector<uint32_t> counts(nc * parts);
  for (size_t c = 0; c < nc; ++c) {
    for (int p = 0; p < parts; ++p) {
      uint32_t k = 0;
      for (int f = 0; f < fine_per_part; ++f) k += chunks_[c]->radix[p * fine_per_part + f];
      counts[c * parts + p] = k;
      part_start[p + 1] += k;
    }
  }
  for (int p = 0; p < parts; ++p) part_start[p + 1] += part_start[p];
  std::vector<uint32_t> cursor(nc * parts);
  {
    std::vector<int64_t> running(part_start.begin(), part_start.end() - 1);
    for (size_t c = 0; c < nc; ++c) {
      for (int p = 0; p < parts; ++p) {
        cursor[c * parts + p] = static_cast<uint32_t>(running[p]);
        running[p] += counts[c * parts + p];
      }
    }
  }
  std::vector<int64_t> row_start(nc + 1, 0);
  for (size_t c = 0; c < nc; ++c) row_start[c + 1] = row_start[c] + chunks_[c]->rows;
  dir_start_.assign(parts + 1, 0);
  dir_mask_.assign(parts, 0);
  for (int p = 0; p < parts; ++p) {
    uint64_t size = 1;
    while (size < 2 * static_cast<uint64_t>(part_start[p + 1] - part_start[p])) size <<= 1;
    dir_mask_[p] = size - 1;
    dir_start_[p + 1] = dir_start_[p] + static_cast<int64_t>(size);
  }
  // The directories and the entries, reserved before they are allocated; the per-chunk hashes
  // and integer keys are freed by the scatter below.
  RETURN_NOT_OK(memory->Resize(
      held + ChunkBytes() + dir_start_[parts] * static_cast<int64_t>(sizeof(uint32_t)) +
      std::max<int64_t>(total, 1) *
          static_cast<int64_t>(int_keys_ ? sizeof(IntEntry) : sizeof(KeyEntry))));
  heads_.reset(new uint32_t[dir_start_[parts]]);
  if (int_keys_) {
    int_entries_.reset(new IntEntry[total > 0 ? total : 1]);
  } else {
    key_entries_.reset(new KeyEntry[total > 0 ? total : 1]);
  }
  const int shift = 64 - bits_;
  // 3. Scatter each chunk's entries into its partitions' ranges.
  RETURN_NOT_OK(RunTasks(ctx, static_cast<int64_t>(nc), [&](int64_t c, int) {
    ChunkHashes& ch = *chunks_[c];
    uint32_t* cur = cursor.data() + c * parts;
    const int64_t base = row_start[c];
    for (int64_t i = 0; i < ch.rows; ++i) {
      if (!ch.valid[i]) continue;
      const uint64_t h = ch.hashes[i];
      const int p = bits_ == 0 ? 0 : static_cast<int>(h >> shift);
      const uint32_t at = cur[p]++;
      if (int_keys_) {
        int_entries_[at] = {ch.ints[i], base + i, 0};
      } else {
        key_entries_[at] = {h, base + i, ch.enc.data(i), static_cast<uint32_t>(ch.enc.length(i)), 0};
      }
    }
    ch.hashes = {};
    ch.ints = {};
    ch.valid = {};
    return Status::OK();
  }));
  // 4. Chain each partition's entries (walked backwards, so chains ascend by build row).
  RETURN_NOT_OK(RunTasks(ctx, parts, [&](int64_t p, int) {
    uint32_t* dir = heads_.get() + dir_start_[p];
    const uint64_t mask = dir_mask_[p];
    std::fill(dir, dir + mask + 1, 0u);
    for (int64_t e = part_start[p + 1] - 1; e >= part_start[p]; --e) {
      if (int_keys_) {
        IntEntry& x = int_entries_[e];
        uint32_t& head = dir[MixInt(x.key) & mask];
        x.next = head;
        head = static_cast<uint32_t>(e + 1);
      } else {
        KeyEntry& x = key_entries_[e];
        uint32_t& head = dir[x.hash & mask];
        x.next = head;
        head = static_cast<uint32_t>(e + 1);
      }
    }
    return Status::OK();
  }));
  if (int_keys_) chunks_.clear();
  return memory->Resize(held + MemoryBytes());
}

void JoinHashTable::HashProbe(const std::vector<const Vector*>& keys, int64_t n, ProbeKeys* out) const {
  out->n = n;
  if (int_keys_) {
    LoadInts(*keys[0], n, &out->ints, &out->valid, &out->hashes);
    return;
  }
  out->enc.Encode(keys, n);
  out->hashes.resize(n);
  for (int64_t i = 0; i < n; ++i) out->hashes[i] = out->enc.hash(i);
}

}  // namespace shoal::sql
