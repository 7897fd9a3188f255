// Status and Result<T>: shoal's one error model. Every fallible function at a module boundary
// returns one of them; nothing throws across a module boundary.
//
// Thread-safety: values; safe to copy between threads.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace shoal {

// Who is to blame, and so which named error the user sees (ErrorName()).
enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalidArgument,  // bad user input or invalid data  -> InvalidInputException
  kCorruption,       // bad file / log bytes               -> InvalidInputException
  kIOError,          // the storage failed                 -> IOException
  kNotSupported,     // valid but not (yet) supported     -> NotSupportedException
  kConflict,         // a commit lost a race (ConflictKind says which Delta error)
  kInternal,         // a bug in shoal                     -> InternalException
  kParser,           // SQL text does not parse            -> ParserException
  kBinder,           // unknown name, type mismatch        -> BinderException
  kCatalog,          // table, view or setting exists / does not exist -> CatalogException
  kConversion,       // a value cannot be cast             -> ConversionException
  kOutOfRange,       // arithmetic overflow, bad index     -> OutOfRangeException
  kConstraint,       // NOT NULL / CHECK / MERGE cardinality -> ConstraintException
  kTransaction,      // misuse of BEGIN/COMMIT/PREPARE     -> TransactionException
  kInterrupted,      // cancelled by the user              -> InterruptException
  kOutOfMemory,      // memory_limit reached               -> OutOfMemoryException
};

// The six Delta conflict errors (DESIGN.md §1); names are exact.
enum class ConflictKind : unsigned char {
  kNone = 0,
  kConcurrentAppend,
  kConcurrentDeleteRead,
  kConcurrentDeleteDelete,
  kMetadataChanged,
  kConcurrentTransaction,
  kProtocolChanged,
};

const char* ConflictName(ConflictKind kind);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message, ConflictKind conflict = ConflictKind::kNone)
      : code_(code), conflict_(conflict), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status Corruption(std::string m) { return {StatusCode::kCorruption, std::move(m)}; }
  static Status IOError(std::string m) { return {StatusCode::kIOError, std::move(m)}; }
  static Status NotSupported(std::string m) { return {StatusCode::kNotSupported, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status Parser(std::string m) { return {StatusCode::kParser, std::move(m)}; }
  static Status Binder(std::string m) { return {StatusCode::kBinder, std::move(m)}; }
  static Status Catalog(std::string m) { return {StatusCode::kCatalog, std::move(m)}; }
  static Status Conversion(std::string m) { return {StatusCode::kConversion, std::move(m)}; }
  static Status OutOfRange(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
  static Status Constraint(std::string m) { return {StatusCode::kConstraint, std::move(m)}; }
  static Status Transaction(std::string m) { return {StatusCode::kTransaction, std::move(m)}; }
  static Status Interrupted(std::string m) { return {StatusCode::kInterrupted, std::move(m)}; }
  static Status OutOfMemory(std::string m) { return {StatusCode::kOutOfMemory, std::move(m)}; }
  static Status Conflict(ConflictKind kind, std::string m) {
    return {StatusCode::kConflict, std::move(m), kind};
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  ConflictKind conflict() const { return conflict_; }
  const std::string& message() const { return message_; }
  bool IsConflict() const { return code_ == StatusCode::kConflict; }
  bool IsNotSupported() const { return code_ == StatusCode::kNotSupported; }
  bool IsCorruption() const { return code_ == StatusCode::kCorruption; }
  bool IsIOError() const { return code_ == StatusCode::kIOError; }
  bool IsOutOfMemory() const { return code_ == StatusCode::kOutOfMemory; }

  // The user-visible error name, e.g. "ParserException" or "ConcurrentAppendException".
  const char* ErrorName() const;
  // "<ErrorName>: <message>", or "OK".
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context` + ": ".
  Status WithContext(std::string_view context) const;

  // The byte offset of the offending token in the SQL text the caller passed
  // (Connection::Query, Execute, Stream, Prepare: the whole text, even of a script of many
  // statements), for parser and binder errors that know it; nullopt otherwise.
  std::optional<int64_t> error_offset() const {
    if (error_offset_ < 0) return std::nullopt;
    return error_offset_;
  }
  // Returns a copy that points at `offset` (nullopt or a negative value: points nowhere).
  Status WithErrorOffset(std::optional<int64_t> offset) const {
    Status copy = *this;
    copy.error_offset_ = offset && *offset >= 0 ? *offset : -1;
    return copy;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  ConflictKind conflict_ = ConflictKind::kNone;
  int64_t error_offset_ = -1;  // -1: unknown
  std::string message_;
};

// A value or an error Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok() && "Result constructed from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(v_); }

  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T ValueOrDie() && {
    if (!ok()) std::abort();
    return std::get<T>(std::move(v_));
  }

  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace shoal

#define SHOAL_CONCAT_IMPL(a, b) a##b
#define SHOAL_CONCAT(a, b) SHOAL_CONCAT_IMPL(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
#define RETURN_NOT_OK(expr)                    \
  do {                                         \
    ::shoal::Status _st = (expr);              \
    if (!_st.ok()) return _st;                 \
  } while (false)

#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                          \
  if (!tmp.ok()) return tmp.status();          \
  lhs = std::move(tmp).value()

// `ASSIGN_OR_RETURN(auto x, F());` declares x from F()'s value, or returns its error.
#define ASSIGN_OR_RETURN(lhs, rexpr) \
  ASSIGN_OR_RETURN_IMPL(SHOAL_CONCAT(_result_, __LINE__), lhs, rexpr)
