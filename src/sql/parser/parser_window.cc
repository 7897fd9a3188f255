// Window and grouping-set syntax: OVER (PARTITION BY ... ORDER BY ... frame), WINDOW name AS
// (...), and GROUP BY lists with ROLLUP / CUBE / GROUPING SETS.
#include "sql/parser/parser.h"

namespace shoal::sql {

Result<std::unique_ptr<WindowSpec>> Parser::ParseOver() {
  auto spec = std::make_unique<WindowSpec>();
  if (!PeekOperator("(")) {
    ASSIGN_OR_RETURN(spec->base, Identifier());
    UpdateHeight(*spec);
    return spec;
  }
  Advance();
  RETURN_NOT_OK(ParseWindowSpecBody(spec.get()));
  RETURN_NOT_OK(ExpectOperator(")"));
  UpdateHeight(*spec);
  return spec;
}

Status Parser::ParseWindowSpecBody(WindowSpec* spec) {
  // An optional base window name comes first: (w ORDER BY x).
  if (PeekIdentifier() && !PeekKeyword("PARTITION") && !PeekKeyword("ORDER") &&
      !PeekKeyword("ROWS") && !PeekKeyword("RANGE") && !PeekKeyword("GROUPS")) {
    spec->base = Advance().text;
  }
  if (AcceptKeyword("PARTITION")) {
    RETURN_NOT_OK(ExpectKeyword("BY"));
    ASSIGN_OR_RETURN(spec->partition_by, ParseExprList());
  }
  if (PeekKeyword("ORDER")) RETURN_NOT_OK(ParseOrderBy(&spec->order_by));
  if (PeekKeyword("GROUPS")) return ErrorAt(Peek(), "GROUPS window frames are not supported");
  if (PeekKeyword("ROWS") || PeekKeyword("RANGE")) {
    WindowFrame frame;
    frame.unit = Advance().IsKeyword("ROWS") ? FrameUnit::kRows : FrameUnit::kRange;
    if (AcceptKeyword("BETWEEN")) {
      RETURN_NOT_OK(ParseFrameBound(&frame.start));
      RETURN_NOT_OK(ExpectKeyword("AND"));
      RETURN_NOT_OK(ParseFrameBound(&frame.end));
    } else {
      RETURN_NOT_OK(ParseFrameBound(&frame.start));
      frame.end.kind = FrameBoundKind::kCurrentRow;
    }
    if (PeekKeyword("EXCLUDE")) return ErrorAt(Peek(), "window frame EXCLUDE is not supported");
    spec->frame = std::move(frame);
  }
  return Status::OK();
}

Status Parser::ParseFrameBound(FrameBound* bound) {
  if (AcceptKeyword("UNBOUNDED")) {
    if (AcceptKeyword("PRECEDING")) {
      bound->kind = FrameBoundKind::kUnboundedPreceding;
      return Status::OK();
    }
    RETURN_NOT_OK(ExpectKeyword("FOLLOWING"));
    bound->kind = FrameBoundKind::kUnboundedFollowing;
    return Status::OK();
  }
  if (PeekKeyword("CURRENT") && PeekKeyword("ROW", 1)) {
    Advance();
    Advance();
    bound->kind = FrameBoundKind::kCurrentRow;
    return Status::OK();
  }
  // The offset binds tighter than AND (BETWEEN 1 PRECEDING AND ...).
  ASSIGN_OR_RETURN(bound->offset, ParseExpr(/*min_precedence=*/3));
  if (AcceptKeyword("PRECEDING")) {
    bound->kind = FrameBoundKind::kPreceding;
    return Status::OK();
  }
  RETURN_NOT_OK(ExpectKeyword("FOLLOWING"));
  bound->kind = FrameBoundKind::kFollowing;
  return Status::OK();
}

namespace {

bool IsEmptyParens(const Token& a, const Token& b) { return a.IsOperator("(") && b.IsOperator(")"); }

}  // namespace

Status Parser::ParseGroupBy(SelectNode* node) {
  do {
    GroupingElement element;
    bool fancy = true;
    if ((PeekKeyword("ROLLUP") || PeekKeyword("CUBE")) && PeekOperator("(", 1)) {
      element.kind = Advance().IsKeyword("ROLLUP") ? GroupingElement::Kind::kRollup
                                                   : GroupingElement::Kind::kCube;
    } else if (PeekKeyword("GROUPING") && PeekKeyword("SETS", 1)) {
      Advance();
      Advance();
      element.kind = GroupingElement::Kind::kGroupingSets;
    } else {
      fancy = false;
    }
    if (!fancy) {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      node->group_by.push_back(std::move(e));
      continue;
    }
    RETURN_NOT_OK(ExpectOperator("("));
    do {
      std::vector<ExprPtr> set;
      if (IsEmptyParens(Peek(), Peek(1))) {
        if (element.kind != GroupingElement::Kind::kGroupingSets) {
          return ErrorAt(Peek(), "() is only allowed in GROUPING SETS");
        }
        Advance();
        Advance();
      } else if (PeekOperator("(")) {
        // (a, b) is a composite element; (a + b) is a composite of one expression.
        Advance();
        ASSIGN_OR_RETURN(set, ParseExprList());
        RETURN_NOT_OK(ExpectOperator(")"));
      } else {
        ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
        set.push_back(std::move(e));
      }
      element.items.push_back(std::move(set));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    node->grouping_elements.push_back(std::move(element));
  } while (AcceptOperator(","));
  return Status::OK();
}

Status Parser::ParseWindowClause(SelectNode* node) {
  do {
    ASSIGN_OR_RETURN(std::string name, Identifier());
    RETURN_NOT_OK(ExpectKeyword("AS"));
    RETURN_NOT_OK(ExpectOperator("("));
    WindowSpec spec;
    RETURN_NOT_OK(ParseWindowSpecBody(&spec));
    RETURN_NOT_OK(ExpectOperator(")"));
    UpdateHeight(spec);
    node->windows.emplace_back(std::move(name), std::move(spec));
  } while (AcceptOperator(","));
  return Status::OK();
}

}  // namespace shoal::sql
