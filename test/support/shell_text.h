// Small text helpers shared by the tests that drive the `shoal` binary (src/cli/*_e2e_test.cc).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace shoal::testing {

// `s` as one single-quoted POSIX shell word.
inline std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

// The whole content of a file ("" when it cannot be read).
inline std::string ReadFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// True when a shell error line starts with one of the Delta conflict error names.
inline bool IsConflictError(const std::string& line) {
  static const char* kNames[] = {"ConcurrentAppendException",
                                 "ConcurrentDeleteReadException",
                                 "ConcurrentDeleteDeleteException",
                                 "MetadataChangedException",
                                 "ConcurrentTransactionException",
                                 "ProtocolChangedException",
                                 "ConflictException"};
  for (const char* n : kNames) {
    if (line.rfind(n, 0) == 0) return true;
  }
  return false;
}

}  // namespace shoal::testing
