// View statements: CREATE [OR REPLACE] VIEW [IF NOT EXISTS] v [(columns)] AS query and
// DROP VIEW [IF EXISTS] v.
#include <algorithm>

#include "sql/parser/parser.h"

namespace shoal::sql {

Result<StatementPtr> Parser::ParseCreateView(size_t pos, bool or_replace) {
  auto s = std::make_unique<CreateViewStatement>(pos);
  s->or_replace = or_replace;
  RETURN_NOT_OK(ExpectKeyword("VIEW"));
  if (PeekKeyword("IF")) {
    const Token& if_token = Advance();
    RETURN_NOT_OK(ExpectKeyword("NOT"));
    RETURN_NOT_OK(ExpectKeyword("EXISTS"));
    if (or_replace) return ErrorAt(if_token, "OR REPLACE and IF NOT EXISTS cannot be combined");
    s->if_not_exists = true;
  }
  ASSIGN_OR_RETURN(s->name, ParseTableName());
  if (PeekOperator("(")) {
    ASSIGN_OR_RETURN(s->columns, IdentifierList());
  }
  RETURN_NOT_OK(ExpectKeyword("AS"));
  size_t begin = Peek().offset;
  ASSIGN_OR_RETURN(s->query, ParseQuery());
  // The query's text ends where its last token does: the start of the next token, less blanks.
  size_t end = std::min(Peek().offset, text_.size());
  while (end > begin && (text_[end - 1] == ' ' || text_[end - 1] == '\t' || text_[end - 1] == '\n' ||
                         text_[end - 1] == '\r')) {
    --end;
  }
  s->query_text = std::string(text_.substr(begin, end - begin));
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseDropView(size_t pos) {
  auto s = std::make_unique<DropViewStatement>(pos);
  RETURN_NOT_OK(ExpectKeyword("VIEW"));
  if (AcceptKeyword("IF")) {
    RETURN_NOT_OK(ExpectKeyword("EXISTS"));
    s->if_exists = true;
  }
  ASSIGN_OR_RETURN(s->name, ParseTableName());
  return StatementPtr(std::move(s));
}

}  // namespace shoal::sql
