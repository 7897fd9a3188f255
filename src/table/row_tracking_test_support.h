// Test support for row tracking: the row id of every live row of a table, keyed by the value
// of one BIGINT column, read through the materialized row id columns (table/row_id_columns.h).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "delta/snapshot.h"
#include "table/live_rows_reader.h"
#include "table/row_id_columns.h"
#include "txn/row_id_remap.h"
#include "txn/row_tracking.h"

namespace shoal::table::testing_support {

inline std::map<int64_t, int64_t> RowIdsByKey(const std::shared_ptr<io::FileSystem>& fs, const std::string& root,
                                              const std::string& key_column) {
  std::map<int64_t, int64_t> out;
  auto snap = delta::Snapshot::Load(fs, root);
  EXPECT_TRUE(snap.ok()) << snap.status().ToString();
  if (!snap.ok()) return out;
  auto with = txn::MetadataWithRowIdColumns((*snap)->protocol(), (*snap)->metadata());
  EXPECT_TRUE(with.ok() && with->has_value());
  if (!with.ok() || !with->has_value()) return out;
  auto schema = scan::BuildTableSchema(**with);
  EXPECT_TRUE(schema.ok());
  auto table_schema = std::make_shared<const scan::TableSchema>(*schema);
  int key_col = table_schema->Find(key_column);
  int row_id_col = table_schema->Find(txn::MaterializedRowIdColumn(**with));
  EXPECT_GE(key_col, 0);
  for (const auto& f : (*snap)->files()) {
    auto filler = RowIdFiller::Make(fs, root, **with, *table_schema, {f});
    EXPECT_TRUE(filler.ok()) << filler.status().ToString();
    if (!filler.ok()) return out;
    Status st = ReadLiveRows(fs, root, table_schema, {f}, [&](size_t, const columnar::RecordBatch& rows) -> Status {
      ASSIGN_OR_RETURN(columnar::RecordBatch filled, (*filler)->Fill(0, rows));
      for (int64_t r = 0; r < filled.num_rows; ++r) {
        int64_t key = filled.column(static_cast<size_t>(key_col))->Get<int64_t>(r);
        bool inserted = out.emplace(key, filled.column(static_cast<size_t>(row_id_col))->Get<int64_t>(r)).second;
        EXPECT_TRUE(inserted) << key_column << " " << key << " twice";
      }
      return Status::OK();
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  return out;
}

}  // namespace shoal::table::testing_support
