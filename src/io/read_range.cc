#include "io/read_range.h"

namespace shoal::io {

Status CheckReadRange(const std::string& path, int64_t offset, int64_t length, int64_t size) {
  if (offset < 0 || length < 0 || offset > size || length > size - offset) {
    return Status::Corruption(path + ": read of " + std::to_string(length) + " bytes at offset " +
                              std::to_string(offset) + " is past the end of the file (size " +
                              std::to_string(size) + ")");
  }
  return Status::OK();
}

}  // namespace shoal::io
