#include "parquet/bit_unpack.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace shoal::parquet {
namespace {

// Extracts value I of a group of 8 values of BW bits starting at `in`. Reads up to 16 bytes
// past the group start plus BW; callers guarantee that slack (or use a padded copy).
template <int BW, int I, typename Out>
inline void UnpackOne(const uint8_t* in, Out* out) {
  constexpr int kBit = I * BW;
  constexpr int kByte = kBit / 8;
  constexpr int kShift = kBit % 8;
  constexpr uint64_t kMask = BW == 64 ? ~uint64_t{0} : ((uint64_t{1} << BW) - 1);
  uint64_t w;
  std::memcpy(&w, in + kByte, 8);
  if constexpr (kShift + BW <= 64) {
    out[I] = static_cast<Out>((w >> kShift) & kMask);
  } else {
    uint64_t hi = in[kByte + 8];
    out[I] = static_cast<Out>(((w >> kShift) | (hi << (64 - kShift))) & kMask);
  }
}

template <int BW, typename Out, int... I>
inline void UnpackGroup(const uint8_t* in, Out* out, std::integer_sequence<int, I...>) {
  (UnpackOne<BW, I>(in, out), ...);
}

constexpr int64_t kSlack = 16;

template <int BW, typename Out>
void UnpackWidth(const uint8_t* in, Out* out, int64_t n) {
  const int64_t groups = n / 8;
  if constexpr (BW == 0) {
    std::fill_n(out, groups * 8, Out{0});
    return;
  } else {
    const int64_t total = groups * BW;
    int64_t fast = total >= kSlack + BW ? (total - kSlack) / BW : 0;
    fast = std::min(fast, groups);
    constexpr auto kSeq = std::make_integer_sequence<int, 8>{};
    for (int64_t g = 0; g < fast; ++g) UnpackGroup<BW>(in + g * BW, out + g * 8, kSeq);
    for (int64_t g = fast; g < groups; ++g) {
      uint8_t padded[BW + kSlack + 8] = {};
      std::memcpy(padded, in + g * BW, BW);
      UnpackGroup<BW>(padded, out + g * 8, kSeq);
    }
  }
}

template <typename Out, int... W>
constexpr auto MakeUnpackTable(std::integer_sequence<int, W...>) {
  using Fn = void (*)(const uint8_t*, Out*, int64_t);
  return std::array<Fn, sizeof...(W)>{&UnpackWidth<W, Out>...};
}

constexpr auto kUnpack32 = MakeUnpackTable<uint32_t>(std::make_integer_sequence<int, 33>{});
constexpr auto kUnpack64 = MakeUnpackTable<uint64_t>(std::make_integer_sequence<int, 65>{});

template <typename In>
void PackAny(const In* in, int bit_width, uint8_t* out, int64_t n) {
  if (bit_width == 0) return;
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : ((uint64_t{1} << bit_width) - 1);
  unsigned __int128 acc = 0;
  int bits = 0;
  for (int64_t i = 0; i < n; ++i) {
    acc |= static_cast<unsigned __int128>(static_cast<uint64_t>(in[i]) & mask) << bits;
    bits += bit_width;
    if (bits >= 64) {
      uint64_t low = static_cast<uint64_t>(acc);
      std::memcpy(out, &low, 8);
      out += 8;
      acc >>= 64;
      bits -= 64;
    }
  }
  uint64_t low = static_cast<uint64_t>(acc);
  std::memcpy(out, &low, static_cast<size_t>(bits / 8));
}

}  // namespace

int BitWidthOf(uint64_t max_value) {
  return max_value == 0 ? 0 : 64 - __builtin_clzll(max_value);
}

void UnpackBits32(const uint8_t* in, int bit_width, uint32_t* out, int64_t n) {
  kUnpack32[bit_width](in, out, n);
}

void UnpackBits64(const uint8_t* in, int bit_width, uint64_t* out, int64_t n) {
  kUnpack64[bit_width](in, out, n);
}

void PackBits32(const uint32_t* in, int bit_width, uint8_t* out, int64_t n) {
  PackAny(in, bit_width, out, n);
}

void PackBits64(const uint64_t* in, int bit_width, uint8_t* out, int64_t n) {
  PackAny(in, bit_width, out, n);
}

}  // namespace shoal::parquet
