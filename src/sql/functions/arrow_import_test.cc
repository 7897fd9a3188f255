// Malformed Arrow arrays that a producer may hand over: each is a named InvalidArgument or
// NotSupported, never a read past a buffer (the cases the arrow_stream_fuzz target looks for).
#include "sql/functions/arrow_import.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace shoal::sql {
namespace {

void NoRelease(ArrowSchema*) {}
void NoRelease(ArrowArray*) {}

ArrowSchema Schema(const char* format) {
  ArrowSchema s{};
  s.format = format;
  s.name = "c";
  s.flags = ARROW_FLAG_NULLABLE;
  s.release = NoRelease;
  return s;
}

ArrowArray Array(int64_t length, std::vector<const void*>* buffers) {
  ArrowArray a{};
  a.length = length;
  a.n_buffers = static_cast<int64_t>(buffers->size());
  a.buffers = buffers->data();
  a.release = NoRelease;
  return a;
}

TEST(ArrowImport, AStringEndingPastTheDataBufferIsMalformed) {
  // Row 0 claims bytes [0, 100) but the final offset says the data buffer holds 3 bytes.
  const int32_t offsets[] = {0, 100, 3};
  const char data[] = "abc";
  std::vector<const void*> buffers = {nullptr, offsets, data};
  ArrowSchema s = Schema("u");
  ArrowArray a = Array(2, &buffers);
  auto type = ImportArrowType(s);
  ASSERT_TRUE(type.ok());
  auto v = ImportArrowArray(s, a, *type, 0, 1);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(v.status().message().find("past the end of the data buffer"), std::string::npos) << v.status().ToString();
  // The well-formed rows of the same kind import.
  const int32_t good[] = {0, 1, 3};
  buffers[1] = good;
  auto ok = ImportArrowArray(s, a, *type, 0, 2);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)->size(), 2);
}

TEST(ArrowImport, ATimestampInSecondsBeyondInt64MicrosIsMalformed) {
  const int64_t seconds[] = {1, std::numeric_limits<int64_t>::max() / 1000};
  std::vector<const void*> buffers = {nullptr, seconds};
  ArrowSchema s = Schema("tss:");
  ArrowArray a = Array(2, &buffers);
  auto type = ImportArrowType(s);
  ASSERT_TRUE(type.ok());
  EXPECT_TRUE(ImportArrowArray(s, a, *type, 0, 1).ok());
  auto v = ImportArrowArray(s, a, *type, 0, 2);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(v.status().message().find("out of the range"), std::string::npos) << v.status().ToString();
}

TEST(ArrowImport, ADateInMillisecondsBeyondInt32DaysIsMalformed) {
  const int64_t millis[] = {int64_t{86400000} * (int64_t{1} << 32)};  // 2^32 days
  std::vector<const void*> buffers = {nullptr, millis};
  ArrowSchema s = Schema("tdm");
  ArrowArray a = Array(1, &buffers);
  auto type = ImportArrowType(s);
  ASSERT_TRUE(type.ok());
  auto v = ImportArrowArray(s, a, *type, 0, 1);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
}

TEST(ArrowImport, SchemaNestingIsBounded) {
  // A list of a list of ... 200 levels deep: refused by name, without recursing 200 times.
  std::deque<ArrowSchema> nodes;
  std::deque<ArrowSchema*> links;
  ArrowSchema* child = &nodes.emplace_back(Schema("i"));
  for (int i = 0; i < 200; ++i) {
    ArrowSchema& list = nodes.emplace_back(Schema("+l"));
    ArrowSchema*& link = links.emplace_back(child);
    list.n_children = 1;
    list.children = &link;
    child = &list;
  }
  auto type = ImportArrowType(*child);
  ASSERT_FALSE(type.ok());
  EXPECT_EQ(type.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(type.status().message().find("nested deeper"), std::string::npos) << type.status().ToString();
}

}  // namespace
}  // namespace shoal::sql
