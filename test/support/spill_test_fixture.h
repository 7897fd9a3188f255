// The fixture of the spilling tests (spill_test.cc, join_spill_test.cc): a database with 1 or 2
// threads (the parameter) in a temp directory, queries streamed, and the check that a query spills
// under a small limit and gives the rows it gives under 2 GB, leaving no file and nothing
// reserved.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <string>
#include <vector>

#include "shoal/database.h"
#include "shoal/result.h"
#include "sql/session/database_impl.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal::testing {

class SpillTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = GetParam();
    o.batch_size = 1000;
    db_ = Database::Open(dir_.path(), o).ValueOrDie();
    con_ = db_->Connect();
  }
  std::vector<std::string> Run(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok()) return {};
    return Rows(*r);
  }
  // The rows of `sql` streamed (a result held whole would not fit the tiny limits).
  std::vector<std::string> Streamed(const std::string& sql) {
    std::vector<std::string> rows;
    auto stream = con_->Stream(sql);
    EXPECT_TRUE(stream.ok()) << sql << ": " << stream.status().ToString();
    if (!stream.ok()) return rows;
    ResultBatch batch;
    for (;;) {
      auto more = (*stream)->Next(&batch);
      EXPECT_TRUE(more.ok()) << sql << ": " << more.status().ToString();
      if (!more.ok() || !*more) break;
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        std::string line;
        for (int c = 0; c < batch.num_columns(); ++c) {
          if (c) line += '|';
          line += batch.column(c).GetText(r);
        }
        rows.push_back(std::move(line));
      }
    }
    return rows;
  }
  std::vector<std::string> Sorted(const std::string& sql) {
    auto rows = Streamed(sql);
    std::sort(rows.begin(), rows.end());
    return rows;
  }
  // Files in the temp directory (every spill file is deleted once its operator is done).
  int TempFiles() const {
    const std::string tmp = dir_.path() + "/.tmp";
    if (!std::filesystem::exists(tmp)) return 0;
    return static_cast<int>(std::distance(std::filesystem::directory_iterator(tmp), {}));
  }
  int64_t Spilled() const { return db_->impl().spill->bytes_written(); }
  // `sql` under `small` spills and gives the rows it gives under 2 GB (in order when `ordered`).
  void ExpectSpillsWithSameAnswer(const std::string& sql, const std::string& small, bool ordered = false) {
    Run("SET memory_limit = '2GB'");
    const int64_t before = Spilled();
    const auto expected = ordered ? Streamed(sql) : Sorted(sql);
    EXPECT_EQ(Spilled(), before) << "no spill under 2 GB: " << sql;
    ASSERT_FALSE(expected.empty());
    Run("SET memory_limit = '" + small + "'");
    const auto got = ordered ? Streamed(sql) : Sorted(sql);
    EXPECT_GT(Spilled(), before) << "expected a spill under " << small << ": " << sql;
    EXPECT_EQ(got.size(), expected.size()) << sql;
    EXPECT_TRUE(got == expected) << sql;
    EXPECT_EQ(TempFiles(), 0) << sql;
    EXPECT_EQ(db_->impl().spill->files_open(), 0);
    EXPECT_EQ(db_->impl().memory->reserved(), 0);
  }

  // No spill file left, none open, nothing reserved.
  void ExpectNothingLeft() {
    EXPECT_EQ(TempFiles(), 0);
    EXPECT_EQ(db_->impl().spill->files_open(), 0);
    EXPECT_EQ(db_->impl().memory->reserved(), 0);
  }
  // `sql` spills under `limit` and then fails with an error containing `error`.
  void ExpectFailsAfterSpilling(const std::string& sql, const std::string& limit, const std::string& error) {
    Run("SET memory_limit = '" + limit + "'");
    const int64_t before = Spilled();
    auto r = con_->Query(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_NE(r.status().ToString().find(error), std::string::npos) << r.status().ToString();
    EXPECT_GT(Spilled(), before) << sql;
    ExpectNothingLeft();
  }
  // With spilling disabled, `sql` under `limit` fails with an OutOfMemoryException whose message
  // starts with `error`; spilling again, it spills and gives the rows it gives under 2 GB.
  void ExpectFailsWithSpillingDisabled(const std::string& sql, const std::string& limit, const std::string& error) {
    Run("SET memory_limit = '" + limit + "'");
    Run("SET temp_directory = ''");
    auto r = con_->Query(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
    EXPECT_EQ(r.status().ToString().rfind("OutOfMemoryException: " + error, 0), 0u) << r.status().ToString();
    EXPECT_EQ(db_->impl().memory->reserved(), 0);
    Run("RESET temp_directory");
    const int64_t before = Spilled();
    const auto spilled = Run(sql);
    EXPECT_GT(Spilled(), before) << sql;
    Run("SET memory_limit = '2GB'");
    EXPECT_EQ(spilled, Run(sql));
  }
  // `sql` under `limit`, interrupted once it has spilled something, is Interrupted and the
  // connection answers afterwards.
  void ExpectInterruptedAfterSpilling(const std::string& sql, const std::string& limit) {
    Run("SET memory_limit = '" + limit + "'");
    const int64_t before = Spilled();
    std::atomic<bool> done{false};
    std::thread canceller([&] {
      while (!done.load() && Spilled() == before) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      con_->Interrupt();
    });
    auto r = con_->Query(sql);
    done.store(true);
    canceller.join();
    ASSERT_FALSE(r.ok()) << "finished before the interrupt: " << sql;
    EXPECT_EQ(r.status().code(), StatusCode::kInterrupted) << r.status().ToString();
    EXPECT_GT(Spilled(), before) << sql;
    ExpectNothingLeft();
    EXPECT_EQ(Run("SELECT 1"), std::vector<std::string>{"1"});
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

}  // namespace shoal::testing
