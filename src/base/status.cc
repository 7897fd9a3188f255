#include "shoal/status.h"

namespace shoal {

const char* ConflictName(ConflictKind kind) {
  switch (kind) {
    case ConflictKind::kConcurrentAppend: return "ConcurrentAppendException";
    case ConflictKind::kConcurrentDeleteRead: return "ConcurrentDeleteReadException";
    case ConflictKind::kConcurrentDeleteDelete: return "ConcurrentDeleteDeleteException";
    case ConflictKind::kMetadataChanged: return "MetadataChangedException";
    case ConflictKind::kConcurrentTransaction: return "ConcurrentTransactionException";
    case ConflictKind::kProtocolChanged: return "ProtocolChangedException";
    case ConflictKind::kNone: break;
  }
  return "ConflictException";
}

const char* Status::ErrorName() const {
  switch (code_) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument:
    case StatusCode::kCorruption: return "InvalidInputException";
    case StatusCode::kIOError: return "IOException";
    case StatusCode::kNotSupported: return "NotSupportedException";
    case StatusCode::kConflict: return ConflictName(conflict_);
    case StatusCode::kInternal: return "InternalException";
    case StatusCode::kParser: return "ParserException";
    case StatusCode::kBinder: return "BinderException";
    case StatusCode::kCatalog: return "CatalogException";
    case StatusCode::kConversion: return "ConversionException";
    case StatusCode::kOutOfRange: return "OutOfRangeException";
    case StatusCode::kConstraint: return "ConstraintException";
    case StatusCode::kTransaction: return "TransactionException";
    case StatusCode::kInterrupted: return "InterruptException";
    case StatusCode::kOutOfMemory: return "OutOfMemoryException";
  }
  return "InternalException";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(ErrorName()) + ": " + message_;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  return Status(code_, std::string(context) + ": " + message_, conflict_).WithErrorOffset(error_offset());
}

}  // namespace shoal
