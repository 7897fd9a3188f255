// Fast path for the log's hot action lines: a single-pass JSON tokenizer that fills AddFile /
// RemoveFile directly from `{"add":{...}}` / `{"remove":{...}}` lines, without building a DOM.
// Nearly every line of a large log is one of these two.
//
// The fast path never decides an error: whenever a line is not a well-formed add/remove that
// the DOM parser (ParseActionJson) would accept with the same result — another action kind,
// malformed JSON, a wrong type, a duplicate key, a float, an out-of-range value, deep nesting —
// it declines, and the caller parses the line with the DOM parser, which produces the usual
// named error. So both paths agree on every input (the fuzz target checks this).
// Thread-safety: free functions over caller-owned data.
#pragma once

#include <optional>
#include <string_view>

#include "delta/actions.h"

namespace shoal::delta {

// Parses `line` when it is an add or remove action line that the fast path handles; returns
// std::nullopt otherwise (the caller then uses the DOM parser). Never fails.
std::optional<Action> TryParseFileActionLine(std::string_view line);

}  // namespace shoal::delta
