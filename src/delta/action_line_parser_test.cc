#include "delta/action_line_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace shoal::delta {
namespace {

const char* kAdd =
    R"({"add":{"path":"part-00000-fae5310a.snappy.parquet","partitionValues":{"p":"1","q":null},"size":635,"modificationTime":1677811178336,"dataChange":true,"stats":"{\"numRecords\":10,\"minValues\":{\"value\":0},\"maxValues\":{\"value\":9},\"nullCount\":{\"value\":0},\"tightBounds\":false}","tags":{"INSERTION_TIME":"1677811178336000","OPTIMIZE_TARGET_SIZE":"268435456"},"deletionVector":{"storageType":"u","pathOrInlineDv":"vBn[lx{q8@P<9BNH/isA","offset":1,"sizeInBytes":36,"cardinality":2},"baseRowId":7,"defaultRowCommitVersion":3,"clusteringProvider":"liquid"}})";
const char* kRemove =
    R"({"remove":{"path":"part-00000-90177277.snappy.parquet","deletionTimestamp":1697571685983,"dataChange":true,"extendedFileMetadata":true,"partitionValues":{},"size":765,"deletionVector":{"storageType":"i","pathOrInlineDv":"wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L","sizeInBytes":40,"cardinality":6,"maxRowIndex":12},"stats":"{\"numRecords\":50}"}})";

// The DOM result, or the error text.
std::string Dom(std::string_view line) {
  auto r = ParseActionLineDom(line);
  if (!r.ok()) return "error: " + r.status().ToString();
  if (!r->has_value()) return "none";
  return SerializeAction(**r);
}

// Checks the fast path against the DOM on `line`: when the fast path accepts, the DOM must
// accept with an equal action; ParseActionLine must always give the DOM's answer.
void ExpectAgrees(std::string_view line) {
  auto fast = TryParseFileActionLine(line);
  auto dom = ParseActionLineDom(line);
  if (fast) {
    ASSERT_TRUE(dom.ok()) << "fast accepted, DOM said " << dom.status().ToString() << ": " << line;
    ASSERT_TRUE(dom->has_value()) << line;
    EXPECT_TRUE(*fast == **dom) << line;
  }
  auto combined = ParseActionLine(line);
  ASSERT_EQ(combined.ok(), dom.ok()) << line;
  if (!dom.ok()) {
    EXPECT_EQ(combined.status().ToString(), dom.status().ToString()) << line;
  } else {
    ASSERT_EQ(combined->has_value(), dom->has_value()) << line;
    if (dom->has_value()) {
      EXPECT_TRUE(**combined == **dom) << line;
    }
  }
}

TEST(ActionLineParser, AddAndRemoveMatchTheDomExactly) {
  for (const char* line : {kAdd, kRemove}) {
    auto fast = TryParseFileActionLine(line);
    ASSERT_TRUE(fast.has_value()) << line;
    auto dom = ParseActionLineDom(line);
    ASSERT_TRUE(dom.ok() && dom->has_value());
    EXPECT_TRUE(*fast == **dom);
    EXPECT_EQ(SerializeAction(*fast), line);
  }
  auto parsed = TryParseFileActionLine(kAdd);
  ASSERT_TRUE(parsed);
  const auto& add = std::get<AddFile>(*parsed);
  EXPECT_EQ(add.size, 635);
  EXPECT_EQ(add.partition_values.at("q"), std::nullopt);
  EXPECT_EQ(*add.stats, R"({"numRecords":10,"minValues":{"value":0},"maxValues":{"value":9},"nullCount":{"value":0},"tightBounds":false})");
  EXPECT_EQ(add.DvUniqueId(), "uvBn[lx{q8@P<9BNH/isA@1");
}

TEST(ActionLineParser, DeclinesOtherActionKinds) {
  EXPECT_FALSE(TryParseFileActionLine(R"({"txn":{"appId":"a","version":3}})"));
  EXPECT_FALSE(TryParseFileActionLine(R"({"commitInfo":{"timestamp":1}})"));
  EXPECT_FALSE(TryParseFileActionLine(""));
  EXPECT_FALSE(TryParseFileActionLine("   "));
  // A second member could be another action kind: the DOM decides.
  EXPECT_FALSE(TryParseFileActionLine(
      R"({"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true},"remove":null})"));
}

TEST(ActionLineParser, IgnoresUnknownFieldsOfAnyShape) {
  std::string line =
      R"({"add":{"x":{"a":[1,2.5,{"b":null}],"c":"\u00e9"},"path":"a","partitionValues":{},"size":1,"y":[],"z":{},"modificationTime":2,"dataChange":false,"w":-0.25,"v":true}})";
  auto fast = TryParseFileActionLine(line);
  ASSERT_TRUE(fast);
  const auto& a = std::get<AddFile>(*fast);
  EXPECT_EQ(a.path, "a");
  EXPECT_FALSE(a.data_change);
  ExpectAgrees(line);
  // Unknown DV fields too.
  ExpectAgrees(
      R"({"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true,"deletionVector":{"storageType":"u","pathOrInlineDv":"x","future":[{}],"offset":4,"sizeInBytes":1,"cardinality":1}}})");
}

TEST(ActionLineParser, DecodesEscapesAndUnicodeInPaths) {
  auto fast = TryParseFileActionLine(
      R"({"remove":{"path":"a\/b\\c\"d\u00e9\ud83d\ude00\t\u0000é😀","dataChange":false}})");
  ASSERT_TRUE(fast);
  const auto& r = std::get<RemoveFile>(*fast);
  EXPECT_EQ(r.path, std::string("a/b\\c\"d\xC3\xA9\xF0\x9F\x98\x80\t", 14) + std::string(1, '\0') +
                        "\xC3\xA9\xF0\x9F\x98\x80");
  // Escaped keys name the same fields.
  ExpectAgrees(R"({"remove":{"p\u0061th":"x","dataChange":true}})");
  EXPECT_TRUE(TryParseFileActionLine(R"({"remove":{"p\u0061th":"x","dataChange":true}})"));
  // Several escaped keys in one line, each decoded on its own (the key buffer is reused).
  const std::string two =
      R"({"add":{"p\u0061th":"x","partitionV\u0061lues":{},"size":1,"modificationTime":2,"dataChange":true,)"
      R"("st\u0061ts":"{\"numRecords\":3}"}})";
  ExpectAgrees(two);
  auto both = TryParseFileActionLine(two);
  ASSERT_TRUE(both);
  EXPECT_EQ(std::get<AddFile>(*both).stats, std::optional<std::string>(R"({"numRecords":3})"));
}

TEST(ActionLineParser, MalformedLinesGetTheDomErrors) {
  const std::vector<std::string> bad = {
      // truncated
      R"({"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":2,"dataChange":tr)",
      R"({"add":{"path":"a)",
      // wrong types
      R"({"add":{"path":"a","partitionValues":{},"size":"1","modificationTime":2,"dataChange":true}})",
      R"({"add":{"path":1,"partitionValues":{},"size":1,"modificationTime":2,"dataChange":true}})",
      R"({"add":{"path":"a","partitionValues":{"p":1},"size":1,"modificationTime":2,"dataChange":true}})",
      R"({"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":2,"dataChange":"true"}})",
      R"({"add":{"path":"a","partitionValues":{},"size":1.0,"modificationTime":2,"dataChange":true}})",
      R"({"add":{"path":"a","partitionValues":{},"size":1e3,"modificationTime":2,"dataChange":true}})",
      R"({"add":"x"})",
      R"({"remove":{"path":"a","dataChange":true,"deletionVector":{"storageType":"x","pathOrInlineDv":"x","sizeInBytes":1,"cardinality":1}}})",
      R"({"remove":{"path":"a","dataChange":true,"deletionVector":{"storageType":"u","pathOrInlineDv":"x","offset":-1,"sizeInBytes":1,"cardinality":1}}})",
      R"({"remove":{"path":"a","dataChange":true,"tags":{"k":5}}})",
      // missing required fields, null for a required field
      R"({"add":{"path":"a","size":1,"modificationTime":2,"dataChange":true}})",
      R"({"add":{"path":null,"partitionValues":{},"size":1,"modificationTime":2,"dataChange":true}})",
      R"({"remove":{"path":"a"}})",
      // huge numbers
      R"({"add":{"path":"a","partitionValues":{},"size":9223372036854775808,"modificationTime":2,"dataChange":true}})",
      R"({"add":{"path":"a","partitionValues":{},"size":-9223372036854775809,"modificationTime":2,"dataChange":true}})",
      R"({"add":{"path":"a","partitionValues":{},"size":99999999999999999999999,"modificationTime":2,"dataChange":true}})",
      // invalid JSON: trailing garbage, bad escapes, invalid UTF-8, control characters
      R"({"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true}} x)",
      R"({"remove":{"path":"a\x","dataChange":true}})",
      R"({"remove":{"path":"a\ud800","dataChange":true}})",
      R"({"remove":{"path":"a\udc00x","dataChange":true}})",
      "{\"remove\":{\"path\":\"a\xC0\xAF\",\"dataChange\":true}}",
      "{\"remove\":{\"path\":\"a\xED\xA0\x80\",\"dataChange\":true}}",
      "{\"remove\":{\"path\":\"a\tb\",\"dataChange\":true}}",
      R"({"remove":{"path":"a","dataChange":true,"size":01}})",
  };
  for (const auto& line : bad) {
    EXPECT_FALSE(TryParseFileActionLine(line)) << line;
    auto r = ParseActionLine(line);
    EXPECT_FALSE(r.ok()) << line;
    EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << line;
    ExpectAgrees(line);
  }
  EXPECT_EQ(ParseActionLine(bad[2]).status().message(), "add: field 'size' is not an integer");
  EXPECT_EQ(ParseActionLine(bad[0]).status().message(), "action: invalid JSON");
  EXPECT_EQ(ParseActionLine(bad[12]).status().message(),
            "add: missing required field 'partitionValues'");
}

TEST(ActionLineParser, AcceptsExtremeInt64AndNullOptionals) {
  auto fast = TryParseFileActionLine(
      R"({"add":{"path":"a","partitionValues":{},"size":9223372036854775807,"modificationTime":-9223372036854775808,"dataChange":true,"stats":null,"tags":null,"deletionVector":null,"baseRowId":null}})");
  ASSERT_TRUE(fast);
  const auto& a = std::get<AddFile>(*fast);
  EXPECT_EQ(a.size, INT64_MAX);
  EXPECT_EQ(a.modification_time, INT64_MIN);
  EXPECT_FALSE(a.stats);
  EXPECT_FALSE(a.tags);
  ExpectAgrees(R"({"add":{"path":"a","partitionValues":{},"size":-0,"modificationTime":0,"dataChange":true}})");
}

TEST(ActionLineParser, DuplicateKeysDeferToTheDom) {
  for (const char* line : {
           R"({"add":{"path":"a","path":"b","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true}})",
           R"({"add":{"path":"a","partitionValues":{"p":"1","p":null},"size":1,"modificationTime":2,"dataChange":true}})",
           R"({"remove":{"path":"a","dataChange":true,"tags":{"k":"v","k":null}}})",
           R"({"remove":{"path":"a","dataChange":true,"tags":{"k":null,"k":"v"}}})",
       }) {
    EXPECT_FALSE(TryParseFileActionLine(line)) << line;
    ExpectAgrees(line);
  }
}

// Brute force: every prefix and many random single-byte mutations of real lines agree with
// the DOM parser.
TEST(ActionLineParser, TruncationsAndMutationsAgreeWithTheDom) {
  std::mt19937 rng(42);
  const std::string alphabet = "{}[]\":,\\ 0123456789-.eEtrufalsn\xC3\xA9\x80u";
  for (std::string base : {std::string(kAdd), std::string(kRemove)}) {
    for (size_t n = 0; n <= base.size(); ++n) ExpectAgrees(std::string_view(base).substr(0, n));
    for (int i = 0; i < 3000; ++i) {
      std::string m = base;
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        size_t pos = rng() % m.size();
        switch (rng() % 3) {
          case 0: m[pos] = alphabet[rng() % alphabet.size()]; break;
          case 1: m.erase(pos, 1); break;
          default: m.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        }
      }
      ExpectAgrees(m);
      if (HasFailure()) return;
    }
  }
}

TEST(ActionLineParser, DomHelperNamesTheError) {
  EXPECT_EQ(Dom("{"), "error: " + Status::Corruption("action: invalid JSON").ToString());
}

}  // namespace
}  // namespace shoal::delta
