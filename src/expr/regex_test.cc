#include "expr/regex.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace shoal::expr {
namespace {

std::shared_ptr<const Regex> Compile(std::string_view p) {
  auto re = Regex::Get(p, "test");
  EXPECT_TRUE(re.ok()) << re.status().ToString();
  return re.ok() ? *re : nullptr;
}

std::vector<std::string> Matches(std::string_view pattern, std::string_view text) {
  std::vector<std::string> out;
  Compile(pattern)->ForEachMatch(text, [&](const Regex::Groups& g) {
    out.emplace_back(std::to_string(g[0].data() - text.data()) + ":" + std::string(g[0]));
    return true;
  });
  return out;
}

TEST(Regex, TranslatesJavaNamedGroupsOnly) {
  std::string error;
  EXPECT_EQ(TranslateJavaRegex("(?<year>\\d+)-(?<m>\\d+)", &error), "(?P<year>\\d+)-(?P<m>\\d+)");
  EXPECT_EQ(TranslateJavaRegex("(?<=a)b(?<!c)", &error), "(?<=a)b(?<!c)");  // lookbehind: RE2 rejects it
  EXPECT_EQ(TranslateJavaRegex("\\(?<x>", &error), "\\(?<x>");               // an escaped parenthesis
  EXPECT_EQ(TranslateJavaRegex("\\Q(?<x>\\E", &error), "\\Q(?<x>\\E");       // quoted text
  EXPECT_EQ(TranslateJavaRegex("[(?<x>]", &error), "[(?<x>]");               // inside a class
  EXPECT_TRUE(error.empty());
}

TEST(Regex, RejectsClassUnionAndIntersection) {
  for (const char* p : {"[a[b]]", "[a-z&&[^e]]", "[a&&b]"}) {
    std::string error;
    TranslateJavaRegex(p, &error);
    EXPECT_FALSE(error.empty()) << p;
    EXPECT_FALSE(Regex::Get(p, "f").ok()) << p;
  }
  std::string error;
  EXPECT_EQ(TranslateJavaRegex("[]a&]", &error), "[]a&]");  // ']' first is a member; one '&' is fine
  EXPECT_EQ(TranslateJavaRegex("[\\[x]", &error), "[\\[x]");
  EXPECT_TRUE(error.empty());
}

TEST(Regex, InvalidPatternErrorNamesFunctionAndPattern) {
  auto re = Regex::Get("a(b", "regexp_extract");
  ASSERT_FALSE(re.ok());
  EXPECT_NE(re.status().message().find("[INVALID_PARAMETER_VALUE.PATTERN]"), std::string::npos);
  EXPECT_NE(re.status().message().find("`regexp_extract`"), std::string::npos);
  EXPECT_NE(re.status().message().find("'a(b'"), std::string::npos);
  for (const char* p : {"(a)\\1", "a(?=b)", "(?<!a)b", "a*+", "(?>a)", "\\Z"}) {
    EXPECT_FALSE(Regex::Get(p, "f").ok()) << p;
  }
}

TEST(Regex, CompiledOnceAndShared) {
  auto a = Compile("x+y");
  auto b = Compile("x+y");
  EXPECT_EQ(a.get(), b.get());
}

TEST(Regex, FindStepsPastEmptyMatchesAsJava) {
  EXPECT_EQ(Matches("a*", "baaac"), (std::vector<std::string>{"0:", "1:aaa", "4:", "5:"}));
  EXPECT_EQ(Matches("", "ab"), (std::vector<std::string>{"0:", "1:", "2:"}));
  // One step is one UTF-8 character, never into its middle.
  EXPECT_EQ(Matches("", "\xc3\xa9"), (std::vector<std::string>{"0:", "2:"}));
  EXPECT_EQ(Matches("\\d+", "a1b22"), (std::vector<std::string>{"1:1", "3:22"}));
}

TEST(Regex, FindFromKeepsAnchorsAtTheStart) {
  auto re = Compile("^a");
  Regex::Groups g;
  EXPECT_TRUE(re->Find("aa", 0, &g));
  EXPECT_FALSE(re->Find("aa", 1, &g));
}

TEST(Regex, GroupsThatTakeNoPartAreNull) {
  auto re = Compile("(a)|(b)");
  Regex::Groups g;
  ASSERT_TRUE(re->Find("b", 0, &g));
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[1].data(), nullptr);
  EXPECT_EQ(g[2], "b");
}

std::string Replace(std::string_view pattern, std::string_view text, std::string_view rep) {
  auto re = Compile(pattern);
  Regex::Groups g;
  EXPECT_TRUE(re->Find(text, 0, &g));
  std::string out;
  Status st = re->AppendReplacement(rep, g, &out);
  return st.ok() ? out : "error: " + st.message();
}

TEST(Regex, ReplacementFollowsJavaAppendReplacement) {
  EXPECT_EQ(Replace("(a)(b)", "ab", "$2$1"), "ba");
  EXPECT_EQ(Replace("(a)(b)", "ab", "$0!"), "ab!");
  EXPECT_EQ(Replace("(?<x>a)", "a", "<${x}>"), "<a>");
  EXPECT_EQ(Replace("a", "a", "\\$1\\\\"), "$1\\");
  EXPECT_EQ(Replace("(a)|(b)", "a", "[$2]"), "[]");  // a group that took no part adds nothing
  // $12 is group 1 then '2' when there is no group 12 (Java takes digits while valid).
  EXPECT_EQ(Replace("(a)", "a", "$12"), "a2");
  EXPECT_EQ(Replace("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)", "abcdefghijkl", "$12"), "l");
  EXPECT_NE(Replace("(a)", "a", "$2").find("No group 2"), std::string::npos);
  EXPECT_NE(Replace("(a)", "a", "${y}").find("No group with name {y}"), std::string::npos);
  EXPECT_NE(Replace("(a)", "a", "$").find("error"), std::string::npos);
  EXPECT_NE(Replace("(a)", "a", "x\\").find("error"), std::string::npos);
  EXPECT_NE(Replace("(a)", "a", "$x").find("Illegal group reference"), std::string::npos);
}

// Random patterns, texts and replacements: every call returns (an error or a result), and
// every match lies inside the text with the search always moving forward.
TEST(Regex, RandomPatternsNeverCrash) {
  std::mt19937 rng(29);
  const std::string chars = "ab()[]{}*+?|^$.\\-&<>=!:P1209QEdwsSbB,\xc3\xa9 ";
  auto random_text = [&](size_t max) {
    std::string s;
    for (size_t k = rng() % (max + 1); k > 0; --k) s.push_back(chars[rng() % chars.size()]);
    return s;
  };
  int compiled = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string p = random_text(10), text = random_text(12), rep = random_text(4);
    auto re = Regex::Get(p, "fuzz");
    if (!re.ok()) continue;
    ++compiled;
    size_t last = 0;
    int steps = 0;
    std::string out;
    (*re)->ForEachMatch(text, [&](const Regex::Groups& g) {
      size_t at = static_cast<size_t>(g[0].data() - text.data());
      EXPECT_LE(at + g[0].size(), text.size());
      EXPECT_GE(at, last);
      last = at;
      (void)(*re)->AppendReplacement(rep, g, &out);
      return ++steps < 100;
    });
    EXPECT_LT(steps, 100);
  }
  EXPECT_GT(compiled, 1000);
}

}  // namespace
}  // namespace shoal::expr
