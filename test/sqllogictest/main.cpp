// shoal_sqllogictest [--s3] FILE.test: runs a sqllogictest script (cli/logic_test_script.h)
// against a fresh warehouse under $SHOAL_BINARY_DIR/tmp/, kept only when a record fails; with
// --s3, a fresh warehouse on the local S3 test server (support/s3_test_server.h: SHOAL_S3_ENV),
// deleted when every record passed. Exit status 0 when every record passed, 1 on a failure or a
// bad script, 77 when the file is skipped (CTest's SKIP_RETURN_CODE) — also when --s3 finds no
// server, except under CI=true, where that fails.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "cli/logic_test_expectation.h"
#include "cli/logic_test_script.h"
#include "io/s3_file_system.h"
#include "shoal/database.h"
#include "support/s3_test_server.h"
#include "support/testdata.h"

namespace {

namespace fs = std::filesystem;
using shoal::cli::LogicTestRecord;

constexpr int kSkipExitCode = 77;

int Skip(const std::string& file, const std::string& reason) {
  std::printf("SKIP: %s: %s\n", file.c_str(), reason.c_str());
  std::printf("0 passed, 0 failed, 1 skipped\n");
  return kSkipExitCode;
}

std::string MakeWarehouseDir() {
  fs::path base = fs::path(shoal::testing::BinaryDir()) / "tmp";
  std::error_code ec;
  fs::create_directories(base, ec);
  for (int n = 0;; ++n) {
    fs::path p = base / ("slt_" + std::to_string(getpid()) + "_" + std::to_string(n));
    if (fs::create_directory(p, ec)) return p.string();
    if (ec) return "";
  }
}

std::string Indent(const std::string& text) {
  std::string out = "    ";
  for (char c : text) {
    out.push_back(c);
    if (c == '\n') out += "    ";
  }
  return out;
}

// The warehouse, its connections by name ("" = default), reopened by `restart`.
// Thread-safety: not thread-safe; the runner is single-threaded.
class Session {
 public:
  explicit Session(std::string dir) : dir_(std::move(dir)) {}

  shoal::Status Open() {
    cons_.clear();
    db_.reset();
    // Scripts run in UTC on every machine unless they SET TIME ZONE themselves.
    shoal::DatabaseOptions options;
    options.time_zone = "UTC";
    auto db = shoal::Database::Open(dir_, options);
    if (!db.ok()) return db.status();
    db_ = std::move(db).value();
    return shoal::Status::OK();
  }

  // The named connection, opened on first use; nullptr when no database is open.
  shoal::Connection* Get(const std::string& name) {
    if (!db_) return nullptr;
    auto& con = cons_[name];
    if (!con) con = db_->Connect();
    return con.get();
  }

 private:
  std::string dir_;
  std::unique_ptr<shoal::Database> db_;
  std::map<std::string, std::unique_ptr<shoal::Connection>> cons_;
};

// Runs one record; "" on success, else what went wrong.
std::string RunRecord(Session& session, const LogicTestRecord& rec, const std::string& sql) {
  if (rec.kind != LogicTestRecord::Kind::kRestart && session.Get(rec.connection) == nullptr) {
    return "no open database (an earlier restart failed)";
  }
  switch (rec.kind) {
    case LogicTestRecord::Kind::kRestart: {
      shoal::Status st = session.Open();
      return st.ok() ? "" : "restart failed: " + st.ToString();
    }
    case LogicTestRecord::Kind::kStatementOk: {
      auto r = session.Get(rec.connection)->Query(sql);
      return r.ok() ? "" : "statement failed: " + r.status().ToString();
    }
    case LogicTestRecord::Kind::kStatementError: {
      auto r = session.Get(rec.connection)->Query(sql);
      if (r.ok()) {
        return "statement succeeded but an error was expected" +
               (rec.expected_error.empty() ? std::string() : ": " + rec.expected_error);
      }
      std::string actual = r.status().ToString();
      if (actual.find(rec.expected_error) == std::string::npos) {
        return "wrong error\n  expected (substring): " + rec.expected_error + "\n  actual: " + actual;
      }
      return "";
    }
    case LogicTestRecord::Kind::kQuery: {
      auto r = session.Get(rec.connection)->Query(sql);
      if (!r.ok()) return "query failed: " + r.status().ToString();
      return shoal::cli::CheckQueryResult(rec, *r);
    }
  }
  return "unknown record kind";
}

}  // namespace

int main(int argc, char** argv) {
  const bool on_s3 = argc == 3 && std::string(argv[1]) == "--s3";
  if (argc != 2 && !on_s3) {
    std::fprintf(stderr, "usage: shoal_sqllogictest [--s3] FILE.test\n");
    return 1;
  }
  const std::string file = argv[argc - 1];
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "IOException: cannot open %s\n", file.c_str());
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();

  static const std::set<std::string> kFeatures = {"shoal", "delta", "parquet", "delta-tables"};
  auto script = shoal::cli::ParseLogicTest(text.str(), file, kFeatures);
  if (!script.ok()) {
    std::fprintf(stderr, "%s\n", script.status().ToString().c_str());
    return 1;
  }
  if (!script->skip_reason.empty()) return Skip(file, script->skip_reason);

  const std::string testdata = shoal::testing::TestDataDir();
  for (const LogicTestRecord& rec : script->records) {
    if (testdata.empty() && rec.sql.find("${TESTDATA}") != std::string::npos) {
      return Skip(file, "shared test data not found: set SHOAL_TESTDATA (default ../shared/testdata)");
    }
  }

  std::optional<shoal::testing::S3TestServer> server;
  if (on_s3) {
    server = shoal::testing::FindS3TestServer();
    const char* how = "start one with scripts/s3-server.sh start DIR and set SHOAL_S3_ENV=DIR/env";
    if (!server && shoal::testing::InCi()) {
      std::printf("FAIL %s: no S3 test server under CI=true: %s\n", file.c_str(), how);
      return 1;
    }
    if (!server) return Skip(file, std::string("no S3 test server: ") + how);
    // Database::Open configures S3 from the AWS_* environment on the first s3:// path.
    server->ExportToEnvironment();
  }
  const std::string dir = on_s3 ? server->UniquePath("slt") : MakeWarehouseDir();
  if (dir.empty()) {
    std::fprintf(stderr, "IOException: cannot create a temporary warehouse under %s/tmp\n",
                 shoal::testing::BinaryDir().c_str());
    return 1;
  }
  const std::map<std::string, std::string> vars = {{"TESTDATA", testdata}, {"TEMP", dir}};

  Session session(dir);
  int passed = 0, failed = 0;
  shoal::Status st = session.Open();
  if (!st.ok()) {
    std::printf("FAIL %s: opening the warehouse %s: %s\n", file.c_str(), dir.c_str(), st.ToString().c_str());
    ++failed;
  } else {
    for (LogicTestRecord rec : script->records) {
      std::string sql = shoal::cli::SubstituteVariables(rec.sql, vars);
      rec.expected_error = shoal::cli::SubstituteVariables(rec.expected_error, vars);
      for (std::string& line : rec.expected) line = shoal::cli::SubstituteVariables(line, vars);
      std::string problem = RunRecord(session, rec, sql);
      if (problem.empty()) {
        ++passed;
        continue;
      }
      ++failed;
      std::printf("FAIL %s:%d\n", file.c_str(), rec.line);
      if (rec.kind != LogicTestRecord::Kind::kRestart) {
        std::printf("  SQL%s:\n%s\n", rec.connection.empty() ? "" : (" (" + rec.connection + ")").c_str(),
                    Indent(sql).c_str());
      }
      std::printf("  %s\n", problem.c_str());
      std::fflush(stdout);
    }
  }

  std::printf("%d passed, %d failed", passed, failed);
  if (script->skipped > 0) std::printf(", %d skipped", script->skipped);
  std::printf("\n");
  std::error_code ec;
  if (failed == 0 && on_s3) {
    (void)shoal::io::S3FileSystem(server->Options()).DeleteRecursive(dir);
  } else if (failed == 0) {
    fs::remove_all(dir, ec);
  } else {
    std::printf("warehouse kept for inspection: %s\n", dir.c_str());
  }
  return failed == 0 ? 0 : 1;
}
