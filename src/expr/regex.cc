#include "expr/regex.h"

#include <re2/re2.h>

#include <mutex>
#include <unordered_map>

namespace shoal::expr {

namespace {

// Distinct patterns kept before the cache starts over (each RE2 may hold a DFA cache of a few MB).
constexpr size_t kCacheLimit = 64;

Status PatternError(std::string_view function, std::string_view pattern, std::string_view why) {
  return Status::InvalidArgument("[INVALID_PARAMETER_VALUE.PATTERN] The value of parameter(s) `regexp` in `" +
                                 std::string(function) + "` is invalid: '" + std::string(pattern) + "' (" +
                                 std::string(why) + ")");
}

}  // namespace

std::string TranslateJavaRegex(std::string_view p, std::string* error) {
  std::string out;
  out.reserve(p.size() + 8);
  bool in_class = false;
  size_t class_start = 0;  // index just after the class's '[' (and '^')
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      if (i + 1 < p.size() && p[i + 1] == 'Q') {  // \Q...\E quotes everything up to \E
        size_t end = p.find("\\E", i + 2);
        size_t stop = end == std::string_view::npos ? p.size() : end + 2;
        out.append(p.substr(i, stop - i));
        i = stop - 1;
        continue;
      }
      out.push_back(c);
      if (i + 1 < p.size()) out.push_back(p[++i]);
      continue;
    }
    if (in_class) {
      if (c == ']' && i > class_start) {
        in_class = false;
      } else if (c == '[') {
        *error = "a nested character class '[' (Java's class union) is not supported";
        return {};
      } else if (c == '&' && i + 1 < p.size() && p[i + 1] == '&') {
        *error = "character class intersection '&&' is not supported";
        return {};
      }
      out.push_back(c);
      continue;
    }
    if (c == '[') {
      in_class = true;
      out.push_back(c);
      if (i + 1 < p.size() && p[i + 1] == '^') out.push_back(p[++i]);
      class_start = i + 1;
      continue;
    }
    if (c == '(' && p.substr(i, 3) == "(?<" && i + 3 < p.size() && p[i + 3] != '=' && p[i + 3] != '!') {
      out.append("(?P<");  // Java's named group
      i += 2;
      continue;
    }
    out.push_back(c);
  }
  return out;
}

Result<std::shared_ptr<const Regex>> Regex::Get(std::string_view pattern, std::string_view function) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<const Regex>> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(std::string(pattern));
    if (it != cache.end()) return it->second;
  }
  std::string error;
  std::string translated = TranslateJavaRegex(pattern, &error);
  if (!error.empty()) return PatternError(function, pattern, error);
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<RE2>(re2::StringPiece(translated.data(), translated.size()), options);
  if (!re->ok()) return PatternError(function, pattern, re->error());
  std::shared_ptr<Regex> compiled(new Regex());
  compiled->pattern_.assign(pattern);
  compiled->groups_ = re->NumberOfCapturingGroups();
  compiled->re_ = std::move(re);
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= kCacheLimit) cache.clear();
  cache.emplace(std::string(pattern), compiled);
  return std::shared_ptr<const Regex>(compiled);
}

Regex::~Regex() = default;

bool Regex::PartialMatch(std::string_view text) const {
  return re_->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, nullptr, 0);
}

bool Regex::Find(std::string_view text, size_t from, Groups* groups) const {
  const int n = groups_ + 1;
  constexpr int kInline = 16;  // groups held on the stack; more take one allocation per call
  re2::StringPiece inline_sub[kInline];
  std::vector<re2::StringPiece> heap_sub(n > kInline ? static_cast<size_t>(n) : 0);
  re2::StringPiece* sub = n > kInline ? heap_sub.data() : inline_sub;
  if (!re_->Match(re2::StringPiece(text.data(), text.size()), from, text.size(), RE2::UNANCHORED, sub, n)) {
    return false;
  }
  groups->resize(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    (*groups)[k] = sub[k].data() ? std::string_view(sub[k].data(), sub[k].size()) : std::string_view();
  }
  return true;
}

size_t Regex::NextCharacter(std::string_view text, size_t pos) {
  if (pos >= text.size()) return pos + 1;
  ++pos;
  while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) ++pos;
  return pos;
}

Status Regex::AppendReplacement(std::string_view rep, const Groups& groups, std::string* out) const {
  for (size_t i = 0; i < rep.size(); ++i) {
    char c = rep[i];
    if (c == '\\') {
      if (++i == rep.size()) return Status::InvalidArgument("character to be escaped is missing in replacement '" +
                                                            std::string(rep) + "'");
      out->push_back(rep[i]);
      continue;
    }
    if (c != '$') {
      out->push_back(c);
      continue;
    }
    if (++i == rep.size()) {
      return Status::InvalidArgument("Illegal group reference: group index is missing in replacement '" +
                                     std::string(rep) + "'");
    }
    int group = 0;
    if (rep[i] == '{') {
      size_t close = rep.find('}', i);
      if (close == std::string_view::npos || close == i + 1) {
        return Status::InvalidArgument("Illegal group reference in replacement '" + std::string(rep) + "'");
      }
      std::string name(rep.substr(i + 1, close - i - 1));
      const auto& named = re_->NamedCapturingGroups();
      auto it = named.find(name);
      if (it == named.end()) {
        return Status::InvalidArgument("No group with name {" + name + "} in replacement '" + std::string(rep) + "'");
      }
      group = it->second;
      i = close;
    } else {
      if (rep[i] < '0' || rep[i] > '9') {
        return Status::InvalidArgument("Illegal group reference in replacement '" + std::string(rep) + "'");
      }
      group = rep[i] - '0';
      if (group > groups_) {
        return Status::InvalidArgument("No group " + std::to_string(group) + " in replacement '" + std::string(rep) +
                                       "' (the pattern has " + std::to_string(groups_) + ")");
      }
      // Java takes further digits while the number stays a valid group.
      while (i + 1 < rep.size() && rep[i + 1] >= '0' && rep[i + 1] <= '9' &&
             group * 10 + (rep[i + 1] - '0') <= groups_) {
        group = group * 10 + (rep[++i] - '0');
      }
    }
    const std::string_view g = groups[static_cast<size_t>(group)];
    if (g.data()) out->append(g);
  }
  return Status::OK();
}

}  // namespace shoal::expr
