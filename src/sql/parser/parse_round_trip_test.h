// For the parser tests: parses one statement and checks that its print re-parses to the same
// print (test-only; included by src/sql/parser/*_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "sql/parser/parser.h"

namespace shoal::sql::parse_test {

// The statement's print, after checking it round-trips ("<error>" and a test failure when
// `text` does not parse).
inline std::string Print(std::string_view text) {
  auto r = ParseStatement(text);
  if (!r.ok()) {
    ADD_FAILURE() << text << ": " << r.status().ToString();
    return "<error>";
  }
  std::string printed = (*r)->ToString();
  auto again = ParseStatement(printed);
  if (!again.ok()) {
    ADD_FAILURE() << "re-parse of " << printed << ": " << again.status().ToString();
    return printed;
  }
  EXPECT_EQ((*again)->ToString(), printed) << "round trip of " << text;
  return printed;
}

}  // namespace shoal::sql::parse_test
