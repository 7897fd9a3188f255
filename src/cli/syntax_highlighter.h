// Colours SQL as it is typed: keywords, string literals, numbers and comments get ANSI SGR
// codes, the rest is left as written. Tolerant of unfinished input (an open string or comment
// runs to the end), so any prefix of a statement can be shown.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace shoal::cli {

// The SGR sequences used (exposed for tests).
inline constexpr std::string_view kKeywordColor = "\x1b[1;32m";  // bold green
inline constexpr std::string_view kStringColor = "\x1b[33m";     // yellow
inline constexpr std::string_view kNumberColor = "\x1b[36m";     // cyan
inline constexpr std::string_view kCommentColor = "\x1b[90m";    // grey
inline constexpr std::string_view kResetColor = "\x1b[0m";

// `line` with colour codes around its tokens. `before` is the statement's text before the line
// (its earlier lines and a '\n'): a string or block comment left open there continues here.
// The visible characters are exactly those of `line`.
std::string HighlightSql(std::string_view line, std::string_view before = {});

// Whether the shell colours its input: both stdin and stdout are terminals, TERM is set and is
// not "dumb", and NO_COLOR is unset or empty (no-color.org).
bool ColorWanted(bool stdin_tty, bool stdout_tty, const char* term, const char* no_color);

}  // namespace shoal::cli
