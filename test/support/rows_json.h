// Record batches as JSON object texts, one per row, for comparing rows in tests.
#pragma once

#include <string>
#include <vector>

#include "columnar/value_text.h"
#include "columnar/vector.h"

namespace shoal::testing {

// {"col":value,...} per row, columns in schema order, values as columnar::AppendJson writes them.
inline std::vector<std::string> RowsAsJson(const std::vector<columnar::BatchPtr>& batches) {
  std::vector<std::string> rows;
  for (const auto& b : batches) {
    for (int64_t r = 0; r < b->num_rows; ++r) {
      std::string s = "{";
      for (size_t c = 0; c < b->num_columns(); ++c) {
        if (c) s += ",";
        columnar::AppendJsonString(b->schema->fields[c].name, &s);
        s += ":";
        columnar::AppendJson(*b->column(c), r, &s);
      }
      s += "}";
      rows.push_back(std::move(s));
    }
  }
  return rows;
}

}  // namespace shoal::testing
