// Resolves the `path` of an add/remove/cdc action (or a 'p' deletion vector) to a local file
// path under the table root, rejecting anything that would escape the root.
//
// Delta stores paths as URIs: relative paths are percent-encoded (RFC 2396) and resolved
// against the table root; absolute paths are URIs such as `file:/x` or `file:///x`. Escaping
// the table (`..` segments, absolute paths elsewhere, other schemes) is InvalidArgument: a
// crafted log must not make shoal read or delete files outside the table.
// Thread-safety: free functions without shared state.
#pragma once

#include <string>
#include <string_view>

#include "shoal/status.h"

namespace shoal::delta {

// Percent-decodes `s` ("%20" -> ' '; '+' stays '+'). A '%' not followed by two hex digits,
// or a decoded NUL byte, is InvalidArgument.
Result<std::string> PercentDecode(std::string_view s);

// Percent-encodes a relative path the way Spark writes it (Hadoop Path.toUri): characters
// outside the unreserved/path set are encoded, '/' is kept.
std::string PercentEncodePath(std::string_view s);

// The local path of `path` for the table at `table_root` (a local directory, no scheme).
Result<std::string> ResolveTablePath(std::string_view table_root, std::string_view path);

// Lexically normalizes an absolute or relative POSIX path: collapses "//" and "." segments,
// strips a trailing '/'. ".." segments are returned as InvalidArgument.
Result<std::string> NormalizePathNoDotDot(std::string_view path);

}  // namespace shoal::delta
