#include "table/uuid.h"

#include <cstdint>
#include <random>

namespace shoal::table {

std::string RandomUuid() {
  thread_local std::mt19937_64 gen([] {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd()};
    return std::mt19937_64(seq);
  }());
  uint64_t hi = gen(), lo = gen();
  hi = (hi & ~uint64_t{0xF000}) | 0x4000;                        // version 4
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // variant 10
  static const char* kHex = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  auto put = [&](uint64_t v, int nibbles) {
    for (int i = nibbles - 1; i >= 0; --i) out.push_back(kHex[(v >> (i * 4)) & 0xF]);
  };
  put(hi >> 32, 8);
  out.push_back('-');
  put(hi >> 16, 4);
  out.push_back('-');
  put(hi, 4);
  out.push_back('-');
  put(lo >> 48, 4);
  out.push_back('-');
  put(lo, 12);
  return out;
}

}  // namespace shoal::table
