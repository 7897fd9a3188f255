// One line per row of a query result, its columns' text joined by '|': the form the SQL tests
// compare results in.
#pragma once

#include <string>
#include <vector>

#include "shoal/database.h"

namespace shoal::testing {

inline std::vector<std::string> Rows(const QueryResult& r) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < r.num_rows(); ++i) {
    std::string line;
    for (int c = 0; c < r.num_columns(); ++c) {
      if (c) line += '|';
      line += r.GetText(i, c);
    }
    out.push_back(line);
  }
  return out;
}

}  // namespace shoal::testing
