// Exact 128-bit helpers shared by decimal arithmetic, casts, rounding and aggregates.
//
// Thread-safety: pure functions.
#pragma once

#include "columnar/type.h"

namespace shoal::expr {

using columnar::int128_t;

// x / y rounded half away from zero (y != 0).
inline int128_t DivRoundHalfAway(int128_t x, int128_t y) {
  int128_t q = x / y, r = x % y;
  if (r != 0) {
    int128_t ar = r < 0 ? -r : r, ay = y < 0 ? -y : y;
    if (ar >= ay - ar) q += ((x < 0) != (y < 0)) ? -1 : 1;
  }
  return q;
}

// x / y rounded to the nearest integer, ties to the even one (bround, HALF_EVEN).
inline int128_t DivRoundHalfEven(int128_t x, int128_t y) {
  int128_t q = x / y, r = x % y;
  if (r != 0) {
    int128_t ar = r < 0 ? -r : r, ay = y < 0 ? -y : y;
    if (ar > ay - ar || (ar == ay - ar && q % 2 != 0)) q += ((x < 0) != (y < 0)) ? -1 : 1;
  }
  return q;
}

}  // namespace shoal::expr
