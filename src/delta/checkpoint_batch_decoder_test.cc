#include "delta/checkpoint_batch_decoder.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "delta/parquet_checkpoint_reader.h"
#include "io/file_system.h"
#include "support/testdata.h"

namespace shoal::delta {
namespace {

namespace c = columnar;

c::TypePtr AddType() {
  return c::Struct({{"path", c::String(), true},
                    {"partitionValues", c::Map(c::String(), c::String(), true), true},
                    {"size", c::Int64(), true},
                    {"modificationTime", c::Int64(), true},
                    {"dataChange", c::Boolean(), true},
                    {"stats", c::String(), true},
                    {"deletionVector", c::Struct({{"storageType", c::String(), true},
                                                  {"pathOrInlineDv", c::String(), true},
                                                  {"offset", c::Int32(), true},
                                                  {"sizeInBytes", c::Int32(), true},
                                                  {"cardinality", c::Int64(), true}}),
                     true},
                    {"baseRowId", c::Int64(), true}});
}

struct Row {
  std::optional<std::string> path = "a=1/f.parquet";
  std::vector<std::pair<std::string, std::optional<std::string>>> parts = {{"a", "1"}};
  bool dv = false;
  char storage = 'u';
};

void Append(c::Vector* v, const Row& r) {
  if (r.path) {
    v->child(0)->AppendString(*r.path);
  } else {
    v->child(0)->AppendNull();
  }
  c::Vector* entries = v->child(1)->child(0).get();
  for (const auto& [k, val] : r.parts) {
    entries->child(0)->AppendString(k);
    if (val) {
      entries->child(1)->AppendString(*val);
    } else {
      entries->child(1)->AppendNull();
    }
    entries->AppendStructRow();
  }
  v->child(1)->AppendListEnd();
  v->child(2)->Append<int64_t>(10);
  v->child(3)->Append<int64_t>(20);
  v->child(4)->Append<uint8_t>(1);
  v->child(5)->AppendString(R"({"numRecords":3})");
  if (r.dv) {
    c::Vector* dv = v->child(6).get();
    dv->child(0)->AppendString(std::string(1, r.storage));
    dv->child(1)->AppendString("abc");
    dv->child(2)->Append<int32_t>(1);
    dv->child(3)->Append<int32_t>(36);
    dv->child(4)->Append<int64_t>(2);
    dv->AppendStructRow();
  } else {
    v->child(6)->AppendNull();
  }
  v->child(7)->AppendNull();
  v->AppendStructRow();
}

TEST(CheckpointBatchDecoder, DecodesAddRowsDirectly) {
  auto v = c::Vector::Make(AddType());
  Append(v.get(), Row{});
  Row with_dv;
  with_dv.dv = true;
  with_dv.parts = {{"a", std::nullopt}};
  Append(v.get(), with_dv);
  FileActionColumnDecoder d(*v, /*is_add=*/true);
  auto a0 = d.Decode(0);
  ASSERT_TRUE(a0);
  const auto& f0 = std::get<AddFile>(*a0);
  EXPECT_EQ(f0.path, "a=1/f.parquet");
  EXPECT_EQ(f0.partition_values.at("a"), std::optional<std::string>("1"));
  EXPECT_EQ(f0.size, 10);
  EXPECT_EQ(f0.modification_time, 20);
  EXPECT_TRUE(f0.data_change);
  EXPECT_EQ(f0.stats, std::optional<std::string>(R"({"numRecords":3})"));
  EXPECT_FALSE(f0.deletion_vector);
  EXPECT_FALSE(f0.base_row_id);
  auto a1 = d.Decode(1);
  ASSERT_TRUE(a1);
  const auto& f1 = std::get<AddFile>(*a1);
  EXPECT_EQ(f1.partition_values.at("a"), std::nullopt);
  EXPECT_EQ(f1.DvUniqueId(), "uabc@1");
  EXPECT_EQ(f1.deletion_vector->size_in_bytes, 36);
  EXPECT_EQ(f1.deletion_vector->cardinality, 2);
}

TEST(CheckpointBatchDecoder, DeclinesRowsTheJsonRouteMustJudge) {
  auto v = c::Vector::Make(AddType());
  Row no_path;
  no_path.path.reset();
  Append(v.get(), no_path);
  Row dup;
  dup.parts = {{"a", "1"}, {"a", "2"}};
  Append(v.get(), dup);
  Row bad_dv;
  bad_dv.dv = true;
  bad_dv.storage = 'x';
  Append(v.get(), bad_dv);
  FileActionColumnDecoder d(*v, true);
  EXPECT_FALSE(d.Decode(0));
  EXPECT_FALSE(d.Decode(1));
  EXPECT_FALSE(d.Decode(2));
}

TEST(CheckpointBatchDecoder, NonStructColumnDeclinesEverything) {
  auto v = c::Vector::Make(c::String());
  v->AppendString("x");
  FileActionColumnDecoder d(*v, true);
  EXPECT_FALSE(d.Decode(0));
}

// Oracle: every Parquet checkpoint and sidecar of the golden tables reads to the same actions,
// in the same order, through the direct decoder and through the generic JSON route.
TEST(CheckpointBatchDecoder, GoldenCheckpointsMatchTheGenericRoute) {
  SHOAL_REQUIRE_TESTDATA();
  namespace fs = std::filesystem;
  std::string base = testing::TestDataDir() + "/delta-golden";
  if (!fs::exists(base)) GTEST_SKIP() << base << " absent";
  auto local = io::LocalFileSystem();
  ParquetCheckpointReader fast, generic(/*generic_rows=*/true);
  int files = 0, adds = 0, dvs = 0;
  for (const auto& e : fs::recursive_directory_iterator(base)) {
    std::string p = e.path().string();
    if (!e.is_regular_file() || p.size() < 8 || p.compare(p.size() - 8, 8, ".parquet") != 0) continue;
    if (p.find("/_delta_log/") == std::string::npos) continue;
    std::vector<Action> a, b;
    Status sa = fast.Read(*local, p, [&](Action&& x) {
      a.push_back(std::move(x));
      return Status::OK();
    });
    Status sb = generic.Read(*local, p, [&](Action&& x) {
      b.push_back(std::move(x));
      return Status::OK();
    });
    ASSERT_EQ(sa.ToString(), sb.ToString()) << p;
    ASSERT_EQ(a.size(), b.size()) << p;
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_TRUE(a[i] == b[i]) << p << " action " << i << ": " << SerializeAction(a[i]) << " vs "
                                << SerializeAction(b[i]);
      if (auto* add = std::get_if<AddFile>(&a[i])) {
        ++adds;
        dvs += add->deletion_vector ? 1 : 0;
      }
    }
    ++files;
  }
  EXPECT_GT(files, 10);
  EXPECT_GT(adds, 10);
  std::printf("compared %d checkpoint files, %d adds (%d with DVs)\n", files, adds, dvs);
}

}  // namespace
}  // namespace shoal::delta
