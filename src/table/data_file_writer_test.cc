#include "table/data_file_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cmath>

#include "columnar/datetime.h"
#include "delta/stats_json.h"
#include "delta/table_path.h"
#include "io/memory_file_system.h"
#include "parquet/file_reader.h"
#include "table/partition_path.h"
#include "table/protocol_validator.h"
#include "table/utf8.h"
#include "table/table_creator.h"
#include "support/testdata.h"

namespace shoal::table {
namespace {

namespace c = columnar;

// Generated rows, kept as plain C++ values for the brute-force oracle.
struct Rows {
  std::vector<int64_t> id;
  std::vector<std::optional<int32_t>> i32;
  std::vector<std::optional<double>> d;
  std::vector<std::optional<std::string>> s;
  std::vector<std::optional<int64_t>> ts;
  std::vector<std::optional<int32_t>> dt;
  std::vector<std::optional<int32_t>> sx;  // struct field st.x (struct null every 7th row)
  std::vector<std::optional<std::string>> part;
};

c::Schema TestSchema() {
  c::Schema s;
  s.fields = {{"id", c::Int64(), false},
              {"i32", c::Int32(), true},
              {"d", c::Float64(), true},
              {"s", c::String(), true},
              {"ts", c::Timestamp(), true},
              {"dt", c::Date(), true},
              {"st", c::Struct({{"x", c::Int32(), true}}), true},
              {"bo", c::Boolean(), true},
              {"part", c::String(), true}};
  return s;
}

Rows MakeRows(int64_t n) {
  Rows r;
  const std::vector<std::optional<std::string>> parts = {"a b", "x/y=z%", std::nullopt, "plain", "ü:#"};
  for (int64_t i = 0; i < n; ++i) {
    r.id.push_back(i);
    r.i32.push_back(i % 10 == 3 ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>((i * 7919) % 1000 - 500)));
    r.d.push_back(i % 9 == 0 ? std::nullopt : std::optional<double>(std::sin(static_cast<double>(i)) * 100));
    std::string str = "str-" + std::to_string((i * 31) % 97);
    if (i % 11 == 0) str = std::string(40, static_cast<char>('a' + i % 26));  // long: truncated in stats
    r.s.push_back(i % 6 == 0 ? std::nullopt : std::optional<std::string>(str));
    r.ts.push_back(i % 4 == 0 ? std::nullopt : std::optional<int64_t>(1700000000000000LL + i * 1234567));
    r.dt.push_back(i % 3 == 0 ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(19000 + i)));
    r.sx.push_back(i % 7 == 0 || i % 2 == 0 ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(i)));
    r.part.push_back(parts[static_cast<size_t>(i) % parts.size()]);
  }
  return r;
}

template <typename T>
c::VectorPtr Col(c::TypePtr type, const std::vector<std::optional<T>>& v) {
  auto out = c::Vector::Make(type, static_cast<int64_t>(v.size()));
  for (const auto& x : v) {
    if (!x) out->AppendNull();
    else if constexpr (std::is_same_v<T, std::string>) out->AppendString(*x);
    else out->template Append<T>(*x);
  }
  return out;
}

c::RecordBatch MakeBatch(const Rows& r) {
  auto schema = std::make_shared<c::Schema>(TestSchema());
  int64_t n = static_cast<int64_t>(r.id.size());
  auto id = c::Vector::Make(c::Int64(), n);
  for (auto x : r.id) id->Append<int64_t>(x);
  auto st = c::Vector::Make(schema->fields[6].type, n);
  for (int64_t i = 0; i < n; ++i) {
    if (i % 7 == 0) {
      st->AppendNull();
    } else {
      if (r.sx[i]) st->children()[0]->Append<int32_t>(*r.sx[i]);
      else st->children()[0]->AppendNull();
      st->AppendStructRow();
    }
  }
  auto bo = c::Vector::Make(c::Boolean(), n);
  for (int64_t i = 0; i < n; ++i) bo->Append<uint8_t>(i % 2);
  std::vector<c::VectorPtr> cols = {id, Col(c::Int32(), r.i32), Col(c::Float64(), r.d), Col(c::String(), r.s),
                                    Col(c::Timestamp(), r.ts), Col(c::Date(), r.dt), st, bo,
                                    Col(c::String(), r.part)};
  return c::RecordBatch(schema, cols, n);
}

delta::Metadata MetadataOf(const std::vector<delta::Action>& actions) {
  for (const auto& a : actions) {
    if (auto* m = std::get_if<delta::Metadata>(&a)) return *m;
  }
  return {};
}

// Brute-force min/max/nulls of one column over the rows with `part` == p.
template <typename T>
void Oracle(const std::vector<std::optional<T>>& col, const std::vector<size_t>& rows, std::optional<T>* lo,
            std::optional<T>* hi, int64_t* nulls) {
  *nulls = 0;
  for (size_t r : rows) {
    if (!col[r]) {
      ++*nulls;
      continue;
    }
    if (!*lo || *col[r] < **lo) *lo = col[r];
    if (!*hi || *col[r] > **hi) *hi = col[r];
  }
}

class DataFileWriterTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DataFileWriterTest, WritesPartitionedFilesWithExactStats) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::string root = dir.Join("t");
  std::map<std::string, std::string> props;
  if (!GetParam().empty()) props["delta.columnMapping.mode"] = GetParam();
  auto created = CreateTable(fs, root, "t", TestSchema(), {"part"}, props);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  delta::Metadata meta = MetadataOf(*created);
  auto writer = DataFileWriter::Make(fs, root, meta);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  Rows rows = MakeRows(500);
  ASSERT_TRUE((*writer)->Write(MakeBatch(rows)).ok());
  auto adds = (*writer)->Finish();
  ASSERT_TRUE(adds.ok()) << adds.status().ToString();
  ASSERT_EQ(adds->size(), 5u);  // one file per partition value

  auto schema_root = delta::ParseSchemaJson(meta.schema_string);
  ASSERT_TRUE(schema_root.ok());
  auto key = [&](size_t col) {
    const auto& f = schema_root->children[col];
    return f.PhysicalName().value_or(f.name);
  };

  // Commit the adds so the validator sees a whole table.
  std::vector<delta::Action> commit;
  for (const auto& a : *adds) commit.push_back(a);
  ASSERT_TRUE(fs->PutIfAbsent(CommitFilePath(root, 1), delta::SerializeCommit(commit)).ok());
  auto violations = ValidateTableLog(*fs, root);
  ASSERT_TRUE(violations.ok());
  EXPECT_TRUE(violations->empty()) << FormatViolations(*violations);

  int64_t total_rows = 0;
  for (const auto& add : *adds) {
    const auto& pv = add.partition_values.at(key(8));
    std::vector<size_t> mine;
    for (size_t i = 0; i < rows.id.size(); ++i) {
      if (rows.part[i] == pv) mine.push_back(i);
    }
    ASSERT_FALSE(mine.empty()) << add.path;
    if (GetParam().empty()) {
      std::string expect_dir = PartitionDirectory("part", pv);
      EXPECT_TRUE(add.path.starts_with(delta::PercentEncodePath(expect_dir) + "/part-00")) << add.path;
    }
    EXPECT_TRUE(add.path.ends_with(".c000.snappy.parquet")) << add.path;

    // Stats against brute force.
    auto stats = delta::ParseStatsJson(*add.stats);
    ASSERT_TRUE(stats.ok()) << *add.stats;
    EXPECT_EQ(stats->num_records, static_cast<int64_t>(mine.size()));
    EXPECT_TRUE(stats->TightBounds());
    for (size_t col : {1, 2, 3, 4, 5}) {
      ASSERT_NE(stats->Min({key(col)}), nullptr) << col << " " << *add.stats;
      ASSERT_NE(stats->Max({key(col)}), nullptr) << col << " " << *add.stats;
    }
    {
      std::optional<int32_t> lo, hi;
      int64_t nulls;
      Oracle(rows.i32, mine, &lo, &hi, &nulls);
      EXPECT_EQ(stats->NullCount({key(1)}), nulls);
      EXPECT_EQ(stats->Min({key(1)})->get<int64_t>(), *lo);
      EXPECT_EQ(stats->Max({key(1)})->get<int64_t>(), *hi);
    }
    {
      std::optional<double> lo, hi;
      int64_t nulls;
      Oracle(rows.d, mine, &lo, &hi, &nulls);
      EXPECT_EQ(stats->NullCount({key(2)}), nulls);
      EXPECT_EQ(stats->Min({key(2)})->get<double>(), *lo);
      EXPECT_EQ(stats->Max({key(2)})->get<double>(), *hi);
    }
    {
      std::optional<std::string> lo, hi;
      int64_t nulls;
      Oracle(rows.s, mine, &lo, &hi, &nulls);
      EXPECT_EQ(stats->NullCount({key(3)}), nulls);
      EXPECT_EQ(stats->Min({key(3)})->get<std::string>(), lo->substr(0, 32));
      std::string max = stats->Max({key(3)})->get<std::string>();
      EXPECT_GE(max, *hi);
      if (hi->size() > 32) {
        EXPECT_EQ(max, hi->substr(0, 32) + "\xF4\x8F\xBF\xBF");
      }
    }
    {
      std::optional<int64_t> lo, hi;
      int64_t nulls;
      Oracle(rows.ts, mine, &lo, &hi, &nulls);
      EXPECT_EQ(stats->NullCount({key(4)}), nulls);
      EXPECT_EQ(stats->Min({key(4)})->get<std::string>(), *StatsTimestamp(*lo, true, false));
      EXPECT_EQ(stats->Max({key(4)})->get<std::string>(), *StatsTimestamp(*hi, true, true));
      auto parsed_max = c::ParseTimestamp(stats->Max({key(4)})->get<std::string>());
      ASSERT_TRUE(parsed_max.has_value());
      EXPECT_GE(*parsed_max, *hi);
    }
    {
      std::optional<int32_t> lo, hi;
      int64_t nulls;
      Oracle(rows.dt, mine, &lo, &hi, &nulls);
      EXPECT_EQ(stats->NullCount({key(5)}), nulls);
      EXPECT_EQ(stats->Min({key(5)})->get<std::string>(), c::FormatDate(*lo));
    }
    {
      // st.x: null when the struct is null or x is null.
      std::optional<int32_t> lo, hi;
      int64_t nulls;
      Oracle(rows.sx, mine, &lo, &hi, &nulls);
      std::string xkey = schema_root->children[6].children[0].PhysicalName().value_or("x");
      EXPECT_EQ(stats->NullCount({key(6), xkey}), nulls);
      EXPECT_EQ(stats->Min({key(6), xkey})->get<int64_t>(), *lo);
    }
    EXPECT_EQ(stats->NullCount({key(7)}), 0);
    EXPECT_EQ(stats->Min({key(7)}), nullptr);  // no min/max for booleans

    // Read back with shoal's Parquet reader.
    auto local = delta::ResolveTablePath(root, add.path);
    ASSERT_TRUE(local.ok());
    auto reader = parquet::ParquetReader::Open(fs, *local);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_EQ((*reader)->schema()->size(), 8u);  // partition column not stored
    auto batches = (*reader)->ReadAll();
    ASSERT_TRUE(batches.ok());
    size_t k = 0;
    for (const auto& b : *batches) {
      for (int64_t i = 0; i < b->num_rows; ++i, ++k) {
        ASSERT_LT(k, mine.size());
        size_t r = mine[k];
        EXPECT_EQ(b->column(0)->Get<int64_t>(i), rows.id[r]);
        EXPECT_EQ(b->column(1)->IsNull(i), !rows.i32[r].has_value());
        if (rows.s[r]) EXPECT_EQ(b->column(3)->GetString(i), *rows.s[r]);
        else EXPECT_TRUE(b->column(3)->IsNull(i));
        EXPECT_EQ(b->column(6)->IsNull(i), r % 7 == 0);
      }
    }
    EXPECT_EQ(k, mine.size());
    total_rows += static_cast<int64_t>(k);
    auto ci = (*reader)->ReadColumnIndex(0, 0);
    ASSERT_TRUE(ci.ok());
    EXPECT_TRUE(ci->has_value()) << "page index missing";
    // Column mapping: physical names (and in id mode field ids) in the Parquet schema.
    const auto& elements = (*reader)->metadata().schema;
    ASSERT_GT(elements.size(), 1u);
    EXPECT_EQ(elements[1].name, key(0));
    if (GetParam() == "id") {
      EXPECT_EQ(elements[1].field_id, schema_root->children[0].ColumnMappingId());
    } else {
      EXPECT_FALSE(elements[1].field_id.has_value());
    }
  }
  EXPECT_EQ(total_rows, 500);
}

INSTANTIATE_TEST_SUITE_P(ColumnMapping, DataFileWriterTest, ::testing::Values("", "name", "id"),
                         [](const auto& info) { return info.param.empty() ? std::string("none") : info.param; });

TEST(DataFileWriter, DuckDbReadsTheSameRows) {
  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB (build/duckdb) not installed";
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::string root = dir.Join("t");
  auto created = CreateTable(fs, root, "t", TestSchema(), {"part"}, {});
  ASSERT_TRUE(created.ok());
  auto writer = DataFileWriter::Make(fs, root, MetadataOf(*created));
  ASSERT_TRUE(writer.ok());
  Rows rows = MakeRows(200);
  ASSERT_TRUE((*writer)->Write(MakeBatch(rows)).ok());
  auto adds = (*writer)->Finish();
  ASSERT_TRUE(adds.ok());
  for (const auto& add : *adds) {
    auto local = delta::ResolveTablePath(root, add.path);
    ASSERT_TRUE(local.ok());
    std::string out;
    std::string sql = "SELECT id, i32, s, st.x AS x FROM read_parquet('" + *local + "', hive_partitioning=false) ORDER BY id";
    ASSERT_EQ(testing::RunCommand(duck + " \"" + sql + "\"", &out), 0) << out;
    std::vector<size_t> mine;
    for (size_t i = 0; i < rows.id.size(); ++i) {
      if (rows.part[i] == add.partition_values.begin()->second) mine.push_back(i);
    }
    std::istringstream lines(out);
    std::string line;
    size_t k = 0;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      auto j = nlohmann::json::parse(line);
      ASSERT_LT(k, mine.size());
      size_t r = mine[k++];
      EXPECT_EQ(j["id"].get<int64_t>(), rows.id[r]);
      if (rows.i32[r]) EXPECT_EQ(j["i32"].get<int64_t>(), *rows.i32[r]);
      else EXPECT_TRUE(j["i32"].is_null());
      if (rows.s[r]) EXPECT_EQ(j["s"].get<std::string>(), *rows.s[r]);
      else EXPECT_TRUE(j["s"].is_null());
      if (rows.sx[r]) EXPECT_EQ(j["x"].get<int64_t>(), *rows.sx[r]);
      else EXPECT_TRUE(j["x"].is_null());
    }
    EXPECT_EQ(k, mine.size()) << add.path;
  }
}

TEST(DataFileWriter, RollsToNewFilesAtTargetSize) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto created = CreateTable(fs, "/t", "t", TestSchema(), {}, {});
  ASSERT_TRUE(created.ok());
  DataFileWriterOptions o;
  o.target_file_size = 8 << 10;
  auto writer = DataFileWriter::Make(fs, "/t", MetadataOf(*created), o);
  ASSERT_TRUE(writer.ok());
  Rows rows = MakeRows(2000);
  ASSERT_TRUE((*writer)->Write(MakeBatch(rows)).ok());
  auto adds = (*writer)->Finish();
  ASSERT_TRUE(adds.ok());
  EXPECT_GT(adds->size(), 3u);
  int64_t total = 0;
  for (const auto& a : *adds) total += *delta::ParseStatsJson(*a.stats)->num_records;
  EXPECT_EQ(total, 2000);
}

// A writer destroyed before Finish handed out its files (a failed or given-up write) deletes
// the files it closed and the one still open; after Finish its files stay.
TEST(DataFileWriter, DestroyedBeforeFinishDeletesItsFiles) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto created = CreateTable(fs, "/t", "t", TestSchema(), {}, {});
  ASSERT_TRUE(created.ok());
  auto parquet_files = [&] {
    int n = 0;
    auto list = fs->List("/t");
    EXPECT_TRUE(list.ok());
    if (list.ok()) {
      for (const auto& f : *list) n += !f.is_dir && f.name.size() > 8 && f.name.rfind(".parquet") == f.name.size() - 8;
    }
    return n;
  };
  DataFileWriterOptions o;
  o.target_file_size = 8 << 10;
  {
    auto writer = DataFileWriter::Make(fs, "/t", MetadataOf(*created), o);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(MakeBatch(MakeRows(2000))).ok());
    EXPECT_GT(parquet_files(), 2);  // closed files and the open one
  }
  EXPECT_EQ(parquet_files(), 0);
  {
    auto writer = DataFileWriter::Make(fs, "/t", MetadataOf(*created), o);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(MakeBatch(MakeRows(2000))).ok());
    auto adds = (*writer)->Finish();
    ASSERT_TRUE(adds.ok());
    EXPECT_EQ(parquet_files(), static_cast<int>(adds->size()));
  }
  EXPECT_GT(parquet_files(), 2);
}

// The target is for bytes on disk, rows are counted by their in-memory bytes: once a file is
// closed, the writer converts the target by the ratio it saw, so later files come out near the
// target on disk instead of several times smaller.
TEST(DataFileWriter, FilesAfterTheFirstReachTheTargetOnDisk) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto created = CreateTable(fs, "/t", "t", TestSchema(), {}, {});
  ASSERT_TRUE(created.ok());
  DataFileWriterOptions o;
  const int64_t target = 64 << 10;
  o.target_file_size = target;
  auto writer = DataFileWriter::Make(fs, "/t", MetadataOf(*created), o);
  ASSERT_TRUE(writer.ok());
  c::RecordBatch all = MakeBatch(MakeRows(60000));
  for (int64_t pos = 0; pos < all.num_rows; pos += 5000) {
    ASSERT_TRUE((*writer)->Write(*c::SliceBatch(all, pos, 5000)).ok());
  }
  auto adds = (*writer)->Finish();
  ASSERT_TRUE(adds.ok());
  ASSERT_GE(adds->size(), 3u);
  int64_t total = 0;
  for (size_t i = 0; i < adds->size(); ++i) {
    const auto& a = (*adds)[i];
    total += *delta::ParseStatsJson(*a.stats)->num_records;
    // The first file is sized by in-memory bytes (no ratio yet), the last holds what is left.
    if (i > 0 && i + 1 < adds->size()) {
      EXPECT_GE(a.size, target / 2) << "file " << i << " of " << adds->size();
      EXPECT_LE(a.size, target * 2) << "file " << i << " of " << adds->size();
    }
  }
  EXPECT_LT((*adds)[0].size, target / 2);  // the in-memory estimate alone makes small files
  EXPECT_EQ(total, 60000);
}

TEST(DataFileWriter, EnforcesNotNullAndChecks) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto created = CreateTable(fs, "/t", "t", TestSchema(), {}, {});
  ASSERT_TRUE(created.ok());
  Rows rows = MakeRows(10);
  c::RecordBatch batch = MakeBatch(rows);
  // NOT NULL on id: null row 3.
  auto id = c::Vector::Make(c::Int64(), 10);
  for (int i = 0; i < 10; ++i) {
    if (i == 3) id->AppendNull();
    else id->Append<int64_t>(i);
  }
  c::RecordBatch bad = batch;
  bad.columns[0] = id;
  auto writer = DataFileWriter::Make(fs, "/t", MetadataOf(*created));
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->Write(bad);
  EXPECT_EQ(st.code(), StatusCode::kConstraint);
  EXPECT_EQ(st.message(), "NOT NULL constraint violated for column: id");

  DataFileWriterOptions o;
  o.check = [](const c::RecordBatch& b) -> Status {
    for (int64_t i = 0; i < b.num_rows; ++i) {
      if (b.column(0)->Get<int64_t>(i) > 5) return Status::Constraint("CHECK constraint small (id <= 5) violated");
    }
    return Status::OK();
  };
  auto checked = DataFileWriter::Make(fs, "/t", MetadataOf(*created), o);
  ASSERT_TRUE(checked.ok());
  EXPECT_EQ((*checked)->Write(batch).code(), StatusCode::kConstraint);
  auto adds = (*checked)->Finish();
  ASSERT_TRUE(adds.ok());
  EXPECT_TRUE(adds->empty());
}

TEST(DataFileWriter, LocalSortOrdersEachFile) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto created = CreateTable(fs, "/t", "t", TestSchema(), {}, {});
  ASSERT_TRUE(created.ok());
  DataFileWriterOptions o;
  o.local_sort = [](const c::RecordBatch& b) -> Result<std::vector<uint32_t>> {
    std::vector<uint32_t> perm(static_cast<size_t>(b.num_rows));
    for (uint32_t i = 0; i < perm.size(); ++i) perm[i] = i;
    std::stable_sort(perm.begin(), perm.end(), [&](uint32_t x, uint32_t y) {
      return b.column(0)->Get<int64_t>(x) > b.column(0)->Get<int64_t>(y);
    });
    return perm;
  };
  auto writer = DataFileWriter::Make(fs, "/t", MetadataOf(*created), o);
  ASSERT_TRUE(writer.ok());
  Rows rows = MakeRows(100);
  ASSERT_TRUE((*writer)->Write(MakeBatch(rows)).ok());
  auto adds = (*writer)->Finish();
  ASSERT_TRUE(adds.ok());
  ASSERT_EQ(adds->size(), 1u);
  auto reader = parquet::ParquetReader::Open(fs, "/t/" + (*adds)[0].path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto batches = reader.value()->ReadAll({0});
  ASSERT_TRUE(batches.ok());
  int64_t prev = INT64_MAX;
  int64_t n = 0;
  for (const auto& b : *batches) {
    for (int64_t i = 0; i < b->num_rows; ++i, ++n) {
      EXPECT_LT(b->column(0)->Get<int64_t>(i), prev);
      prev = b->column(0)->Get<int64_t>(i);
    }
  }
  EXPECT_EQ(n, 100);
}

TEST(PartitionPath, EscapesLikeHiveAndSerializesValues) {
  EXPECT_EQ(EscapePartitionPathComponent("a b/c=d%e:f"), "a b%2Fc%3Dd%25e%3Af");
  EXPECT_EQ(PartitionDirectory("p", std::nullopt), "p=__HIVE_DEFAULT_PARTITION__");
  EXPECT_EQ(delta::PercentEncodePath("p=a b%2Fc"), "p=a%20b%252Fc");
  auto ts = c::Vector::Make(c::Timestamp());
  ts->Append<int64_t>(1500000);
  EXPECT_EQ(**SerializePartitionValue(*ts, 0), "1970-01-01 00:00:01.5");
  auto s = c::Vector::Make(c::String());
  s->AppendString("");
  EXPECT_FALSE(SerializePartitionValue(*s, 0)->has_value());  // empty string is null
  auto b = c::Vector::Make(c::Boolean());
  b->Append<uint8_t>(1);
  EXPECT_EQ(**SerializePartitionValue(*b, 0), "true");
}

TEST(Utf8, RejectsMalformedSequences) {
  EXPECT_TRUE(IsValidUtf8("plain \xC3\xBC \xF4\x8F\xBF\xBF"));
  EXPECT_FALSE(IsValidUtf8("\xC3"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));  // surrogate
  EXPECT_FALSE(IsValidUtf8("\xFF"));
}

TEST(FileStatsCollector, MalformedUtf8StringsGetNoBounds) {
  delta::SchemaField f;
  f.name = "s";
  f.type = "string";
  auto col = FileStatsCollector::Make({f}, {c::String()}, false, 32, std::nullopt);
  ASSERT_TRUE(col.ok());
  auto v = c::Vector::Make(c::String());
  v->AppendString("ok");
  v->AppendString("\xFF\xFE");
  auto schema = std::make_shared<c::Schema>();
  schema->fields = {{"s", c::String(), true}};
  col->Update(c::RecordBatch(schema, {v}, 2));
  auto stats = delta::ParseStatsJson(col->ToJson());
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->Min({"s"}), nullptr);
  EXPECT_EQ(stats->NullCount({"s"}), 0);
}

// Collecting batches apart and merging the collectors gives the stats of collecting them in
// one: counts, NULLs, integer/double/string bounds (NaNs ignored), columns all NULL in some parts.
TEST(FileStatsCollector, MergedPartsEqualOneCollectorOverAllBatches) {
  std::vector<delta::SchemaField> fields(3);
  fields[0].name = "i";
  fields[0].type = "long";
  fields[1].name = "d";
  fields[1].type = "double";
  fields[2].name = "s";
  fields[2].type = "string";
  const std::vector<c::TypePtr> types = {c::Int64(), c::Float64(), c::String()};
  auto schema = std::make_shared<c::Schema>();
  schema->fields = {{"i", c::Int64(), true}, {"d", c::Float64(), true}, {"s", c::String(), true}};
  std::mt19937 rng(5);
  std::vector<c::RecordBatch> batches;
  for (int b = 0; b < 12; ++b) {
    std::vector<c::VectorPtr> cols;
    for (const auto& t : types) cols.push_back(c::Vector::Make(t));
    const int n = 1 + static_cast<int>(rng() % 50);
    const bool all_null = b % 5 == 2;
    for (int r = 0; r < n; ++r) {
      const uint32_t x = rng();
      if (all_null || x % 7 == 0) {
        for (auto& col : cols) col->AppendNull();
        continue;
      }
      cols[0]->Append<int64_t>(static_cast<int64_t>(x % 100000) - 50000);
      cols[1]->Append<double>(x % 13 == 0 ? std::nan("") : static_cast<double>(x % 1000) / 7.0 - 60.0);
      cols[2]->AppendString(std::string("v").append(std::to_string(x % 9973)));
    }
    batches.emplace_back(schema, std::move(cols), n);
  }
  auto whole = FileStatsCollector::Make(fields, types, false, 32, std::nullopt);
  ASSERT_TRUE(whole.ok());
  for (const auto& b : batches) whole->Update(b);
  auto merged = FileStatsCollector::Make(fields, types, false, 32, std::nullopt);
  ASSERT_TRUE(merged.ok());
  for (size_t from = 0; from < batches.size(); from += 3) {
    FileStatsCollector part = *merged;
    part.Reset();
    for (size_t b = from; b < std::min(batches.size(), from + 3); ++b) part.Update(batches[b]);
    merged->Merge(part);
  }
  EXPECT_EQ(merged->num_records(), whole->num_records());
  EXPECT_EQ(merged->ToJson(), whole->ToJson());
}

TEST(FileStatsText, TruncatesStringsAndRoundsTimestamps) {
  std::string long_s(40, 'z');
  EXPECT_EQ(StatsStringMin(long_s), std::string(32, 'z'));
  EXPECT_EQ(StatsStringMax(long_s), std::string(32, 'z') + "\xF4\x8F\xBF\xBF");
  EXPECT_GT(StatsStringMax(long_s), long_s);
  EXPECT_EQ(StatsStringMax("short"), "short");
  std::string wide;
  for (int i = 0; i < 40; ++i) wide += "\xC3\xBC";  // ü: cut at a code point, not a byte
  EXPECT_EQ(StatsStringMin(wide).size(), 64u);
  EXPECT_EQ(*StatsTimestamp(1001, true, false), "1970-01-01T00:00:00.001Z");
  EXPECT_EQ(*StatsTimestamp(1001, true, true), "1970-01-01T00:00:00.002Z");
  EXPECT_EQ(*StatsTimestamp(-1, false, false), "1969-12-31T23:59:59.999");
}

}  // namespace
}  // namespace shoal::table
