#include "parquet/crc32.h"

#include <zlib.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace shoal::parquet {

namespace {

uint32_t ZlibCrc32(uint32_t crc, const uint8_t* p, size_t n) {
  return static_cast<uint32_t>(crc32_z(crc, p, n));
}

#if defined(__x86_64__)

// Folding constants for the bit-reflected polynomial: x^(4*128+32), x^(4*128-32) mod P(x) to
// fold four 128-bit lanes 64 bytes ahead, and x^(128+32), x^(128-32) mod P(x) to fold one lane
// 16 bytes ahead; each bit-reflected and shifted left by one (a carry-less product of two
// reflected 64-bit values is one bit short of 128).
constexpr long long kFold4Low = 0x154442bd4LL;
constexpr long long kFold4High = 0x1c6e41596LL;
constexpr long long kFold1Low = 0x1751997d0LL;
constexpr long long kFold1High = 0x0ccaa009eLL;

__attribute__((target("pclmul,sse2"))) inline __m128i Fold(__m128i x, __m128i k, __m128i next) {
  __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
  __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

__attribute__((target("pclmul,sse2"))) inline __m128i Load(const uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// n >= 64. The register state stands for the message read so far with the running CRC folded
// in: the reflected CRC's state XORs into the next four message bytes, so it is added to the
// first lane; each fold multiplies a lane by x^distance mod P(x), which keeps the remainder.
// The last lane (16 bytes) and the tail are finished by zlib, from a zero state.
__attribute__((target("pclmul,sse2"))) uint32_t ClmulCrc32(uint32_t crc, const uint8_t* p, size_t n) {
  const __m128i k4 = _mm_set_epi64x(kFold4High, kFold4Low);
  const __m128i k1 = _mm_set_epi64x(kFold1High, kFold1Low);
  __m128i x0 = _mm_xor_si128(Load(p), _mm_cvtsi32_si128(static_cast<int>(~crc)));
  __m128i x1 = Load(p + 16);
  __m128i x2 = Load(p + 32);
  __m128i x3 = Load(p + 48);
  p += 64;
  n -= 64;
  for (; n >= 64; p += 64, n -= 64) {
    x0 = Fold(x0, k4, Load(p));
    x1 = Fold(x1, k4, Load(p + 16));
    x2 = Fold(x2, k4, Load(p + 32));
    x3 = Fold(x3, k4, Load(p + 48));
  }
  x0 = Fold(x0, k1, x1);
  x0 = Fold(x0, k1, x2);
  x0 = Fold(x0, k1, x3);
  for (; n >= 16; p += 16, n -= 16) x0 = Fold(x0, k1, Load(p));
  alignas(16) uint8_t lane[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(lane), x0);
  // zlib's crc32(0xFFFFFFFF, ...) runs from an internal zero state.
  return ZlibCrc32(ZlibCrc32(0xFFFFFFFFu, lane, sizeof(lane)), p, n);
}

bool DetectClmul() { return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2"); }

#endif

}  // namespace

bool Crc32Accelerated() {
#if defined(__x86_64__)
  static const bool has = DetectClmul();
  return has;
#else
  return false;
#endif
}

uint32_t Crc32(uint32_t crc, const void* data, size_t n) {
  if (n == 0) return crc;  // zlib would answer 0 for a null pointer, whatever `crc` is
  const auto* p = static_cast<const uint8_t*>(data);
#if defined(__x86_64__)
  if (n >= 64 && Crc32Accelerated()) return ClmulCrc32(crc, p, n);
#endif
  return ZlibCrc32(crc, p, n);
}

}  // namespace shoal::parquet
