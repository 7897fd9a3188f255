// ResultRows: builds the small, row-at-a-time results of the maintenance statements (VACUUM,
// RESTORE, DESCRIBE HISTORY/DETAIL, COPY) from columnar Values.
//
// Thread-safety: not thread-safe; one statement builds one result.
#pragma once

#include <string>
#include <vector>

#include "columnar/value.h"
#include "columnar/vector.h"
#include "shoal/database.h"

namespace shoal::sql {

class ResultRows {
 public:
  // Declares the next column (all columns before the first row).
  void AddColumn(std::string name, columnar::TypePtr type);
  // Appends one row: one value per column, of the column's type or NULL.
  void AddRow(const std::vector<columnar::Value>& row);
  QueryResult Build() const;

 private:
  std::shared_ptr<columnar::Schema> schema_ = std::make_shared<columnar::Schema>();
  std::vector<columnar::VectorPtr> columns_;
  int64_t rows_ = 0;
};

}  // namespace shoal::sql
