// TuneAllocator (include/shoal/allocator.h).
#include "shoal/allocator.h"

#include <cstdlib>
#include <string_view>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace shoal {

bool TuneAllocator() {
#if defined(__GLIBC__)
  static const bool applied = [] {
    const char* env = std::getenv("SHOAL_TUNE_ALLOCATOR");
    if (env != nullptr && std::string_view(env) == "0") return false;
    // Fixed thresholds also switch off glibc's dynamic mmap threshold.
    const bool mmap_ok = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
    const bool trim_ok = mallopt(M_TRIM_THRESHOLD, 128 << 20) == 1;
    return mmap_ok && trim_ok;
  }();
  return applied;
#else
  return false;
#endif
}

}  // namespace shoal
