// libFuzzer target for the SQL front end: lexes and parses arbitrary text, checks the
// shell's completeness test, and checks that every parsed statement prints back to SQL that
// parses to the same print (ToString round trip). Any crash, sanitizer report or round-trip
// mismatch is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sql/parser/lexer.h"
#include "sql/parser/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)shoal::sql::IsCompleteStatement(text);
  (void)shoal::sql::ParseExpression(text);
  auto parsed = shoal::sql::ParseStatements(text);
  if (!parsed.ok()) return 0;
  for (const auto& stmt : *parsed) {
    std::string printed = stmt->ToString();
    auto again = shoal::sql::ParseStatement(printed);
    if (!again.ok()) {
      // Printing adds parentheses, so a tree near the depth limit may not re-parse.
      if (again.status().message().find("nested too deeply") != std::string::npos) continue;
      std::fprintf(stderr, "re-parse failed: %s\n%s\n", again.status().ToString().c_str(),
                   printed.c_str());
      std::abort();
    }
    std::string reprinted = (*again)->ToString();
    if (reprinted != printed) {
      std::fprintf(stderr, "round trip differs:\n%s\n%s\n", printed.c_str(), reprinted.c_str());
      std::abort();
    }
  }
  return 0;
}
