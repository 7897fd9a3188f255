#include "txn/simple_predicate.h"

#include <cctype>
#include <charconv>
#include <string_view>
#include <vector>

namespace shoal::txn {
namespace {

struct SimpleLexer {
  std::string_view s;
  size_t pos = 0;
  void Skip() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool AtEnd() {
    Skip();
    return pos >= s.size();
  }
  std::string Word() {
    Skip();
    size_t b = pos;
    while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_')) ++pos;
    return std::string(s.substr(b, pos - b));
  }
  std::string Op() {
    Skip();
    for (const char* op : {"<=", ">=", "<>", "!=", "=", "<", ">"}) {
      std::string_view o(op);
      if (s.substr(pos, o.size()) == o) {
        pos += o.size();
        return o == "!=" ? "<>" : std::string(o);
      }
    }
    return "";
  }
};

}  // namespace

Result<expr::ExprPtr> BindSimplePredicate(const std::string& sql, const scan::TableSchema& schema) {
  SimpleLexer lx{sql};
  std::vector<expr::ExprPtr> conjuncts;
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("cannot re-bind predicate '" + sql + "': " + why + " at position " +
                                   std::to_string(lx.pos));
  };
  while (true) {
    std::string column = lx.Word();
    if (column.empty()) return bad("expected a column");
    int idx = schema.Find(column);
    if (idx < 0) return bad("unknown column '" + column + "'");
    std::string op = lx.Op();
    if (op.empty()) return bad("expected a comparison");
    lx.Skip();
    columnar::Value literal;
    if (lx.pos < sql.size() && sql[lx.pos] == '\'') {
      std::string text;
      ++lx.pos;
      bool closed = false;
      while (lx.pos < sql.size()) {
        char c = sql[lx.pos++];
        if (c == '\'') {
          if (lx.pos < sql.size() && sql[lx.pos] == '\'') {
            text.push_back('\'');
            ++lx.pos;
            continue;
          }
          closed = true;
          break;
        }
        text.push_back(c);
      }
      if (!closed) return bad("unterminated string");
      literal = columnar::Value::String(std::move(text));
    } else {
      size_t b = lx.pos;
      while (lx.pos < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[lx.pos])) ||
                                     sql[lx.pos] == '.' || sql[lx.pos] == '-' || sql[lx.pos] == '+')) {
        ++lx.pos;
      }
      std::string text = sql.substr(b, lx.pos - b);
      int64_t i = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
      if (text == "true" || text == "false") {
        literal = columnar::Value::Boolean(text == "true");
      } else if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) {
        literal = columnar::Value::Int64(i);
      } else {
        double d = 0;
        auto [dend, dec] = std::from_chars(text.data(), text.data() + text.size(), d);
        if (text.empty() || dec != std::errc() || dend != text.data() + text.size()) {
          return bad("expected a literal");
        }
        literal = columnar::Value::Double(d);
      }
    }
    auto ref = expr::ColumnRef(idx, schema.schema[idx].type, schema.schema[idx].name);
    ASSIGN_OR_RETURN(auto cmp, expr::Call(op, {ref, expr::Literal(std::move(literal))}));
    conjuncts.push_back(std::move(cmp));
    if (lx.AtEnd()) break;
    std::string kw = lx.Word();
    if (kw != "AND" && kw != "and") return bad("expected AND");
  }
  return expr::And(std::move(conjuncts));
}

}  // namespace shoal::txn
