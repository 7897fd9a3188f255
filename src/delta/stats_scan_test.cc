// ParseStatsJsonFor against the document route (ParseStatsJson) as the oracle: on random stats
// strings, valid and corrupted, both must accept the same texts and agree on every wanted entry.
#include "delta/stats_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace shoal::delta {
namespace {

const std::vector<std::string> kNames = {"a", "b", "s", "id", "\xc3\xa9t\xc3\xa9", "k\\\"q", "min\\u0041"};

// A random JSON value (`depth` bounds the nesting).
std::string RandomValue(std::mt19937_64& rng, int depth) {
  switch (rng() % (depth > 0 ? 12 : 9)) {
    case 0: return std::to_string(static_cast<int64_t>(rng() % 2000) - 1000);
    case 1: return std::to_string(rng());  // may exceed INT64_MAX
    case 2: return "-0.5e3";
    case 3: return rng() % 4 ? "1.25" : (rng() % 2 ? "2e308" : "1e-400");
    case 4: return "\"x\\n\\u00e9\\ud83d\\ude00y\"";
    case 5: return "\"plain\xc3\xa9\"";
    case 6: return rng() % 2 ? "true" : "false";
    case 7: return "null";
    case 8: return "\"\"";
    case 9: {
      std::string s = "[";
      for (int i = 0, n = static_cast<int>(rng() % 3); i < n; ++i) s += (i ? "," : "") + RandomValue(rng, depth - 1);
      return s + "]";
    }
    default: {
      std::string s = "{";
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i) {
        s += (i ? ", " : "") + std::string("\"") + kNames[rng() % kNames.size()] + "\": " + RandomValue(rng, depth - 1);
      }
      return s + "}";
    }
  }
}

std::string RandomStats(std::mt19937_64& rng) {
  static const std::vector<std::string> kTop = {"numRecords", "tightBounds", "minValues", "maxValues",
                                                "nullCount",  "other",       "min\\u0056alues"};
  std::string s = "{";
  for (int i = 0, n = static_cast<int>(rng() % 7); i < n; ++i) {
    const std::string& key = kTop[rng() % kTop.size()];
    std::string v;
    if (key == "numRecords" && rng() % 3) v = std::to_string(rng() % 100000);
    else if (key == "tightBounds" && rng() % 3) v = rng() % 2 ? "true" : "false";
    else if (key.find("Values") != std::string::npos || key == "nullCount" || key.find("\\u") != std::string::npos) {
      v = rng() % 5 ? "{" : RandomValue(rng, 2);
      if (v == "{") {
        for (int k = 0, m = static_cast<int>(rng() % 5); k < m; ++k) {
          v += (k ? "," : "") + std::string("\"") + kNames[rng() % kNames.size()] + "\":" +
               (key == "nullCount" && rng() % 2 ? std::to_string(rng() % 9) : RandomValue(rng, 3));
        }
        v += "}";
      }
    } else {
      v = RandomValue(rng, 3);
    }
    s += (i ? "," : "") + std::string(rng() % 4 ? "" : " \n") + "\"" + key + "\":" + v;
  }
  return s + "}";
}

// One byte changed, inserted or deleted (control characters and invalid UTF-8 among them).
std::string Corrupt(std::string s, std::mt19937_64& rng) {
  static const std::string kBytes = std::string("{}[]\",:\\u0n-.e\x01\x80\xc3\xed\xf5 ", 20);
  if (s.empty()) return s;
  const size_t at = rng() % s.size();
  const char b = kBytes[rng() % kBytes.size()];
  switch (rng() % 3) {
    case 0: s[at] = b; break;
    case 1: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), b); break;
    default: s.erase(at, 1); break;
  }
  return s;
}

std::vector<ColumnPath> Wanted() {
  std::vector<ColumnPath> w;
  const std::vector<std::string> plain = {"a", "b", "s", "id", "\xc3\xa9t\xc3\xa9", "k\"q", "minA", "zz"};
  for (const auto& n : plain) w.push_back({n});
  w.push_back({"s", "a"});
  w.push_back({"s", "b"});
  w.push_back({"a", "s", "id"});
  return w;
}

// The oracle's answer restricted to the wanted paths equals the scanner's.
void ExpectSameAsDocument(const std::string& text, const std::vector<ColumnPath>& wanted) {
  Result<FileStats> doc = ParseStatsJson(text);
  Result<FileStats> fast = ParseStatsJsonFor(text, wanted);
  ASSERT_EQ(doc.ok(), fast.ok()) << text << "\ndocument: " << doc.status().ToString()
                                 << "\nscanner: " << fast.status().ToString();
  if (!doc.ok()) {
    EXPECT_TRUE(fast.status().IsCorruption()) << text;
    return;
  }
  FileStats want;
  want.num_records = doc->num_records;
  want.tight_bounds = doc->tight_bounds;
  for (const ColumnPath& p : wanted) {
    if (const Json* v = doc->Min(p)) want.min_values[p] = *v;
    if (const Json* v = doc->Max(p)) want.max_values[p] = *v;
    if (auto n = doc->NullCount(p)) want.null_count[p] = *n;
  }
  EXPECT_EQ(*fast, want) << text;
}

TEST(StatsScan, AgreesWithTheDocumentParserOnRandomStats) {
  std::mt19937_64 rng(7);
  const auto wanted = Wanted();
  int valid = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = RandomStats(rng);
    valid += ParseStatsJson(text).ok();
    ExpectSameAsDocument(text, wanted);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(valid, 5000);  // the generator mostly makes valid stats
}

TEST(StatsScan, RejectsWhatTheDocumentParserRejectsOnCorruptedStats) {
  std::mt19937_64 rng(8);
  const auto wanted = Wanted();
  int rejected = 0;
  for (int i = 0; i < 30000; ++i) {
    std::string text = RandomStats(rng);
    for (int k = 0, n = 1 + static_cast<int>(rng() % 2); k < n; ++k) text = Corrupt(text, rng);
    rejected += !ParseStatsJson(text).ok();
    ExpectSameAsDocument(text, wanted);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(rejected, 10000);
}

TEST(StatsScan, SparkStatsKeepOnlyTheWantedColumns) {
  const std::string text =
      R"({"numRecords":92120,"minValues":{"id":104766900,"value":"a8b7ccaa45356","s":{"x":1.5}},)"
      R"("maxValues":{"id":104945481,"value":"z1a328e374fdb","s":{"x":2.5}},"nullCount":{"id":0,"value":5,"s":{"x":3}},)"
      R"("tightBounds":true})";
  auto r = ParseStatsJsonFor(text, {{"id"}, {"s", "x"}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_records, 92120);
  EXPECT_TRUE(r->TightBounds());
  EXPECT_EQ(*r->Min({"id"}), 104766900);
  EXPECT_EQ(*r->Max({"s", "x"}), 2.5);
  EXPECT_EQ(r->NullCount({"s", "x"}), 3);
  EXPECT_EQ(r->Min({"value"}), nullptr);
  EXPECT_EQ(r->min_values.size(), 2u);
  auto none = ParseStatsJsonFor(text, {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->num_records, 92120);
  EXPECT_TRUE(none->min_values.empty() && none->null_count.empty());
}

// Struct nesting past 128 inside a section is rejected by both routes; nesting of any depth
// elsewhere (arrays, unknown keys) is accepted without recursion.
TEST(StatsScan, DeepNestingIsJudgedAsTheDocumentParserDoesWithoutRecursing) {
  auto nest = [](const std::string& open, const std::string& close, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += open;
    s += "1";
    for (int i = 0; i < n; ++i) s += close;
    return s;
  };
  const auto wanted = Wanted();
  for (int n : {127, 128, 129, 200}) {
    ExpectSameAsDocument(R"({"minValues":{"a":)" + nest(R"({"a":)", "}", n) + "}}", wanted);
    ExpectSameAsDocument(R"({"nullCount":)" + nest(R"({"s":)", "}", n) + "}", wanted);
  }
  ExpectSameAsDocument(R"({"other":)" + nest("[", "]", 5000) + R"(,"numRecords":3})", wanted);
  auto deep = ParseStatsJsonFor(R"({"other":)" + nest("[", "]", 200000) + "}", wanted);
  EXPECT_TRUE(deep.ok()) << deep.status().ToString();
}

TEST(StatsScan, WrongTypesAndBadTextAreCorruption) {
  for (const char* bad : {"", "{", "[]", "3", R"({"numRecords":"10"})", R"({"numRecords":1.5})",
                          R"({"numRecords":18446744073709551615})", R"({"minValues":[1]})", R"({"tightBounds":1})",
                          R"({"a":"\ud800"})", "{\"a\":\"\xc0\xaf\"}", "{\"a\":\"\x01\"}", R"({"a":1} x)",
                          R"({"a":01})", R"({"a":-})", R"({"a":tru})"}) {
    EXPECT_TRUE(ParseStatsJson(bad).status().IsCorruption()) << bad;
    EXPECT_TRUE(ParseStatsJsonFor(bad, {{"a"}}).status().IsCorruption()) << bad;
  }
}

}  // namespace
}  // namespace shoal::delta
