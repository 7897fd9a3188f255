// Measures a layout on a sample of the table's rows (layout_sample.h) instead of modelling it
// (doc/local_sort.md "Automatic choice"): sorts the sample by a candidate key exactly as
// LocalSort sorts a file (normalized keys, or the rank-based z-order), cuts it into granules
// holding the sample's share of a page, keeps each granule's min/max per column, and replays
// each recorded query shape against them with synthetic constants drawn from the sample
// (equality: sampled values until the shape's selectivity is covered; range: a window of the
// sorted values as wide as the selectivity; IS NULL: nulls). The current files are measured the
// same way on the sample's own granules (rows of one page of the current files stay together),
// so correlations between columns and the clustering the data already has are seen. Storage:
// the sample written as Parquet sorted by the key, relative to the sample in its current order.
//
// Thread-safety: not thread-safe (results are cached); one advisor run uses one instance.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parquet/metadata.h"
#include "table/layout_advisor.h"
#include "table/layout_sample.h"

namespace shoal::table {

struct SampleMeasureOptions {
  int64_t table_rows = 0;           // rows the sample stands for (<= 0: the sample's own)
  int64_t rows_per_granule = 20000; // the writer's page size in rows
  int64_t rows_per_file = 0;        // rows LocalSort sorts together (one file); 0: the whole table
  int64_t min_granule_rows = 4;     // fewest sample rows per granule
  int trials = 16;                  // synthetic queries per shape
  uint64_t seed = 7;
  parquet::CompressionCodec codec = parquet::CompressionCodec::kSnappy;  // for storage
};

class SampleLayoutMeasure : public LayoutMeasure {
 public:
  SampleLayoutMeasure(LayoutSample sample, const SampleMeasureOptions& options);
  ~SampleLayoutMeasure() override;

  // nullopt when a column of the shape or the key is not in the sample, or the key cannot sort.
  std::optional<double> ReadFraction(const SortKey* key, const QueryShape& shape,
                                     const std::vector<double>& term_selectivity) override;
  // 1 when the key cannot be measured.
  double StorageRatio(const SortKey& key) override;

  int64_t sample_rows() const { return sample_.rows.num_rows; }
  int64_t granule_rows() const { return granule_rows_; }

 private:
  struct ColumnRanks;
  struct Layout;
  struct Term;
  using Trial = std::vector<Term>;

  int Column(const std::string& name) const;  // index in the sample, -1
  const ColumnRanks& Ranks(int column);
  // The sample rows in the order of `key` (null: the current order) with granule bounds; null
  // when the key cannot be applied.
  Layout* LayoutOf(const SortKey* key);
  const std::vector<Trial>* Trials(const QueryShape& shape, const std::vector<double>& sel);
  double Evaluate(Layout& layout, const Trial& trial);
  std::optional<double> MeasureReadFraction(const SortKey* key, const QueryShape& shape,
                                            const std::vector<double>& sel);
  std::optional<int64_t> WrittenBytes(const std::vector<uint32_t>& order);

  LayoutSample sample_;
  SampleMeasureOptions options_;
  int64_t granule_rows_ = 1;
  int64_t unit_rows_ = 0;  // sample rows sorted together
  std::map<int, std::unique_ptr<ColumnRanks>> ranks_;
  std::map<std::string, std::unique_ptr<Layout>> layouts_;  // by key text; "" = current order
  std::map<std::string, std::vector<Trial>> trials_;        // by shape key
  std::map<std::string, double> storage_;                   // by key text
  // By key text + '\n' + shape key: the advisor asks for the current order's fraction of every
  // shape once per candidate it scores.
  std::map<std::string, std::optional<double>> fractions_;
  std::optional<int64_t> current_bytes_;
};

}  // namespace shoal::table
