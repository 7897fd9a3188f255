// Levels-only reads (RowGroupReader::ReadFieldDefined, ColumnChunkReader::ReadSelectedDefined)
// and the lazy value handling behind them (values passed over only when a later read of the
// same page needs them; v2 values sections decompressed only then), against the oracle of
// reading every row whole.
#include <gtest/gtest.h>

#include <random>

#include "columnar/value_text.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "support/testdata.h"

namespace shoal::parquet {
namespace {

using columnar::VectorPtr;

constexpr int64_t kPageRows = 50;

std::vector<std::string> Texts(const columnar::Vector& v) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < v.size(); ++i) out.push_back(columnar::TextOf(v, i));
  return out;
}

// NULL layout by page (pages of kPageRows rows): all NULL, none NULL, NULL only on the page's
// first and last rows (at the page boundaries), or random.
bool NullAt(std::mt19937_64& rng, int64_t i) {
  const int64_t r = i % kPageRows;
  switch ((i / kPageRows) % 4) {
    case 0: return true;
    case 1: return false;
    case 2: return r == 0 || r == kPageRows - 1;
    default: return rng() % 3 == 0;
  }
}

struct Options {
  bool v2 = false;
  bool dictionary = true;
  int64_t dictionary_bytes = 0;  // > 0: small dictionary page, plain fallback part-way
  CompressionCodec codec = CompressionCodec::kSnappy;
};

// One row group: a BIGINT `a`, a STRING `s` (both with the NULL layout of NullAt), a
// non-nullable DOUBLE `d` and a LIST<INT> `l` (nested: levels-only reads must refuse it).
std::string WriteFile(std::mt19937_64& rng, const std::string& dir, int64_t rows, const Options& o) {
  columnar::Schema schema;
  schema.fields = {{"a", columnar::Int64(), true},
                   {"s", columnar::String(), true},
                   {"d", columnar::Float64(), false},
                   {"l", columnar::List(columnar::Int32()), true}};
  auto a = columnar::Vector::Make(columnar::Int64());
  auto s = columnar::Vector::Make(columnar::String());
  auto d = columnar::Vector::Make(columnar::Float64());
  auto l = columnar::Vector::Make(columnar::List(columnar::Int32()));
  for (int64_t i = 0; i < rows; ++i) {
    if (NullAt(rng, i)) a->AppendNull(); else a->Append<int64_t>(static_cast<int64_t>(rng() % 100));
    if (NullAt(rng, i + 7)) {
      s->AppendNull();
    } else {
      // With a capped dictionary: a low-cardinality first page (the writer keeps the dictionary,
      // column_writer.cc's first-page rule), then values that overflow it part-way.
      const uint64_t distinct = o.dictionary_bytes == 0 ? 30 : (i < kPageRows ? 10 : 100000);
      s->AppendString(std::string("v").append(std::to_string(rng() % distinct)));
    }
    d->Append<double>(static_cast<double>(i) / 8);
    if (rng() % 5 == 0) {
      l->AppendNull();
    } else {
      for (int j = 0; j < static_cast<int>(rng() % 3); ++j) l->child(0)->Append<int32_t>(static_cast<int32_t>(i));
      l->AppendListEnd();
    }
  }
  WriterProperties::Builder builder;
  if (o.dictionary_bytes > 0) builder.dictionary_page_bytes(o.dictionary_bytes);
  auto props = builder.data_page_rows(kPageRows)
                   .dictionary(o.dictionary)
                   .compression(o.codec)
                   .data_page_version(o.v2 ? DataPageVersion::kV2 : DataPageVersion::kV1)
                   .Build();
  std::string path = dir + "/levels.parquet";
  auto w = ParquetWriter::Open(io::LocalFileSystem(), path, schema, props);
  EXPECT_TRUE(w.ok());
  EXPECT_TRUE((*w)->WriteBatch(columnar::RecordBatch(std::make_shared<columnar::Schema>(schema), {a, s, d, l}, rows))
                  .ok());
  EXPECT_TRUE((*w)->Close().ok());
  return path;
}

TEST(LevelsOnlyRead, ReadFieldDefinedInterleavedWithValueReadsMatchesWholeRead) {
  for (int seed = 0; seed < 16; ++seed) {
    std::mt19937_64 rng(seed);
    Options o;
    o.v2 = seed % 2 == 1;
    o.dictionary = seed % 4 < 2 || seed >= 12;
    o.dictionary_bytes = seed >= 12 ? 200 : 0;  // dictionary fallback to plain pages
    const CompressionCodec codecs[] = {CompressionCodec::kSnappy, CompressionCodec::kZstd,
                                       CompressionCodec::kUncompressed};
    o.codec = codecs[seed % 3];
    testing::TempDir dir;
    const int64_t rows = 600 + static_cast<int64_t>(rng() % 900);
    std::string path = WriteFile(rng, dir.path(), rows, o);
    auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto all = (*reader)->OpenRowGroup(0, {0, 1, 2});
    ASSERT_TRUE(all.ok());
    auto whole = (*all)->ReadBatch(rows);
    ASSERT_TRUE(whole.ok() && *whole);
    auto rg = (*reader)->OpenRowGroup(0, {0, 1, 2});
    ASSERT_TRUE(rg.ok());
    int64_t at = 0;
    while (at < rows) {
      // Batches that start and end inside pages, so a page is read partly by levels only and
      // partly for its values.
      const int64_t n = std::min<int64_t>(rows - at, 1 + static_cast<int64_t>(rng() % 120));
      const int density = static_cast<int>(rng() % 4);
      std::vector<uint32_t> sel;
      for (int64_t i = 0; i < n; ++i) {
        bool take = density == 0 ? true : density == 1 ? rng() % 2 == 0 : density == 2 ? rng() % 30 == 0 : i == n - 1;
        if (take) sel.push_back(static_cast<uint32_t>(i));
      }
      const bool full = density == 0 && rng() % 2 == 0;
      for (int f = 0; f < 3; ++f) {
        std::vector<uint32_t> abs;
        for (uint32_t i : sel) abs.push_back(static_cast<uint32_t>(at + i));
        VectorPtr want = columnar::Gather(*(*whole)->column(f), abs.data(), static_cast<int64_t>(abs.size()));
        const int how = static_cast<int>(rng() % 3);
        if (how == 0) {
          std::vector<uint8_t> defined(sel.size() + 1, 7);
          static const uint32_t kNone = 0;  // a non-null pointer for an empty selection
          const uint32_t* p = full ? nullptr : sel.empty() ? &kNone : sel.data();
          Status st = (*rg)->ReadFieldDefined(f, n, p, static_cast<int64_t>(sel.size()), defined.data());
          ASSERT_TRUE(st.ok()) << st.ToString();
          for (size_t k = 0; k < sel.size(); ++k) {
            ASSERT_EQ(defined[k], want->IsValid(static_cast<int64_t>(k)) ? 1 : 0)
                << "seed " << seed << " field " << f << " row " << abs[k];
          }
          EXPECT_EQ(defined[sel.size()], 7);  // nothing written past the selection
        } else if (how == 1) {
          auto got = full ? (*rg)->ReadField(f, n)
                          : (*rg)->ReadFieldSelected(f, n, sel.data(), static_cast<int64_t>(sel.size()));
          ASSERT_TRUE(got.ok()) << got.status().ToString();
          ASSERT_EQ(Texts(**got), Texts(*want)) << "seed " << seed << " field " << f << " at " << at;
        } else {
          ASSERT_TRUE((*rg)->SkipField(f, n).ok());
        }
        EXPECT_EQ((*rg)->field_position(f), at + n);
      }
      at += n;
    }
  }
}

TEST(LevelsOnlyRead, RefusesNestedFields) {
  std::mt19937_64 rng(3);
  testing::TempDir dir;
  std::string path = WriteFile(rng, dir.path(), 200, Options{});
  auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok());
  auto rg = (*reader)->OpenRowGroup(0, {3});
  ASSERT_TRUE(rg.ok());
  std::vector<uint8_t> defined(10);
  Status st = (*rg)->ReadFieldDefined(0, 10, nullptr, 10, defined.data());
  EXPECT_FALSE(st.ok());
}

TEST(LevelsOnlyRead, WholeChunkByLevelsMatchesValidityOnEveryPageLayout) {
  // The whole chunk read by levels only (no value is ever needed), then a fresh reader reads
  // the values: both agree with the validity of the whole read, v1 and v2, with and without a
  // dictionary.
  for (int v = 0; v < 4; ++v) {
    std::mt19937_64 rng(100 + v);
    Options o;
    o.v2 = v % 2 == 1;
    o.dictionary = v < 2;
    testing::TempDir dir;
    const int64_t rows = 1000;
    std::string path = WriteFile(rng, dir.path(), rows, o);
    auto reader = ParquetReader::Open(io::LocalFileSystem(), path);
    ASSERT_TRUE(reader.ok());
    auto all = (*reader)->OpenRowGroup(0, {0, 1});
    ASSERT_TRUE(all.ok());
    auto whole = (*all)->ReadBatch(rows);
    ASSERT_TRUE(whole.ok() && *whole);
    auto rg = (*reader)->OpenRowGroup(0, {0, 1});
    ASSERT_TRUE(rg.ok());
    for (int f = 0; f < 2; ++f) {
      std::vector<uint8_t> defined(rows);
      ASSERT_TRUE((*rg)->ReadFieldDefined(f, rows, nullptr, rows, defined.data()).ok());
      int64_t nulls = 0;
      for (int64_t i = 0; i < rows; ++i) {
        ASSERT_EQ(defined[i], (*whole)->column(f)->IsValid(i) ? 1 : 0) << "variant " << v << " field " << f;
        nulls += defined[i] == 0;
      }
      EXPECT_GT(nulls, rows / 4);
      EXPECT_LT(nulls, rows);
    }
  }
}

}  // namespace
}  // namespace shoal::parquet
