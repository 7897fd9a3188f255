// Java-syntax regular expressions (Spark's `regexp` arguments) on RE2: compiles a pattern once
// (a process-wide cache keyed by the pattern text) and finds matches the way java.util.regex's
// Matcher.find does, including its step past an empty match.
//
// RE2 has no backreferences, lookaround, possessive quantifiers or atomic groups; such a pattern
// is an [INVALID_PARAMETER_VALUE.PATTERN] error, never another meaning. Java-only syntax RE2
// would read differently (class union/intersection `[a[b]]`, `[a&&b]`) is rejected the same way;
// Java's named groups `(?<name>...)` are accepted.
//
// Thread-safety: a compiled Regex is immutable and may be used from many threads; the cache is
// guarded by a mutex.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace re2 {
class RE2;
}

namespace shoal::expr {

class Regex {
 public:
  // A match: groups[0] is the whole match, groups[k] group k (data() null when it did not take
  // part).
  using Groups = std::vector<std::string_view>;

  // The compiled pattern (cached); the error names `function` and the pattern.
  static Result<std::shared_ptr<const Regex>> Get(std::string_view pattern, std::string_view function);
  ~Regex();

  const std::string& pattern() const { return pattern_; }
  // Number of capturing groups.
  int groups() const { return groups_; }
  // Whether the pattern matches somewhere in `text` (Java's find()).
  bool PartialMatch(std::string_view text) const;
  // The first match at or after byte `from`, as Matcher.find(from); false when none. `groups`
  // gets 1 + groups() entries.
  bool Find(std::string_view text, size_t from, Groups* groups) const;
  // Calls fn(groups) for each successive match from the start of `text`, as repeated
  // Matcher.find() calls: after an empty match the search resumes one character later. fn
  // returns false to stop.
  template <typename Fn>
  void ForEachMatch(std::string_view text, Fn fn) const {
    Groups g;
    size_t from = 0;
    while (from <= text.size() && Find(text, from, &g)) {
      if (!fn(g)) return;
      size_t end = static_cast<size_t>(g[0].data() - text.data()) + g[0].size();
      from = g[0].empty() ? NextCharacter(text, end) : end;
    }
  }
  // Appends `replacement` for one match to *out, with Java's Matcher.appendReplacement rules:
  // `$n` / `${name}` insert a group (NULL group: nothing), `\x` is a literal x. Errors name the
  // bad reference.
  Status AppendReplacement(std::string_view replacement, const Groups& groups, std::string* out) const;

  // Byte offset of the character after the one at `pos` (pos + 1 past the end).
  static size_t NextCharacter(std::string_view text, size_t pos);

 private:
  Regex() = default;

  std::string pattern_;
  std::unique_ptr<re2::RE2> re_;
  int groups_ = 0;
};

// Java pattern syntax to RE2 syntax: `(?<name>` becomes `(?P<name>`; constructs RE2 would
// silently read differently are an error message (non-empty) in *error.
std::string TranslateJavaRegex(std::string_view pattern, std::string* error);

}  // namespace shoal::expr
