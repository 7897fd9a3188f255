#include "table/layout_choice.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "delta/json_fields.h"
#include "delta/stats_json.h"
#include "table/layout_measure.h"
#include "table/layout_sample.h"
#include "table/local_sort_key.h"

namespace shoal::table {

namespace {

constexpr size_t kMaxLayoutFileBytes = 1 << 20;
constexpr size_t kMaxKeyColumns = 32;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

// A measure on a sample of the filter columns (and further columns, for storage); null when the
// table cannot be sampled.
std::unique_ptr<SampleLayoutMeasure> MeasureOnSample(const std::shared_ptr<io::FileSystem>& fs,
                                                     const delta::Snapshot& snapshot, const scan::TableSchema& schema,
                                                     const QueryHistory& history, const TableProperties& props,
                                                     const TableStats& stats) {
  std::vector<std::string> filter_columns;
  for (const ShapeHistory& s : history.shapes) {
    for (const ShapeTerm& t : s.shape.terms) filter_columns.push_back(t.column);
  }
  LayoutSampleOptions so;
  so.rows_per_granule = stats.rows_per_granule;
  std::optional<LayoutSample> sample = SampleTable(fs, snapshot, schema, filter_columns, so);
  if (!sample) return nullptr;
  SampleMeasureOptions mo;
  mo.table_rows = stats.rows;
  mo.rows_per_granule = stats.rows_per_granule;
  if (stats.rows > 0 && stats.bytes > 0 && props.target_file_size > 0) {
    // Files are sorted one by one: about target size / bytes per row rows each.
    double row_bytes = static_cast<double>(stats.bytes) / static_cast<double>(stats.rows);
    mo.rows_per_file = static_cast<int64_t>(std::min(1e15, static_cast<double>(props.target_file_size) / row_bytes));
  }
  return std::make_unique<SampleLayoutMeasure>(std::move(*sample), mo);
}

}  // namespace

std::string LayoutChoicePath(const std::string& table_root) { return JoinPath(table_root, "_shoal/layout.json"); }

std::string LayoutChoiceToJson(const LayoutChoice& c) {
  delta::Json j = delta::Json::object();
  j["mode"] = c.key.mode == LocalSortMode::kZOrder ? "zorder" : "lexicographic";
  j["columns"] = c.key.columns;
  j["score"] = c.score;
  j["historyCount"] = c.history_count;
  j["recorded"] = c.recorded;
  j["chosenMs"] = c.chosen_ms;
  return delta::JsonText(j);
}

Result<LayoutChoice> LayoutChoiceFromJson(std::string_view text) {
  delta::Json j = delta::Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::Corruption("layout.json is not a JSON object");
  LayoutChoice c;
  auto mode = j.find("mode");
  if (mode == j.end() || !mode->is_string()) return Status::Corruption("layout.json: mode missing");
  if (*mode == "zorder") {
    c.key.mode = LocalSortMode::kZOrder;
  } else if (*mode == "lexicographic") {
    c.key.mode = LocalSortMode::kLexicographic;
  } else {
    return Status::Corruption("layout.json: unknown mode " + mode->get<std::string>());
  }
  auto cols = j.find("columns");
  if (cols == j.end() || !cols->is_array() || cols->size() > kMaxKeyColumns) {
    return Status::Corruption("layout.json: columns is not a short array");
  }
  for (const auto& col : *cols) {
    if (!col.is_string() || col.get<std::string>().empty()) return Status::Corruption("layout.json: bad column name");
    c.key.columns.push_back(col.get<std::string>());
  }
  auto num = [&](const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : 0.0; };
  c.score = num("score");
  c.history_count = num("historyCount");
  c.recorded = static_cast<int64_t>(std::clamp(num("recorded"), 0.0, 1e18));
  c.chosen_ms = static_cast<int64_t>(std::clamp(num("chosenMs"), 0.0, 1e18));
  return c;
}

std::optional<LayoutChoice> ReadLayoutChoice(io::FileSystem& fs, const std::string& table_root) {
  std::string path = LayoutChoicePath(table_root);
  auto info = fs.Stat(path);
  if (!info.ok() || info->is_dir || info->size < 0 || static_cast<size_t>(info->size) > kMaxLayoutFileBytes) {
    return std::nullopt;
  }
  auto text = fs.ReadAll(path);
  if (!text.ok()) return std::nullopt;
  auto c = LayoutChoiceFromJson(*text);
  if (!c.ok()) return std::nullopt;
  return *c;
}

Status WriteLayoutChoice(io::FileSystem& fs, const std::string& table_root, const LayoutChoice& choice) {
  RETURN_NOT_OK(fs.CreateDirs(JoinPath(table_root, "_shoal")));
  return fs.WriteAtomic(LayoutChoicePath(table_root), LayoutChoiceToJson(choice));
}

TableStats TableStatsFromSnapshot(const delta::Snapshot& snapshot, const scan::TableSchema& schema,
                                  size_t max_files) {
  TableStats stats;
  size_t n = schema.columns.size();
  std::vector<std::optional<int64_t>> lo(n), hi(n);
  std::vector<bool> bounded(n, true);
  size_t parsed = 0;
  const delta::FileList& files = snapshot.file_list();
  size_t with_stats = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    stats.bytes += std::max<int64_t>(0, files.file_size(i));
    auto text = files.stats(i);
    if (!text) continue;
    ++with_stats;
    if (parsed >= max_files) {
      // Scale rows by the average of the parsed files.
      continue;
    }
    auto s = delta::ParseStatsJson(*text);
    if (!s.ok() || !s->num_records) continue;
    ++parsed;
    const delta::DeletionVectorDescriptor* dv_desc = files.deletion_vector(i);
    int64_t dv = dv_desc ? dv_desc->cardinality : 0;
    stats.rows += std::max<int64_t>(0, *s->num_records - dv);
    for (size_t c = 0; c < n; ++c) {
      const scan::TableColumn& col = schema.columns[c];
      if (col.is_partition || !col.type->IsInteger()) continue;
      const delta::Json* mn = s->Min({col.physical_name});
      const delta::Json* mx = s->Max({col.physical_name});
      if (!mn || !mx || !mn->is_number_integer() || !mx->is_number_integer()) {
        if (*s->num_records > 0 && s->NullCount({col.physical_name}) != s->num_records) bounded[c] = false;
        continue;
      }
      int64_t a = mn->get<int64_t>(), b = mx->get<int64_t>();
      lo[c] = lo[c] ? std::min(*lo[c], a) : a;
      hi[c] = hi[c] ? std::max(*hi[c], b) : b;
    }
  }
  if (parsed > 0 && with_stats > parsed) {
    stats.rows = static_cast<int64_t>(static_cast<double>(stats.rows) * static_cast<double>(with_stats) /
                                      static_cast<double>(parsed));
  }
  for (size_t c = 0; c < n; ++c) {
    const scan::TableColumn& col = schema.columns[c];
    ColumnStats cs;
    cs.name = col.name;
    cs.sortable = IsSortableType(*col.type);
    cs.partition = col.is_partition;
    if (col.type->id() == columnar::TypeId::kBoolean) cs.distinct_estimate = 3;  // true, false, NULL
    if (bounded[c] && lo[c] && hi[c] && parsed > 0) {
      double range = static_cast<double>(*hi[c]) - static_cast<double>(*lo[c]) + 2;  // + NULL
      if (range < static_cast<double>(std::max<int64_t>(1, stats.rows))) cs.distinct_estimate = range;
    }
    stats.columns.push_back(std::move(cs));
  }
  return stats;
}

SortKey EffectiveSortKey(const TableProperties& props, const std::optional<LayoutChoice>& persisted,
                         const columnar::Schema& schema) {
  SortKey key;
  if (!props.local_sort_columns.empty()) {
    key.mode = props.local_sort_mode;
    key.columns = props.local_sort_columns;
    return key;
  }
  if (!props.local_sort_auto || !persisted) return key;
  TableProperties probe = props;
  probe.local_sort_columns = persisted->key.columns;
  if (!ValidateLocalSortColumns(probe, schema).ok()) return key;  // a column was dropped or retyped
  return persisted->key;
}

Result<LayoutReport> EvaluateLayout(const std::shared_ptr<io::FileSystem>& fs, const delta::Snapshot& snapshot,
                                    const scan::TableSchema& schema, const AdvisorOptions& options) {
  LayoutReport r;
  const std::string& root = snapshot.table_root();
  ASSIGN_OR_RETURN(r.props, ParseTableProperties(snapshot.metadata().configuration));
  r.explicit_key.mode = r.props.local_sort_mode;
  r.explicit_key.columns = r.props.local_sort_columns;
  r.persisted = ReadLayoutChoice(*fs, root);
  r.effective = EffectiveSortKey(r.props, r.persisted, schema.schema);
  ASSIGN_OR_RETURN(r.history, ReadQueryHistory(*fs, root));
  r.stats = TableStatsFromSnapshot(snapshot, schema);
  std::unique_ptr<SampleLayoutMeasure> measure;
  if (r.history.total_count >= options.min_history) measure = MeasureOnSample(fs, snapshot, schema, r.history, r.props, r.stats);
  if (measure) {
    r.sample_rows = measure->sample_rows();
    r.sample_granule_rows = measure->granule_rows();
  }
  r.advice = AdviseLayout(r.history, r.stats, r.effective, options, measure.get());
  std::optional<SortKey> persisted_key;
  if (r.persisted && EffectiveSortKey(r.props, r.persisted, schema.schema) == r.persisted->key) {
    persisted_key = r.persisted->key;
  }
  r.recommendation = ChooseKey(r.advice, persisted_key, r.history, r.stats, options, measure.get());
  return r;
}

Result<SortKey> RefreshAutoLayout(const std::shared_ptr<io::FileSystem>& fs, const delta::Snapshot& snapshot,
                                  const scan::TableSchema& schema, const AdvisorOptions& options) {
  ASSIGN_OR_RETURN(LayoutReport r, EvaluateLayout(fs, snapshot, schema, options));
  if (!r.props.local_sort_auto || !r.props.local_sort_columns.empty()) return r.effective;
  if (!r.recommendation || r.recommendation->current_order) return r.effective;
  bool same = r.persisted && r.persisted->key == r.recommendation->key;
  if (same) return r.effective;
  LayoutChoice c;
  c.key = r.recommendation->key;
  c.score = r.recommendation->score;
  c.history_count = r.history.total_count;
  c.recorded = r.history.recorded;
  c.chosen_ms = NowMs();
  RETURN_NOT_OK(WriteLayoutChoice(*fs, snapshot.table_root(), c));
  return c.key;
}

}  // namespace shoal::table
