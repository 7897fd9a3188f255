// LIKE / ILIKE pattern matching: `%` matches any run of characters, `_` exactly one UTF-8
// character, the optional escape character makes the next pattern character literal.
// Compiling picks a fast path for the common shapes: exact, 'prefix%', '%suffix', '%infix%'.
// ILIKE folds ASCII letters only.
//
// Thread-safety: a compiled LikeMatcher is immutable and may be shared.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::expr {

class LikeMatcher {
 public:
  // `escape` is empty (none) or one character; a pattern ending in the escape is an error.
  static Result<LikeMatcher> Compile(std::string_view pattern, std::string_view escape,
                                     bool case_insensitive);
  bool Matches(std::string_view text) const;

  // The literal prefix every match starts with, and whether the pattern is exactly
  // `prefix%` (used by statistics pruning).
  const std::string& literal_prefix() const { return prefix_; }
  bool is_prefix_pattern() const { return shape_ == Shape::kPrefix; }
  bool is_exact() const { return shape_ == Shape::kExact; }

 private:
  enum class Shape : uint8_t { kExact, kPrefix, kSuffix, kInfix, kGeneral };
  enum class Token : uint8_t { kLiteral, kAnyOne, kAnyRun };
  struct Piece {
    Token token;
    std::string text;  // kLiteral
  };

  bool MatchGeneral(std::string_view text) const;

  Shape shape_ = Shape::kGeneral;
  bool case_insensitive_ = false;
  std::string literal_;  // kExact/kPrefix/kSuffix/kInfix
  std::string prefix_;
  std::vector<Piece> pieces_;
};

}  // namespace shoal::expr
