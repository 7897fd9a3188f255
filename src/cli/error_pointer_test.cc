#include "cli/error_pointer.h"

#include <gtest/gtest.h>

namespace shoal::cli {
namespace {

TEST(ErrorPointer, PointsAtTheErrorOffsetOnItsLine) {
  const std::string sql = "SELECT a\n  FORM t";
  Status st = Status::Parser("syntax error at or near \"FORM\"").WithErrorOffset(sql.find("FORM"));
  EXPECT_EQ(ErrorPointer(st, sql), "LINE 2:   FORM t\n          ^\n");
  // The message's "(line, column)" is not read: the offset is what points.
  Status no_offset = Status::Parser("syntax error at or near \"FORM\" (line 2, column 3)");
  EXPECT_EQ(ErrorPointer(no_offset, sql), "");
}

TEST(ErrorPointer, AnOffsetPastTheTextPointsNowhere) {
  Status st = Status::Binder("Referenced column \"nope\" not found").WithErrorOffset(40);
  EXPECT_EQ(ErrorPointer(st, "SELECT nope"), "");
  // At the very end (a parser error at end of input): the caret after the last character.
  EXPECT_EQ(ErrorPointer(Status::Parser("syntax error at end of input").WithErrorOffset(6), "SELECT"),
            "LINE 1: SELECT\n              ^\n");
}

TEST(ErrorPointer, BinderErrorWithoutOffsetFallsBackToTheNameOutsideStrings) {
  Status st = Status::Binder("Referenced column \"nope\" not found. Candidates: a");
  // 'nope' in a string literal and nopes as a longer word are skipped.
  EXPECT_EQ(ErrorPointer(st, "SELECT 'nope', nopes, NOPE FROM t"),
            "LINE 1: SELECT 'nope', nopes, NOPE FROM t\n"
            "                              ^\n");
  Status qualified = Status::Binder("Referenced column \"x.nope\" not found");
  EXPECT_EQ(LocateError(qualified, "SELECT\n x.nope")->line, 2);
  EXPECT_EQ(LocateError(qualified, "SELECT\n x.nope")->column, 4);
}

TEST(ErrorPointer, OtherErrorsPointNowhere) {
  EXPECT_EQ(ErrorPointer(Status::InvalidArgument("bad (line 1, column 1)"), "SELECT 1"), "");
  EXPECT_EQ(ErrorPointer(Status::Binder("Referenced column \"zz\" not found"), "SELECT 1"), "");
}

}  // namespace
}  // namespace shoal::cli
