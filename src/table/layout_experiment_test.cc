// The auto-layout acceptance criterion on real bytes, small: the same lineitem-like table
// written unsorted, with several explicit LocalSort keys and in auto mode (history replayed
// through the query log, then OPTIMIZE), the mixed workload run on each; auto mode's measured
// benefit (bytes the workload no longer reads) must be within 10% of the best explicit key's,
// and every layout must return the same rows.
#include <gtest/gtest.h>

#include "support/testdata.h"
#include "table/layout_experiment.h"

namespace shoal::table {
namespace {

SortKey Lex(std::vector<std::string> cols) { return SortKey{LocalSortMode::kLexicographic, std::move(cols)}; }

TEST(LayoutExperiment, GeneratorIsDeterministicPerRowRange) {
  auto a = GenerateLineitem(LineitemVariant::kScanBench, 0, 100);
  auto b = GenerateLineitem(LineitemVariant::kScanBench, 50, 50);
  ASSERT_EQ(a.num_columns(), LineitemSchema().size());
  for (size_t c = 0; c < a.num_columns(); ++c) {
    for (int64_t i = 0; i < 50; ++i) {
      EXPECT_EQ(a.column(c)->IsNull(50 + i), b.column(c)->IsNull(i));
    }
  }
  EXPECT_EQ(a.column(14)->GetString(50), b.column(14)->GetString(0));
  // bench/scan_bench.sh: l_skey = 'k' || lpad((i * 6151 + 17) % 1000, 4, '0'); l_note NULL for i = 811.
  EXPECT_EQ(a.column(14)->GetString(1), "k0168");
  auto c = GenerateLineitem(LineitemVariant::kScanBench, 811, 1);
  EXPECT_TRUE(c.column(15)->IsNull(0));
}

// Auto mode's measured benefit must be at least 90% of the best explicit key's on `variant`.
void ExpectAutoWithinTenPercent(LineitemVariant variant) {
  shoal::testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  auto workload = LineitemWorkload();
  ASSERT_TRUE(workload.ok()) << workload.status().ToString();
  LayoutExperimentOptions o;
  o.rows = 200000;  // 10 pages of 20,000 rows per column: pruning is measurable
  o.batch_rows = 50000;
  o.variant = variant;
  std::vector<LayoutCandidate> cands = {
      {"unsorted", {}, false},
      {"l_skey", Lex({"l_skey"}), false},
      {"l_shipdate", Lex({"l_shipdate"}), false},
      {"(l_env,l_shipdate)", Lex({"l_env", "l_shipdate"}), false},
      {"l_partkey", Lex({"l_partkey"}), false},
      {"zorder(l_skey,l_shipdate)", SortKey{LocalSortMode::kZOrder, {"l_skey", "l_shipdate"}}, false},
      {"zorder(l_skey,l_partkey)", SortKey{LocalSortMode::kZOrder, {"l_skey", "l_partkey"}}, false},
      {"auto", {}, true},
  };
  std::vector<LayoutResult> results;
  for (const auto& c : cands) {
    const std::string name = c.name == "auto" ? "auto" : std::string("t").append(std::to_string(results.size()));
    auto r = RunLayoutCandidate(fs, dir.Join(name), c, *workload, o);
    ASSERT_TRUE(r.ok()) << c.name << ": " << r.status().ToString();
    results.push_back(std::move(*r));
  }
  const LayoutResult& base = results[0];
  const LayoutResult& autor = results.back();
  int64_t best = 0;
  std::string best_name;
  for (size_t i = 1; i + 1 < results.size(); ++i) {
    // Sorting never changes answers.
    for (size_t q = 0; q < workload->size(); ++q) {
      EXPECT_EQ(results[i].per_query[q].rows_returned, base.per_query[q].rows_returned)
          << results[i].name << " " << (*workload)[q].name;
    }
    int64_t b = BytesBenefit(base, results[i]);
    if (b > best) best = b, best_name = results[i].name;
  }
  for (size_t q = 0; q < workload->size(); ++q) {
    EXPECT_EQ(autor.per_query[q].rows_returned, base.per_query[q].rows_returned) << (*workload)[q].name;
  }
  ASSERT_GT(best, 0) << "no explicit key reads fewer bytes than unsorted";
  ASSERT_FALSE(autor.key.empty()) << "auto mode chose no key";
  const int64_t auto_benefit = BytesBenefit(base, autor);
  EXPECT_GE(static_cast<double>(auto_benefit), 0.9 * static_cast<double>(best))
      << "auto chose " << autor.key.ToString() << " (benefit " << auto_benefit << " bytes), best explicit "
      << best_name << " (" << best << " bytes)";
}

TEST(LayoutExperiment, AutoKeyIsWithinTenPercentOfTheBestExplicitKeyOnMeasuredBytes) {
  ExpectAutoWithinTenPercent(LineitemVariant::kScanBench);
}

// The TPC-H-correlated data is already clustered by arrival order: only a key that keeps the
// date clustering's value (l_skey) beats it; z-orders read more than the unsorted table.
TEST(LayoutExperiment, AutoKeyIsWithinTenPercentOfTheBestExplicitKeyOnCorrelatedData) {
  ExpectAutoWithinTenPercent(LineitemVariant::kCorrelated);
}

}  // namespace
}  // namespace shoal::table
