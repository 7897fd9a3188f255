// Compares JSON values produced by shoal and by an oracle (DuckDB, expectation files) for tests:
// numbers numerically, strings against numbers by their text, objects key by key.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace shoal::testing {

struct JsonCompareOptions {
  // Object keys must come in the same order (else they are matched by name).
  bool ordered_keys = false;
  // Integers that differ exactly may still match as doubles/floats (oracles that print
  // integral floats as integers).
  bool integers_as_floats = false;
  // A "+00" suffix (DuckDB's TIMESTAMP WITH TIME ZONE text) is ignored on strings.
  bool ignore_utc_suffix = false;
};

// True when `a` and `b` match; otherwise *why names the first difference (with its key path).
// Floats match when equal as doubles or as floats.
bool SameJson(const nlohmann::json& a, const nlohmann::json& b, std::string* why,
              const JsonCompareOptions& options = {});

}  // namespace shoal::testing
