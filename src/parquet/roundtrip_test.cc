// Round trips of generated tables of every type through shoal's writer, read back by shoal's
// reader and by DuckDB, across codecs, encodings, page versions and dictionary settings; and
// DuckDB-written files read by shoal.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "columnar/value_text.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "support/json_compare.h"
#include "support/rows_json.h"
#include "support/testdata.h"

namespace shoal::parquet {
namespace {

using columnar::Field;
using columnar::TypeId;
using columnar::Vector;
using columnar::VectorPtr;
using json = nlohmann::json;

columnar::TypePtr ListOfStruct() {
  return columnar::List(columnar::Struct({{"a", columnar::Int32(), true}, {"b", columnar::String(), true}}));
}
columnar::TypePtr MapOfList() { return columnar::Map(columnar::String(), columnar::List(columnar::Int64())); }
columnar::TypePtr StructOfMap() {
  return columnar::Struct({{"x", columnar::Map(columnar::Int32(), columnar::String()), true},
                           {"y", columnar::Float64(), true}});
}

columnar::SchemaPtr AllTypesSchema(bool nested) {
  auto s = std::make_shared<columnar::Schema>();
  s->fields = {
      {"b", columnar::Boolean(), true},
      {"i8", columnar::Int8(), true},
      {"i16", columnar::Int16(), true},
      {"i32", columnar::Int32(), true},
      {"i64", columnar::Int64(), true},
      {"u64", columnar::UInt64(), true},
      {"f", columnar::Float32(), true},
      {"d", columnar::Float64(), true},
      {"dec9", columnar::Decimal(9, 2), true},
      {"dec18", columnar::Decimal(18, 4), true},
      {"dec38", columnar::Decimal(38, 10), true},
      {"s", columnar::String(), true},
      {"bin", columnar::Binary(), true},
      {"dt", columnar::Date(), true},
      {"tm", columnar::Time(), true},
      {"ts", columnar::Timestamp(), true},
      {"tsn", columnar::TimestampNtz(), true},
      {"req", columnar::Int32(), false},
      {"allnull", columnar::String(), true},
  };
  if (nested) {
    s->fields.push_back({"l", columnar::List(columnar::Int32()), true});
    s->fields.push_back({"ls", ListOfStruct(), true});
    s->fields.push_back({"m", MapOfList(), true});
    s->fields.push_back({"st", StructOfMap(), true});
  }
  return s;
}

// Deterministic rows with the edge cases at fixed positions and nulls in every nullable column.
class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  int64_t Int(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool Chance(int pct) { return Int(0, 99) < pct; }
  std::string Str(int64_t row) {
    switch (row % 11) {
      case 0: return "";
      case 1: return std::string(200, 'x') + std::to_string(row);  // long
      case 2: return "héllo wörld ✓ " + std::to_string(row % 5);
      default: return "v" + std::to_string(Int(0, 50));
    }
  }

 private:
  std::mt19937_64 rng_;
};

void AppendLeaf(Vector* v, int64_t row, Gen& g) {
  const int64_t k = row % 17;
  switch (v->id()) {
    case TypeId::kBoolean: v->Append<uint8_t>(g.Chance(50)); break;
    case TypeId::kInt8: v->Append<int8_t>(k == 3 ? INT8_MIN : k == 4 ? INT8_MAX : static_cast<int8_t>(g.Int(-100, 100))); break;
    case TypeId::kInt16: v->Append<int16_t>(k == 3 ? INT16_MIN : k == 4 ? INT16_MAX : static_cast<int16_t>(g.Int(-1000, 1000))); break;
    case TypeId::kInt32: v->Append<int32_t>(k == 3 ? INT32_MIN : k == 4 ? INT32_MAX : static_cast<int32_t>(g.Int(-1000, 1000))); break;
    case TypeId::kInt64: v->Append<int64_t>(k == 3 ? INT64_MIN : k == 4 ? INT64_MAX : g.Int(-100000, 100000)); break;
    case TypeId::kUInt64: v->Append<uint64_t>(k == 3 ? 0 : k == 4 ? UINT64_MAX : static_cast<uint64_t>(g.Int(0, 1 << 30)) << 20); break;
    case TypeId::kFloat: {
      const float sp[] = {std::numeric_limits<float>::quiet_NaN(), -0.0f, 0.0f, INFINITY, -INFINITY, 1.5f, -2.25f};
      v->Append<float>(k < 7 ? sp[k] : static_cast<float>(g.Int(-1000, 1000)) / 8.0f);
      break;
    }
    case TypeId::kDouble: {
      const double sp[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, 0.0, INFINITY, -INFINITY, 1e300, -1e-300};
      v->Append<double>(k < 7 ? sp[k] : static_cast<double>(g.Int(-100000, 100000)) / 64.0);
      break;
    }
    case TypeId::kDecimal: {
      int p = v->type()->precision();
      columnar::int128_t max = 1;
      for (int i = 0; i < p; ++i) max *= 10;
      max -= 1;
      columnar::int128_t x = k == 3 ? -max : k == 4 ? max : static_cast<columnar::int128_t>(g.Int(-999999, 999999));
      if (p > 18) {
        v->Append<columnar::int128_t>(x);
      } else {
        v->Append<int64_t>(static_cast<int64_t>(x));
      }
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string s = g.Str(row);
      if (v->id() == TypeId::kBinary && k == 5) s = std::string("\x00\xff\x01", 3);
      v->AppendString(s);
      break;
    }
    case TypeId::kDate: v->Append<int32_t>(k == 3 ? -719162 : k == 4 ? 2932896 : static_cast<int32_t>(g.Int(-20000, 30000))); break;
    case TypeId::kTime: v->Append<int64_t>(k == 3 ? 0 : k == 4 ? 86399999999 : g.Int(0, 86399999999)); break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
      // 0001-01-01 .. 9999-12-31 at the edges.
      v->Append<int64_t>(k == 3 ? -62135596800000000 : k == 4 ? 253402300799999999 : g.Int(-4000000000000000, 4000000000000000));
      break;
    default: break;
  }
}

// Appends one generated value (possibly NULL) of v's type.
void AppendValue(Vector* v, bool nullable, int64_t row, int depth, Gen& g) {
  if (nullable && g.Chance(12)) {
    v->AppendNull();
    return;
  }
  switch (v->id()) {
    case TypeId::kList:
    case TypeId::kMap: {
      int64_t n = g.Int(0, 3);  // empty lists too
      bool elem_nullable = v->type()->children()[0].nullable;
      Vector* child = v->children()[0].get();
      for (int64_t i = 0; i < n; ++i) {
        if (v->id() == TypeId::kMap) {
          // keys unique within a map
          Vector* keys = child->children()[0].get();
          if (keys->id() == TypeId::kString) keys->AppendString(std::string("k").append(std::to_string(i)));
          else keys->Append<int32_t>(static_cast<int32_t>(i));
          AppendValue(child->children()[1].get(), child->type()->children()[1].nullable, row + i, depth + 1, g);
          child->AppendStructRow();
        } else {
          AppendValue(child, elem_nullable, row + i, depth + 1, g);
        }
      }
      v->AppendListEnd();
      break;
    }
    case TypeId::kStruct: {
      const auto& f = v->type()->children();
      for (size_t i = 0; i < f.size(); ++i) AppendValue(v->children()[i].get(), f[i].nullable, row, depth + 1, g);
      v->AppendStructRow();
      break;
    }
    default:
      AppendLeaf(v, row, g);
  }
}

columnar::BatchPtr MakeBatch(const columnar::SchemaPtr& schema, int64_t rows, uint64_t seed, int64_t first_row = 0) {
  Gen g(seed);
  std::vector<VectorPtr> cols;
  for (const Field& f : schema->fields) {
    VectorPtr v = Vector::Make(f.type, rows);
    if (f.name == "allnull") {
      v->AppendNulls(rows);
    } else {
      for (int64_t r = 0; r < rows; ++r) AppendValue(v.get(), f.nullable, first_row + r, 0, g);
    }
    cols.push_back(v);
  }
  return std::make_shared<columnar::RecordBatch>(schema, std::move(cols), rows);
}

Result<std::vector<columnar::BatchPtr>> ReadWithShoal(const std::string& path) {
  ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(io::LocalFileSystem(), path));
  return reader->ReadAll();
}

std::string Write(const std::string& path, const columnar::RecordBatch& batch, const WriterProperties& props,
                  int pieces = 3) {
  auto w = ParquetWriter::Open(io::LocalFileSystem(), path, *batch.schema, props);
  if (!w.ok()) return w.status().ToString();
  int64_t step = (batch.num_rows + pieces - 1) / pieces;
  for (int64_t off = 0; off < batch.num_rows; off += step) {
    auto slice = columnar::SliceBatch(batch, off, std::min(step, batch.num_rows - off));
    Status st = (*w)->WriteBatch(*slice);
    if (!st.ok()) return st.ToString();
  }
  auto meta = (*w)->Close();
  if (!meta.ok()) return meta.status().ToString();
  return "";
}

// Reads `path` back with shoal and checks every cell equals the written batch.
void ExpectShoalReadsBack(const std::string& path, const columnar::RecordBatch& expected) {
  auto got = ReadWithShoal(path);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  std::vector<std::string> want = testing::RowsAsJson({std::make_shared<columnar::RecordBatch>(expected)});
  std::vector<std::string> have = testing::RowsAsJson(*got);
  ASSERT_EQ(want.size(), have.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(want[i], have[i]) << "row " << i;
}

// Reads the files with DuckDB (one query, files in order) and checks that each holds the rows
// of `expected`.
void ExpectDuckDbReadsAll(const std::vector<std::string>& paths, const columnar::RecordBatch& expected) {
  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB not installed (build/duckdb)";
  std::string list;
  for (size_t i = 0; i < paths.size(); ++i) list += (i ? ",'" : "'") + paths[i] + "'";
  std::string out;
  int rc = testing::RunCommand(duck + " \"SELECT * EXCLUDE (filename, file_row_number) FROM read_parquet([" + list +
                                   "], filename=true, file_row_number=true) ORDER BY filename, file_row_number\" 2>&1",
                               &out);
  ASSERT_EQ(rc, 0) << out;
  std::vector<std::string> want = testing::RowsAsJson({std::make_shared<columnar::RecordBatch>(expected)});
  std::istringstream in(out);
  std::string line;
  size_t i = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ASSERT_LT(i, want.size() * paths.size()) << "DuckDB returned extra rows";
    const std::string& w = want[i % want.size()];
    json a = json::parse(w), b = json::parse(line);
    std::string why;
    ASSERT_TRUE(testing::SameJson(a, b, &why, {.ignore_utc_suffix = true})) << paths[i / want.size()] << " row " << i % want.size() << ": " << why
                                      << "\nshoal:  " << w << "\nduckdb: " << line;
    ++i;
  }
  ASSERT_EQ(i, want.size() * paths.size());
}

void ExpectDuckDbReads(const std::string& path, const columnar::RecordBatch& expected) {
  ExpectDuckDbReadsAll({path}, expected);
}

TEST(ParquetRoundTrip, FlatDefaultsReadByShoalAndDuckDb) {
  testing::TempDir dir;
  auto batch = MakeBatch(AllTypesSchema(false), 3000, 1);
  std::string path = dir.Join("flat.parquet");
  ASSERT_EQ(Write(path, *batch, WriterProperties::Builder().data_page_rows(700).Build()), "");
  ExpectShoalReadsBack(path, *batch);
  ExpectDuckDbReads(path, *batch);
}

TEST(ParquetRoundTrip, NestedDefaultsReadByShoalAndDuckDb) {
  testing::TempDir dir;
  auto batch = MakeBatch(AllTypesSchema(true), 3000, 2);
  std::string path = dir.Join("nested.parquet");
  ASSERT_EQ(Write(path, *batch, WriterProperties::Builder().data_page_rows(700).Build()), "");
  ExpectShoalReadsBack(path, *batch);
  ExpectDuckDbReads(path, *batch);
}

struct Combo {
  CompressionCodec codec;
  Encoding encoding;
  DataPageVersion version;
  bool dictionary;
  std::string Name() const {
    return std::string(CodecName(codec)) + "_" + EncodingName(encoding) + "_v" +
           std::to_string(static_cast<int>(version)) + (dictionary ? "_dict" : "");
  }
};

// Every codec x every value encoding x page v1/v2 x dictionary on/off, small pages so every
// file has several pages and a dictionary fallback.
TEST(ParquetRoundTrip, EveryCodecEncodingPageVersionAndDictionary) {
  testing::TempDir dir;
  auto batch = MakeBatch(AllTypesSchema(true), 600, 3);
  const CompressionCodec codecs[] = {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                     CompressionCodec::kGzip,         CompressionCodec::kZstd,
                                     CompressionCodec::kLz4Raw,       CompressionCodec::kBrotli};
  const Encoding encodings[] = {Encoding::kPlain, Encoding::kRle, Encoding::kDeltaBinaryPacked,
                                Encoding::kDeltaLengthByteArray, Encoding::kDeltaByteArray,
                                Encoding::kByteStreamSplit};
  std::vector<std::string> duck_files;
  int n = 0;
  for (CompressionCodec codec : codecs) {
    for (Encoding enc : encodings) {
      for (DataPageVersion v : {DataPageVersion::kV1, DataPageVersion::kV2}) {
        for (bool dict : {false, true}) {
          Combo c{codec, enc, v, dict};
          auto props = WriterProperties::Builder()
                           .compression(codec)
                           .encoding(enc)
                           .data_page_version(v)
                           .dictionary(dict)
                           .dictionary_page_bytes(300)
                           .data_page_rows(150)
                           .max_row_group_rows(400)
                           .Build();
          char name[32];
          std::snprintf(name, sizeof(name), "f%03d.parquet", n++);
          std::string path = dir.Join(name);
          ASSERT_EQ(Write(path, *batch, props), "") << c.Name();
          SCOPED_TRACE(c.Name());
          ExpectShoalReadsBack(path, *batch);
          if (HasFatalFailure()) return;
          // DuckDB: each codec and encoding at least once per page version, without repeating
          // the whole matrix (each DuckDB start costs seconds).
          if (codec == CompressionCodec::kZstd || enc == Encoding::kPlain) duck_files.push_back(path);
        }
      }
    }
  }
  ExpectDuckDbReadsAll(duck_files, *batch);
}

// DuckDB writes a table of every type with ZSTD; shoal reads what DuckDB reads.
TEST(ParquetRoundTrip, DuckDbWrittenFileReadIdentically) {
  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB not installed (build/duckdb)";
  testing::TempDir dir;
  std::string path = dir.Join("duck.parquet");
  std::string select =
      "SELECT i, (i % 100)::TINYINT AS t, (i * 7 % 30000)::SMALLINT AS sm, i * 1000003 AS big, (i % 3 = 0) AS b, "
      "CASE WHEN i % 5 = 0 THEN NULL ELSE 'str' || (i % 37) END AS s, (i / 7.0)::DOUBLE AS d, "
      "(i / 3.0)::FLOAT AS f, (i * 1.25)::DECIMAL(9,2) AS d9, (i * 1.5)::DECIMAL(18,3) AS d18, "
      "(i * 2.5)::DECIMAL(38,5) AS d38, DATE '2020-01-01' + i::INTEGER AS dt, "
      "TIMESTAMP '2000-01-01 00:00:00' + INTERVAL (i) SECOND AS ts, "
      "CASE WHEN i % 4 = 0 THEN NULL ELSE [i, i + 1] END AS l, {'a': i, 'b': 's' || i} AS st, "
      "MAP {'k': i} AS m FROM range(5000) r(i)";
  std::string out;
  int rc = testing::RunCommand(duck + " \"COPY (" + select + ") TO '" + path +
                                   "' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)\" \"SELECT * FROM read_parquet('" +
                                   path + "')\" 2>&1",
                               &out);
  ASSERT_EQ(rc, 0) << out;
  auto got = ReadWithShoal(path);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  std::vector<std::string> have = testing::RowsAsJson(*got);
  std::istringstream in(out);
  std::string line;
  size_t i = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ASSERT_LT(i, have.size());
    std::string why;
    ASSERT_TRUE(testing::SameJson(json::parse(have[i]), json::parse(line), &why, {.ignore_utc_suffix = true}))
        << "row " << i << ": " << why << "\nshoal:  " << have[i] << "\nduckdb: " << line;
    ++i;
  }
  EXPECT_EQ(i, have.size());
  EXPECT_EQ(i, 5000u);
}

// A v1 page's value count includes its NULLs; the DELTA_(LENGTH_)BYTE_ARRAY streams hold only
// the non-null values.
TEST(ParquetRoundTrip, DeltaByteArrayV1PagesWithNullsReadByShoal) {
  testing::TempDir dir;
  auto batch = MakeBatch(AllTypesSchema(true), 1200, 3);
  for (Encoding enc : {Encoding::kDeltaLengthByteArray, Encoding::kDeltaByteArray}) {
    std::string path = dir.Join(std::string(EncodingName(enc)) + ".parquet");
    ASSERT_EQ(Write(path, *batch, WriterProperties::Builder().encoding(enc).dictionary(false).Build()), "");
    ExpectShoalReadsBack(path, *batch);
  }
}

}  // namespace
}  // namespace shoal::parquet
