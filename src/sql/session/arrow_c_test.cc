// Arrow C Data / Stream Interface export and import (shoal/arrow_c.h): the exported structs are
// walked by an independent checker written from the specification, and exported streams are
// imported back into tables.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

#include "shoal/arrow_c.h"
#include "shoal/database.h"
#include "sql/functions/arrow_stream_source.h"
#include "sql/session/arrow_export.h"
#include "sql/session/database_impl.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

// ---- an independent checker of exported arrays

// Expected buffer count by format (Arrow C data interface: layouts).
int64_t ExpectedBuffers(const std::string& f) {
  if (f == "n") return 0;
  if (f == "+s") return 1;
  if (f == "u" || f == "U" || f == "z" || f == "Z") return 3;
  return 2;  // fixed width, boolean, lists, maps
}

int Width(const std::string& f) {
  static const std::map<std::string, int> w = {{"c", 1}, {"s", 2}, {"i", 4}, {"l", 8}, {"L", 8}, {"f", 4}, {"g", 8},
                                               {"tdD", 4}, {"ttu", 8}, {"tsu:", 8}, {"tsu:UTC", 8}};
  if (f.rfind("d:", 0) == 0) return 16;
  auto it = w.find(f);
  return it == w.end() ? 0 : it->second;
}

bool Bit(const void* buf, int64_t i) { return (static_cast<const uint8_t*>(buf)[i >> 3] >> (i & 7)) & 1; }

// Checks one array against its schema: buffer and child counts, null counts against the
// validity bitmap, offsets monotonic and within the child / data; returns the rows' text.
void CheckArray(const ArrowSchema& s, const ArrowArray& a, std::vector<std::string>* errors) {
  std::string f = s.format;
  auto err = [&](const std::string& m) { errors->push_back(f + ": " + m); };
  if (!a.release) return err("released array");
  if (a.n_buffers != ExpectedBuffers(f)) err("n_buffers " + std::to_string(a.n_buffers));
  if (a.n_children != s.n_children) err("n_children differs from the schema");
  if (a.offset != 0) err("offset");
  if (a.length < 0) return err("negative length");
  if (f != "n" && a.n_buffers > 0) {
    int64_t nulls = 0;
    if (a.buffers[0]) {
      for (int64_t i = 0; i < a.length; ++i) nulls += !Bit(a.buffers[0], i);
    }
    if (nulls != a.null_count) err("null_count " + std::to_string(a.null_count) + " but bitmap " + std::to_string(nulls));
    for (int64_t i = 1; i < a.n_buffers; ++i) {
      if (!a.buffers[i]) err("null buffer " + std::to_string(i));
    }
  } else if (f == "n" && a.null_count != a.length) {
    err("null array null_count");
  }
  if (Width(f) > 0 && a.buffers[1] && reinterpret_cast<uintptr_t>(a.buffers[1]) % 8 != 0) err("values not 8-aligned");
  if (f == "U" || f == "Z" || f == "+L") {
    const auto* o = static_cast<const int64_t*>(a.buffers[1]);
    for (int64_t i = 0; i < a.length; ++i) {
      if (o[i + 1] < o[i]) err("offsets decrease");
    }
    if (f == "+L" && a.length > 0 && o[a.length] > a.children[0]->length) err("offsets beyond child");
  }
  if (f == "+m") {
    const auto* o = static_cast<const int32_t*>(a.buffers[1]);
    if (a.length > 0 && o[a.length] > a.children[0]->length) err("map offsets beyond entries");
    if (s.n_children != 1 || std::string(s.children[0]->format) != "+s" || s.children[0]->n_children != 2) {
      err("map child must be struct<key, value>");
    } else if (s.children[0]->children[0]->flags & ARROW_FLAG_NULLABLE) {
      err("map keys must not be nullable");
    }
  }
  if (f == "+s") {
    for (int64_t i = 0; i < a.n_children; ++i) {
      if (a.children[i]->length < a.length) err("struct child shorter than the struct");
    }
  }
  for (int64_t i = 0; i < a.n_children && i < s.n_children; ++i) CheckArray(*s.children[i], *a.children[i], errors);
}

// Counts release calls of arrays by wrapping their release callback.
struct ReleaseCounter {
  static inline std::map<void*, int> calls;
  static inline std::map<ArrowArray*, void (*)(ArrowArray*)> original;
  static void Release(ArrowArray* a) {
    ++calls[a];
    auto orig = original[a];
    orig(a);
    EXPECT_EQ(a->release, nullptr) << "release must mark the array released";
  }
  static void Wrap(ArrowArray* a) {
    original[a] = a->release;
    a->release = Release;
  }
};

class ArrowCTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    o.batch_size = 1000;
    db_ = std::move(Database::Open(dir_.path(), o)).value();
    con_ = db_->Connect();
  }
  void Ok(const std::string& sql, Connection* c = nullptr) {
    auto r = (c ? c : con_.get())->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }
  std::vector<std::string> Rows(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? testing::Rows(*r) : std::vector<std::string>{};
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

const char* kAllTypes =
    "SELECT * FROM (VALUES "
    "(true, CAST(-8 AS TINYINT), CAST(-16 AS SMALLINT), 32, CAST(-64 AS BIGINT), CAST(1.5 AS FLOAT), CAST(2.25 AS DOUBLE), "
    " CAST(-12.34 AS DECIMAL(10,2)), CAST('-12345678901234567890.123456' AS DECIMAL(38,6)), 'héllo', X'00FF', "
    " DATE '2024-02-29', TIMESTAMP '2024-02-29 12:34:56.789012', TIMESTAMP_NTZ '1969-12-31 23:59:59', "
    " [1, NULL, 3], {'a': 7, 'b': 'x'}, map('k1', 10, 'k2', 20)),"
    "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
    "(false, CAST(1 AS TINYINT), CAST(2 AS SMALLINT), 3, CAST(4 AS BIGINT), CAST(5 AS FLOAT), CAST(6 AS DOUBLE), "
    " CAST(7.5 AS DECIMAL(10,2)), CAST(8.25 AS DECIMAL(38,6)), '', X'', DATE '1970-01-01', TIMESTAMP '1970-01-01 00:00:00', "
    " TIMESTAMP_NTZ '2000-01-01 00:00:00', [], {'a': NULL, 'b': NULL}, map('z', NULL))"
    ") AS t(b, i8, i16, i32, i64, f, d, dec, wide, s, bin, dt, ts, ntz, l, st, m)";

TEST_F(ArrowCTest, ExportedSchemaUsesTheSpecFormats) {
  ArrowArrayStream stream{};
  ASSERT_TRUE(con_->QueryArrow(kAllTypes, &stream).ok());
  ArrowSchema schema{};
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  ASSERT_EQ(std::string(schema.format), "+s");
  std::vector<std::string> formats;
  for (int64_t i = 0; i < schema.n_children; ++i) formats.push_back(schema.children[i]->format);
  EXPECT_EQ(formats, (std::vector<std::string>{"b", "c", "s", "i", "l", "f", "g", "d:10,2", "d:38,6", "U", "Z", "tdD",
                                               "tsu:UTC", "tsu:", "+L", "+s", "+m"}));
  EXPECT_EQ(std::string(schema.children[7]->name), "dec");
  EXPECT_TRUE(schema.children[0]->flags & ARROW_FLAG_NULLABLE);
  EXPECT_EQ(std::string(schema.children[16]->children[0]->format), "+s");
  // Move semantics: a consumer may move a child out and release it alone.
  ArrowSchema moved = *schema.children[16];
  schema.children[16]->release = nullptr;
  moved.release(&moved);
  EXPECT_EQ(moved.release, nullptr);
  schema.release(&schema);
  EXPECT_EQ(schema.release, nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST_F(ArrowCTest, ExportedArraysPassTheCheckerAndAreReleasedOnce) {
  ArrowArrayStream stream{};
  ASSERT_TRUE(con_->QueryArrow(kAllTypes, &stream).ok());
  ArrowSchema schema{};
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  int64_t rows = 0;
  std::vector<ArrowArray*> arrays;
  while (true) {
    auto* a = new ArrowArray();
    ASSERT_EQ(stream.get_next(&stream, a), 0) << stream.get_last_error(&stream);
    if (!a->release) {
      delete a;
      break;
    }
    std::vector<std::string> errors;
    CheckArray(schema, *a, &errors);
    EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
    rows += a->length;
    // Spot-check values: BIGINT zero-copy, bool bit-packed, decimal widened, strings.
    const ArrowArray& i64 = *a->children[4];
    EXPECT_EQ(static_cast<const int64_t*>(i64.buffers[1])[0], -64);
    EXPECT_FALSE(Bit(i64.buffers[0], 1));
    const ArrowArray& b = *a->children[0];
    EXPECT_TRUE(Bit(b.buffers[1], 0));
    EXPECT_FALSE(Bit(b.buffers[1], 2));
    const ArrowArray& dec = *a->children[7];
    EXPECT_EQ(static_cast<const int64_t*>(dec.buffers[1])[0], -1234);
    EXPECT_EQ(static_cast<const int64_t*>(dec.buffers[1])[1], -1);  // high half, sign-extended
    const ArrowArray& s = *a->children[9];
    const auto* o = static_cast<const int64_t*>(s.buffers[1]);
    EXPECT_EQ(std::string(static_cast<const char*>(s.buffers[2]) + o[0], o[1] - o[0]), "héllo");
    const ArrowArray& l = *a->children[14];
    EXPECT_EQ(l.null_count, 1);
    EXPECT_EQ(l.children[0]->length, 3);
    EXPECT_EQ(l.children[0]->null_count, 1);
    ReleaseCounter::Wrap(a);
    arrays.push_back(a);
  }
  EXPECT_EQ(rows, 3);
  stream.release(&stream);  // arrays outlive their stream
  for (auto* a : arrays) {
    // A consumer may move a child out: the parent then skips it.
    ArrowArray child = *a->children[9];
    a->children[9]->release = nullptr;
    a->release(a);
    EXPECT_EQ(a->release, nullptr);
    child.release(&child);
    EXPECT_EQ(ReleaseCounter::calls[a], 1);
    delete a;
  }
  schema.release(&schema);
}

TEST_F(ArrowCTest, ExportedStreamImportsIntoANewTableRowForRow) {
  auto producer = db_->Connect();
  ArrowArrayStream stream{};
  ASSERT_TRUE(producer->QueryArrow(kAllTypes, &stream).ok());
  ASSERT_TRUE(con_->RegisterArrowStream("src", &stream).ok());
  EXPECT_EQ(stream.release, nullptr);  // moved into the connection
  Ok("CREATE TABLE copy AS SELECT * FROM src");
  std::string cols = "b, i8, i16, i32, i64, f, d, dec, wide, s, bin, dt, ts, ntz, l, st, m";
  auto expect = Rows("SELECT " + cols + " FROM (" + std::string(kAllTypes) + ") ORDER BY i32 NULLS FIRST");
  EXPECT_EQ(Rows("SELECT " + cols + " FROM copy ORDER BY i32 NULLS FIRST"), expect);
  auto types = con_->Query("DESCRIBE copy");
  ASSERT_TRUE(types.ok());
  EXPECT_EQ(types->GetText(8, 1), "decimal(38,6)");

  // A large stream, INSERT ... SELECT with a filter and projection.
  ASSERT_TRUE(producer->QueryArrow("SELECT x AS id, 'r' || x AS s FROM range(0, 100000) AS r(x)", &stream).ok());
  ASSERT_TRUE(con_->RegisterArrowStream("big", &stream).ok());
  Ok("CREATE TABLE big_copy (id BIGINT, s STRING)");
  Ok("INSERT INTO big_copy SELECT id, s FROM big WHERE id % 2 = 0");
  EXPECT_EQ(Rows("SELECT count(*), sum(id), min(s) FROM big_copy"),
            std::vector<std::string>{"50000|2499950000|r0"});
}

TEST_F(ArrowCTest, ARegisteredStreamIsReadOnce) {
  ArrowArrayStream stream{};
  ASSERT_TRUE(con_->QueryArrow("SELECT 1 AS a", &stream).ok());
  ASSERT_TRUE(con_->RegisterArrowStream("once", &stream).ok());
  EXPECT_EQ(Rows("SELECT a FROM once"), std::vector<std::string>{"1"});
  auto again = con_->Query("SELECT a FROM once");  // consumed: the name is gone
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kCatalog) << again.status().ToString();
  // Naming it twice in one statement reads it once and reports the second scan.
  ASSERT_TRUE(con_->QueryArrow("SELECT 1 AS a", &stream).ok());
  ASSERT_TRUE(con_->RegisterArrowStream("twice", &stream).ok());
  auto self_join = con_->Query("SELECT * FROM twice x, twice y");
  ASSERT_FALSE(self_join.ok());
  EXPECT_EQ(self_join.status().code(), StatusCode::kInvalidArgument) << self_join.status().ToString();
  EXPECT_NE(self_join.status().message().find("already read"), std::string::npos);
  // A released stream is refused.
  EXPECT_EQ(con_->RegisterArrowStream("gone", &stream).code(), StatusCode::kInvalidArgument);
}

// A hand-made producer with one column of a format shoal does not import.
struct FakeStream {
  static inline int releases = 0;
  static inline const char* format = "e";  // float16
  static int GetSchema(ArrowArrayStream*, ArrowSchema* out) {
    static ArrowSchema child;
    static ArrowSchema* children[1] = {&child};
    child = ArrowSchema{};
    child.format = format;
    child.name = "h";
    child.flags = ARROW_FLAG_NULLABLE;
    child.release = [](ArrowSchema* s) { s->release = nullptr; };
    *out = ArrowSchema{};
    out->format = "+s";
    out->name = "";
    out->n_children = 1;
    out->children = children;
    out->release = [](ArrowSchema* s) {
      if (s->children[0]->release) s->children[0]->release(s->children[0]);
      s->release = nullptr;
    };
    return 0;
  }
  static int GetNext(ArrowArrayStream*, ArrowArray* out) {
    out->release = nullptr;
    return 0;
  }
  static const char* LastError(ArrowArrayStream*) { return nullptr; }
  static void Release(ArrowArrayStream* s) {
    ++releases;
    s->release = nullptr;
  }
  static ArrowArrayStream Make() { return ArrowArrayStream{GetSchema, GetNext, LastError, Release, nullptr}; }
};

TEST_F(ArrowCTest, UnsupportedArrowTypeIsANamedErrorAndTheStreamIsReleased) {
  for (const char* f : {"e", "vu", "+w:4", "d:40,2,256"}) {
    FakeStream::format = f;
    FakeStream::releases = 0;
    ArrowArrayStream s = FakeStream::Make();
    Status st = con_->RegisterArrowStream("bad", &s);
    ASSERT_EQ(st.code(), StatusCode::kNotSupported) << f << ": " << st.ToString();
    EXPECT_NE(st.message().find(std::string("'") + f + "'"), std::string::npos) << st.ToString();
    EXPECT_EQ(FakeStream::releases, 1) << f;
    EXPECT_EQ(s.release, nullptr);
  }
  EXPECT_FALSE(con_->Query("SELECT * FROM bad").ok());
}

TEST_F(ArrowCTest, MaterializedBatchesExportAsAStreamAnyNumberOfTimes) {
  auto r = con_->Query(kAllTypes);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string cols = "b, i8, i16, i32, i64, f, d, dec, wide, s, bin, dt, ts, ntz, l, st, m";
  auto expect = Rows("SELECT " + cols + " FROM (" + std::string(kAllTypes) + ") ORDER BY i32 NULLS FIRST");
  for (int round = 0; round < 2; ++round) {
    ArrowArrayStream stream{};
    ASSERT_TRUE(sql::ExportArrowBatches(r->schema(), r->batches(), &stream).ok());
    ArrowSchema schema{};
    ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
    EXPECT_EQ(std::string(schema.children[7]->format), "d:10,2");
    schema.release(&schema);
    ASSERT_TRUE(con_->RegisterArrowStream("again", &stream).ok());
    EXPECT_EQ(Rows("SELECT " + cols + " FROM again ORDER BY i32 NULLS FIRST"), expect) << round;
  }
  // No batches: a schema, then the end.
  ArrowArrayStream empty{};
  ASSERT_TRUE(sql::ExportArrowBatches(r->schema(), {}, &empty).ok());
  ArrowArray end{};
  ASSERT_EQ(empty.get_next(&empty, &end), 0);
  EXPECT_EQ(end.release, nullptr);
  empty.release(&empty);
  // A batch without the schema's columns is refused.
  auto other = con_->Query("SELECT 1 AS a");
  ArrowArrayStream bad{};
  EXPECT_EQ(sql::ExportArrowBatches(r->schema(), other->batches(), &bad).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.release, nullptr);
}

// Counts releases of streams by wrapping their release callback.
struct StreamReleaseCounter {
  static inline int calls = 0;
  static inline void (*original)(ArrowArrayStream*) = nullptr;
  static void Release(ArrowArrayStream* s) {
    ++calls;
    original(s);
  }
  static void Wrap(ArrowArrayStream* s) {
    calls = 0;
    original = s->release;
    s->release = Release;
  }
};

TEST_F(ArrowCTest, AStreamReadIntoMemoryIsReleasedAtOnceAndReadableManyTimes) {
  auto producer = db_->Connect();
  ArrowArrayStream stream{};
  ASSERT_TRUE(producer->QueryArrow("SELECT x AS id, 'r' || x AS s FROM range(0, 5000) AS r(x)", &stream).ok());
  StreamReleaseCounter::Wrap(&stream);
  auto source = sql::ReadArrowStream(&stream, "mat", 1000);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_EQ(StreamReleaseCounter::calls, 1);
  EXPECT_EQ((*source)->EstimatedRows(), std::optional<int64_t>(5000));
  con_->impl().session.RegisterRelation("mat", *source);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(Rows("SELECT count(*), sum(id), max(s) FROM mat"), std::vector<std::string>{"5000|12497500|r999"});
  }
  Ok("CREATE TABLE t AS SELECT * FROM mat WHERE id < 10");
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), std::vector<std::string>{"10"});
}

// A producer whose schema is one BIGINT column and whose get_next fails.
struct FailingStream {
  static inline int releases = 0;
  static int GetSchema(ArrowArrayStream*, ArrowSchema* out) {
    static ArrowSchema child;
    static ArrowSchema* children[1] = {&child};
    child = ArrowSchema{};
    child.format = "l";
    child.name = "id";
    child.release = [](ArrowSchema* s) { s->release = nullptr; };
    *out = ArrowSchema{};
    out->format = "+s";
    out->name = "";
    out->n_children = 1;
    out->children = children;
    out->release = [](ArrowSchema* s) {
      if (s->children[0]->release) s->children[0]->release(s->children[0]);
      s->release = nullptr;
    };
    return 0;
  }
  static int GetNext(ArrowArrayStream*, ArrowArray*) { return 5; }  // EIO
  static const char* LastError(ArrowArrayStream*) { return "the producer's disk is on fire"; }
  static void Release(ArrowArrayStream* s) {
    ++releases;
    s->release = nullptr;
  }
};

TEST_F(ArrowCTest, AFailingOrUnsupportedStreamReadIntoMemoryIsANamedError) {
  FailingStream::releases = 0;
  ArrowArrayStream failing{FailingStream::GetSchema, FailingStream::GetNext, FailingStream::LastError,
                           FailingStream::Release, nullptr};
  auto r = sql::ReadArrowStream(&failing, "f", 1000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIOError) << r.status().ToString();
  EXPECT_NE(r.status().message().find("the producer's disk is on fire"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(FailingStream::releases, 1);
  EXPECT_EQ(failing.release, nullptr);

  FakeStream::format = "+ud:0,1";
  FakeStream::releases = 0;
  ArrowArrayStream unsupported = FakeStream::Make();
  r = sql::ReadArrowStream(&unsupported, "u", 1000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotSupported) << r.status().ToString();
  EXPECT_EQ(FakeStream::releases, 1);

  ArrowArrayStream released{};
  EXPECT_EQ(sql::ReadArrowStream(&released, "r", 1000).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace shoal
