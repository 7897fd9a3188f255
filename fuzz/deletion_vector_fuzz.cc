// libFuzzer target for deletion vectors: parses the input as a RoaringBitmapArray (either
// Delta serialization); when it parses, serializing and parsing again must give the same set
// (abort otherwise). Crashes and sanitizer reports are findings too.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "delta/deletion_vector.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using shoal::delta::DeletionVector;
  auto dv = DeletionVector::Deserialize(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz input");
  if (!dv.ok()) return 0;
  auto again = DeletionVector::Deserialize(dv->Serialize(), "round trip");
  if (!again.ok() || !(*again == *dv)) {
    std::fprintf(stderr, "deletion vector does not survive Serialize/Deserialize\n");
    std::abort();
  }
  return 0;
}
