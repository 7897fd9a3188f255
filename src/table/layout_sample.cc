#include "table/layout_sample.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "delta/table_path.h"
#include "parquet/file_reader.h"

namespace shoal::table {

namespace {

bool IsFlat(const columnar::DataType& t) { return !t.IsNested() && t.id() != columnar::TypeId::kNull; }

// splitmix64: a fixed, well-mixed hash of a row's position, so the sample is reproducible.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Indices into schema.columns: `required` first, then further flat data columns.
std::vector<size_t> SampledColumns(const scan::TableSchema& schema,
                                                  const std::vector<std::string>& required, size_t max_columns) {
  std::vector<size_t> out;
  auto usable = [&](size_t i) { return !schema.columns[i].is_partition && IsFlat(*schema.columns[i].type); };
  for (const std::string& name : required) {
    size_t i = 0;
    while (i < schema.columns.size() && !SameColumnName(schema.columns[i].name, name)) ++i;
    if (i == schema.columns.size() || !usable(i)) continue;
    if (std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  }
  for (size_t i = 0; i < schema.columns.size() && out.size() < max_columns; ++i) {
    if (usable(i) && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  }
  return out;
}

struct OpenFile {
  std::unique_ptr<parquet::ParquetReader> reader;
  std::vector<int> fields;  // file field per sampled column
};

struct Group {
  size_t file = 0;
  int row_group = 0;
  int64_t rows = 0;
};

}  // namespace

bool SameColumnName(std::string_view a, std::string_view b) {
  auto fold = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return fold(x) == fold(y); });
}

std::optional<LayoutSample> SampleTable(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                                        const scan::TableSchema& schema, const std::vector<std::string>& required,
                                        const LayoutSampleOptions& options) {
  const std::vector<size_t> cols = SampledColumns(schema, required, std::max(options.max_columns, required.size()));
  const auto& files = snapshot.files();
  if (cols.empty() || files.empty() || options.max_rows <= 0) return std::nullopt;

  // Footers of evenly spaced files; every row group of a readable file is a candidate.
  std::vector<OpenFile> open;
  std::vector<Group> groups;
  const size_t nf = std::min(files.size(), std::max<size_t>(1, options.max_files));
  for (size_t k = 0; k < nf; ++k) {
    const delta::AddFile& f = files[k * files.size() / nf];
    auto path = delta::ResolveTablePath(snapshot.table_root(), f.path);
    if (!path.ok()) continue;
    auto reader = parquet::ParquetReader::Open(fs, *path);
    if (!reader.ok()) continue;
    OpenFile o;
    for (size_t c : cols) {
      const scan::TableColumn& col = schema.columns[c];
      int i = (*reader)->schema()->Find(col.physical_name);
      if (i < 0 || !((*reader)->schema()->fields[static_cast<size_t>(i)].type->Equals(*col.type))) break;
      o.fields.push_back(i);
    }
    if (o.fields.size() != cols.size()) continue;
    for (int rg = 0; rg < (*reader)->num_row_groups(); ++rg) {
      int64_t rows = (*reader)->row_group_num_rows(rg);
      if (rows > 0 && rows <= std::numeric_limits<uint32_t>::max()) groups.push_back(Group{open.size(), rg, rows});
    }
    o.reader = std::move(*reader);
    open.push_back(std::move(o));
  }
  if (groups.empty()) return std::nullopt;

  // Evenly spaced row groups within the decoding budget (at least one).
  int64_t total = 0;
  for (const Group& g : groups) total += g.rows;
  std::vector<Group> chosen;
  if (total <= options.max_rows_scanned) {
    chosen = groups;
  } else {
    const double share = static_cast<double>(std::max<int64_t>(1, options.max_rows_scanned)) / static_cast<double>(total);
    const size_t k = std::clamp<size_t>(static_cast<size_t>(share * static_cast<double>(groups.size())), 1, groups.size());
    for (size_t j = 0; j < k; ++j) chosen.push_back(groups[j * groups.size() / k]);
  }
  int64_t scanned = 0;
  for (const Group& g : chosen) scanned += g.rows;
  const double p = std::min(1.0, static_cast<double>(options.max_rows) / static_cast<double>(scanned));
  const int64_t rpg = std::max<int64_t>(1, options.rows_per_granule);

  LayoutSample out;
  std::vector<std::vector<columnar::VectorPtr>> parts(cols.size());
  int64_t granule_base = 0;
  int64_t rows = 0;
  for (size_t gi = 0; gi < chosen.size(); ++gi) {
    const Group& g = chosen[gi];
    std::vector<uint32_t> sel;
    for (int64_t r = 0; r < g.rows; ++r) {
      uint64_t h = Mix(options.seed ^ (static_cast<uint64_t>(gi) << 40) ^ static_cast<uint64_t>(r));
      if (static_cast<double>(h >> 11) * 0x1p-53 < p) sel.push_back(static_cast<uint32_t>(r));
    }
    const int64_t base = granule_base;
    granule_base += (g.rows + rpg - 1) / rpg;
    if (sel.empty()) continue;
    const OpenFile& o = open[g.file];
    auto reader = o.reader->OpenRowGroup(g.row_group, o.fields);
    if (!reader.ok()) continue;
    std::vector<columnar::VectorPtr> got;
    for (size_t c = 0; c < o.fields.size(); ++c) {
      auto v = (*reader)->ReadFieldSelected(static_cast<int>(c), g.rows, sel.data(), static_cast<int64_t>(sel.size()));
      if (!v.ok() || !*v || (*v)->size() != static_cast<int64_t>(sel.size())) break;
      got.push_back(std::move(*v));
    }
    if (got.size() != o.fields.size()) continue;  // an unreadable row group is left out
    for (size_t c = 0; c < got.size(); ++c) parts[c].push_back(std::move(got[c]));
    for (uint32_t r : sel) out.granule.push_back(static_cast<uint32_t>(base + r / rpg));
    rows += static_cast<int64_t>(sel.size());
  }
  if (rows == 0) return std::nullopt;
  auto sample_schema = std::make_shared<columnar::Schema>();
  std::vector<columnar::VectorPtr> vectors;
  for (size_t c = 0; c < cols.size(); ++c) {
    const scan::TableColumn& col = schema.columns[(cols)[c]];
    sample_schema->fields.push_back(columnar::Field{col.name, col.type, col.nullable});
    vectors.push_back(parts[c].size() == 1 ? parts[c][0] : columnar::Concat(parts[c]));
  }
  out.rows = columnar::RecordBatch(std::move(sample_schema), std::move(vectors), rows);
  out.rows_scanned = scanned;
  return out;
}

}  // namespace shoal::table
