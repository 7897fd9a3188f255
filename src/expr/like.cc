#include "expr/like.h"

namespace shoal::expr {

namespace {

inline char Fold(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

inline size_t Utf8Len(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;  // stray continuation byte: one "character"
}

bool EqualFolded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Fold(a[i]) != b[i]) return false;
  }
  return true;
}

}  // namespace

Result<LikeMatcher> LikeMatcher::Compile(std::string_view pattern, std::string_view escape,
                                         bool case_insensitive) {
  if (escape.size() > 1) {
    return Status::InvalidArgument("Invalid escape string '" + std::string(escape) +
                                   "': the escape must be empty or one character");
  }
  LikeMatcher m;
  m.case_insensitive_ = case_insensitive;
  const bool has_escape = !escape.empty();
  const char esc = has_escape ? escape[0] : 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (has_escape && c == esc) {
      if (i + 1 >= pattern.size()) {
        return Status::InvalidArgument("LIKE pattern '" + std::string(pattern) + "' ends with the escape character");
      }
      c = pattern[++i];
    } else if (c == '%') {
      if (m.pieces_.empty() || m.pieces_.back().token != Token::kAnyRun) m.pieces_.push_back({Token::kAnyRun, {}});
      continue;
    } else if (c == '_') {
      m.pieces_.push_back({Token::kAnyOne, {}});
      continue;
    }
    if (case_insensitive) c = Fold(c);
    if (m.pieces_.empty() || m.pieces_.back().token != Token::kLiteral) m.pieces_.push_back({Token::kLiteral, {}});
    m.pieces_.back().text.push_back(c);
  }
  const auto& p = m.pieces_;
  auto lit = [&](size_t i) { return i < p.size() && p[i].token == Token::kLiteral; };
  auto run = [&](size_t i) { return i < p.size() && p[i].token == Token::kAnyRun; };
  if (lit(0)) m.prefix_ = p[0].text;
  if (p.empty()) {
    m.shape_ = Shape::kExact;
  } else if (p.size() == 1 && lit(0)) {
    m.shape_ = Shape::kExact;
    m.literal_ = p[0].text;
  } else if (p.size() == 1 && run(0)) {
    m.shape_ = Shape::kInfix;  // '%': infix of ""
  } else if (p.size() == 2 && lit(0) && run(1)) {
    m.shape_ = Shape::kPrefix;
    m.literal_ = p[0].text;
  } else if (p.size() == 2 && run(0) && lit(1)) {
    m.shape_ = Shape::kSuffix;
    m.literal_ = p[1].text;
  } else if (p.size() == 3 && run(0) && lit(1) && run(2)) {
    m.shape_ = Shape::kInfix;
    m.literal_ = p[1].text;
  }
  return m;
}

bool LikeMatcher::Matches(std::string_view text) const {
  const std::string& l = literal_;
  if (!case_insensitive_) {
    switch (shape_) {
      case Shape::kExact: return text == l;
      case Shape::kPrefix: return text.substr(0, l.size()) == l;
      case Shape::kSuffix: return text.size() >= l.size() && text.substr(text.size() - l.size()) == l;
      case Shape::kInfix: return text.find(l) != std::string_view::npos;
      case Shape::kGeneral: break;
    }
  } else {
    switch (shape_) {
      case Shape::kExact: return EqualFolded(text, l);
      case Shape::kPrefix: return text.size() >= l.size() && EqualFolded(text.substr(0, l.size()), l);
      case Shape::kSuffix:
        return text.size() >= l.size() && EqualFolded(text.substr(text.size() - l.size()), l);
      default: break;
    }
  }
  return MatchGeneral(text);
}

bool LikeMatcher::MatchGeneral(std::string_view text) const {
  // Greedy wildcard matching with backtracking to the last '%': O(|text| * |pattern|).
  size_t piece = 0, offset = 0;  // position in the pattern: piece and offset within a literal
  size_t t = 0;
  size_t star_piece = SIZE_MAX, star_text = 0;
  const size_t np = pieces_.size();
  while (t < text.size()) {
    if (piece < np) {
      const Piece& p = pieces_[piece];
      if (p.token == Token::kLiteral) {
        char c = case_insensitive_ ? Fold(text[t]) : text[t];
        if (c == p.text[offset]) {
          ++t;
          if (++offset == p.text.size()) {
            ++piece;
            offset = 0;
          }
          continue;
        }
      } else if (p.token == Token::kAnyOne) {
        t += Utf8Len(static_cast<unsigned char>(text[t]));
        if (t > text.size()) t = text.size();
        ++piece;
        continue;
      } else {  // kAnyRun
        star_piece = piece++;
        star_text = t;
        continue;
      }
    }
    if (star_piece == SIZE_MAX) return false;
    piece = star_piece + 1;
    offset = 0;
    star_text += Utf8Len(static_cast<unsigned char>(text[star_text]));
    if (star_text > text.size()) return false;
    t = star_text;
  }
  while (piece < np && offset == 0 && pieces_[piece].token == Token::kAnyRun) ++piece;
  return piece == np && offset == 0;
}

}  // namespace shoal::expr
