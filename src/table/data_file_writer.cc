#include "table/data_file_writer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <limits>
#include <mutex>

#include "delta/table_path.h"
#include "scan/delta_schema.h"
#include "table/layout_choice.h"
#include "table/partition_path.h"
#include "table/uuid.h"

namespace shoal::table {

using columnar::Field;
using columnar::RecordBatch;
using columnar::TypeId;
using columnar::TypePtr;
using columnar::Vector;
using columnar::VectorPtr;

struct DataFileWriter::OpenFile {
  std::string dir;
  delta::PartitionValues values;
  std::string rel_path;  // unencoded, relative to the root
  std::unique_ptr<parquet::ParquetWriter> writer;
  std::optional<FileStatsCollector> stats;
  int64_t est_bytes = 0;
  std::vector<columnar::BatchPtr> buffered;  // local_sort hook: logical data rows not yet written
  std::unique_ptr<ExternalSorter> sorter;    // LocalSort by properties
};

namespace {

const char* CodecExtension(parquet::CompressionCodec c) {
  switch (c) {
    case parquet::CompressionCodec::kSnappy: return ".snappy";
    case parquet::CompressionCodec::kGzip: return ".gz";
    case parquet::CompressionCodec::kZstd: return ".zstd";
    case parquet::CompressionCodec::kBrotli: return ".brotli";
    case parquet::CompressionCodec::kLz4Raw: return ".lz4raw";
    default: return "";
  }
}

int64_t RawBytes(const Vector& v) {
  int64_t n = static_cast<int64_t>(v.values().size() + v.bytes().size() + v.validity().size());
  for (const auto& c : v.children()) n += RawBytes(*c);
  return n;
}

int64_t RawBytes(const RecordBatch& b) {
  int64_t n = 0;
  for (const auto& c : b.columns) n += RawBytes(*c);
  return n;
}

// The same vector under a type that differs only in struct field names (shares leaf data).
VectorPtr Retype(const VectorPtr& v, const TypePtr& type) {
  if (v->type() == type || v->type()->Equals(*type)) return v;
  auto out = std::make_shared<Vector>(type);
  out->validity() = v->validity();
  out->children().clear();
  if (type->id() == TypeId::kStruct) {
    for (size_t i = 0; i < v->children().size(); ++i) {
      out->children().push_back(Retype(v->child(i), type->children()[i].type));
    }
  } else {  // LIST / MAP: offsets plus one child
    out->values() = v->values();
    out->children().push_back(Retype(v->child(0), type->children()[0].type));
  }
  out->SetLength(v->size());
  return out;
}

Status CheckNotNullField(const Vector& v, const Field& f, const std::string& path, const uint8_t* parent_valid,
                         int64_t n) {
  if (!f.nullable && v.MayHaveNulls()) {
    for (int64_t i = 0; i < n; ++i) {
      if ((!parent_valid || parent_valid[i]) && v.IsNull(i)) {
        return Status::Constraint("NOT NULL constraint violated for column: " + path);
      }
    }
  }
  if (f.type->id() != TypeId::kStruct) return Status::OK();
  bool any_required = false;
  for (const auto& c : f.type->children()) any_required |= !c.nullable || c.type->id() == TypeId::kStruct;
  if (!any_required) return Status::OK();
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  for (int64_t i = 0; i < n; ++i) valid[i] = (!parent_valid || parent_valid[i]) && v.IsValid(i);
  for (size_t k = 0; k < f.type->children().size(); ++k) {
    const Field& cf = f.type->children()[k];
    RETURN_NOT_OK(CheckNotNullField(*v.child(k), cf, path + "." + cf.name, valid.data(), n));
  }
  return Status::OK();
}

}  // namespace

TypePtr PhysicalType(const delta::SchemaField& f, const TypePtr& type, bool mapped) {
  switch (type->id()) {
    case TypeId::kStruct: {
      std::vector<Field> fields;
      for (size_t i = 0; i < type->children().size(); ++i) {
        const Field& cf = type->children()[i];
        const delta::SchemaField& df = f.children[i];
        std::string name = mapped && df.PhysicalName() ? *df.PhysicalName() : cf.name;
        fields.push_back({name, PhysicalType(df, cf.type, mapped), cf.nullable});
      }
      return columnar::Struct(std::move(fields));
    }
    case TypeId::kList:
      return columnar::List(PhysicalType(f.children[0], type->element(), mapped), type->children()[0].nullable);
    case TypeId::kMap: {
      const auto& entry = type->children()[0].type->children();
      return columnar::Map(PhysicalType(f.children[0], entry[0].type, mapped),
                           PhysicalType(f.children[1], entry[1].type, mapped), entry[1].nullable);
    }
    default:
      return type;
  }
}

Result<std::unique_ptr<DataFileWriter>> DataFileWriter::Make(std::shared_ptr<io::FileSystem> fs,
                                                             std::string table_root,
                                                             const delta::Metadata& metadata,
                                                             DataFileWriterOptions options) {
  std::unique_ptr<DataFileWriter> w(new DataFileWriter());
  w->fs_ = std::move(fs);
  w->root_ = std::move(table_root);
  w->options_ = std::move(options);
  ASSIGN_OR_RETURN(w->props_, ParseTableProperties(metadata.configuration));
  ASSIGN_OR_RETURN(w->delta_root_, delta::ParseSchemaJson(metadata.schema_string));
  ASSIGN_OR_RETURN(scan::TableSchema ts, scan::BuildTableSchema(metadata));
  w->schema_ = ts.schema;
  const bool mapped = w->props_.column_mapping != ColumnMapping::kNone;
  const bool id_mode = w->props_.column_mapping == ColumnMapping::kId;
  parquet::WriterProperties::Builder b;
  b.compression(w->options_.codec).max_row_group_rows(w->options_.max_row_group_rows).page_index(true);
  // Pages that are not dictionary-encoded (high-cardinality columns, after the dictionary
  // fills): DELTA_BINARY_PACKED for INT32/INT64 (the writer keeps other types PLAIN) and
  // DELTA_LENGTH_BYTE_ARRAY for top-level strings. On doc/benchmarks.md's lineitem data they
  // are 25% smaller than PLAIN and faster to write and to read; DuckDB and Spark 3.3+ read them.
  b.encoding(parquet::Encoding::kDeltaBinaryPacked);
  std::vector<TypePtr> data_types;
  for (size_t i = 0; i < w->schema_.size(); ++i) {
    const delta::SchemaField& df = w->delta_root_.children[i];
    const Field& f = w->schema_.fields[i];
    std::string phys = mapped && df.PhysicalName() ? *df.PhysicalName() : f.name;
    if (ts.columns[i].is_partition) {
      w->partition_columns_.push_back(static_cast<int>(i));
      continue;
    }
    w->data_columns_.push_back(static_cast<int>(i));
    w->data_fields_.push_back(df);
    data_types.push_back(f.type);
    w->physical_schema_.fields.push_back({phys, PhysicalType(df, f.type, mapped), f.nullable});
    if (f.type->IsStringLike()) b.encoding(phys, parquet::Encoding::kDeltaLengthByteArray);
    std::string lower_name = f.name;
    std::transform(lower_name.begin(), lower_name.end(), lower_name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (auto bloom = w->props_.bloom_filters.find(lower_name); bloom != w->props_.bloom_filters.end()) {
      b.bloom_filter(phys, bloom->second.num_items, bloom->second.fpp);
    }
    if (id_mode) {
      // Field ids for top-level columns and struct fields below them.
      std::function<void(const delta::SchemaField&, const std::string&)> ids = [&](const delta::SchemaField& node,
                                                                                 const std::string& path) {
        if (auto id = node.ColumnMappingId()) b.field_id(path, static_cast<int32_t>(*id));
        if (!node.IsStruct()) return;
        for (const auto& c : node.children) ids(c, path + "." + c.PhysicalName().value_or(c.name));
      };
      ids(df, phys);
    }
  }
  // partitionColumns are logical names; partitionValues keys are physical names.
  for (int pc : w->partition_columns_) {
    const delta::SchemaField& df = w->delta_root_.children[pc];
    w->partition_keys_.push_back(mapped && df.PhysicalName() ? *df.PhysicalName() : df.name);
  }
  if (w->data_columns_.empty()) return Status::InvalidArgument("table " + w->root_ + " has no data columns");
  RETURN_NOT_OK(w->ResolveLocalSort(&b));
  w->writer_props_ = b.Build();
  w->target_size_ = w->options_.target_file_size.value_or(w->props_.target_file_size);
  if (w->target_size_ <= 0) return Status::InvalidArgument("target file size must be positive");
  // Validate the stats column list once, up front.
  RETURN_NOT_OK(FileStatsCollector::Make(w->data_fields_, data_types, mapped, w->props_.num_indexed_cols,
                                         w->props_.stats_columns)
                    .status());
  return w;
}

DataFileWriter::~DataFileWriter() {
  for (auto& [dir, f] : open_) {
    if (!f->writer) continue;
    f->writer.reset();  // closes the partly written file
    (void)fs_->Delete(io::JoinPath(root_, f->rel_path));
  }
  open_.clear();  // sorters delete their spilled runs
  for (const delta::AddFile& a : adds_) {
    auto path = delta::ResolveTablePath(root_, a.path);
    if (path.ok()) (void)fs_->Delete(*path);
  }
}

Status DataFileWriter::ResolveLocalSort(parquet::WriterProperties::Builder* b) {
  if (options_.local_sort) {
    b->max_row_group_rows(std::min(options_.max_row_group_rows, options_.sorted_max_row_group_rows));
    return Status::OK();
  }
  TableProperties p = props_;
  if (options_.local_sort_columns) p.local_sort_columns = *options_.local_sort_columns;
  sort_mode_ = options_.local_sort_mode.value_or(props_.local_sort_mode);
  sort_scope_ = options_.local_sort_scope.value_or(props_.local_sort_scope);
  sort_memory_limit_ = options_.local_sort_memory_limit.value_or(props_.local_sort_memory_limit);
  if (sort_memory_limit_ <= 0) return Status::InvalidArgument("local sort memory limit must be positive");
  if (!options_.local_sort_columns && p.local_sort_columns.empty() && props_.local_sort_auto) {
    // shoal.localSort.auto: the advisor's persisted key (doc/local_sort.md "Automatic choice").
    SortKey k = EffectiveSortKey(props_, ReadLayoutChoice(*fs_, root_), schema_);
    p.local_sort_columns = k.columns;
    if (!options_.local_sort_mode) sort_mode_ = k.mode;
  }
  RETURN_NOT_OK(ValidateLocalSortColumns(p, schema_));
  if (!p.local_sort_columns.empty()) {
    b->max_row_group_rows(std::min(options_.max_row_group_rows, options_.sorted_max_row_group_rows));
    // Lets OPTIMIZE tell files sorted by the current key from others (z-order has no
    // sorting_columns).
    b->key_value(std::string(kLocalSortKeyMetadata), SortKey{sort_mode_, p.local_sort_columns}.ToString());
  }
  for (const std::string& name : p.local_sort_columns) {
    int i = schema_.Find(name);
    auto it = std::find(data_columns_.begin(), data_columns_.end(), i);
    if (it == data_columns_.end()) continue;  // a partition column: constant within a file
    int k = static_cast<int>(it - data_columns_.begin());
    sort_columns_.push_back(SortColumn{k, false, true});
    if (sort_mode_ == LocalSortMode::kLexicographic) {
      b->sorting_column(physical_schema_.fields[static_cast<size_t>(k)].name, false, true);
    }
  }
  return Status::OK();
}

// One budget across the open streams (partitions): while they hold more, the largest buffer is
// spilled (write scope) or written out as its files (file scope). A run being written in the
// background counts until it is written; when only such runs are left over the budget, they are
// waited for.
Status DataFileWriter::EnforceSortBudget() {
  while (true) {
    int64_t total = 0;
    const std::string* largest_dir = nullptr;
    ExternalSorter* largest = nullptr;
    for (auto& [dir, f] : open_) {
      if (!f->sorter) continue;
      total += f->sorter->buffered_bytes();
      if (f->sorter->buffered_rows() > 0 && (!largest || f->sorter->buffer_bytes() > largest->buffer_bytes())) {
        largest = f->sorter.get();
        largest_dir = &dir;
      }
    }
    sort_peak_ = std::max(sort_peak_, total);
    if (total <= sort_memory_limit_) return Status::OK();
    if (!largest) {
      for (auto& [dir, f] : open_) {
        if (f->sorter) RETURN_NOT_OK(f->sorter->WaitForSpill());
      }
      return Status::OK();
    }
    if (sort_scope_ == LocalSortScope::kFile) {
      RETURN_NOT_OK(FlushSorted(std::string(*largest_dir)));
    } else {
      RETURN_NOT_OK(largest->Spill());
    }
  }
}

Status DataFileWriter::CheckNotNull(const RecordBatch& batch) const {
  for (size_t i = 0; i < schema_.size(); ++i) {
    RETURN_NOT_OK(CheckNotNullField(*batch.column(i), schema_.fields[i], schema_.fields[i].name, nullptr,
                                    batch.num_rows));
  }
  return Status::OK();
}

Status DataFileWriter::Write(const RecordBatch& batch) {
  if (batch.num_columns() != schema_.size()) {
    return Status::InvalidArgument("batch has " + std::to_string(batch.num_columns()) + " columns, table " + root_ +
                                   " has " + std::to_string(schema_.size()));
  }
  for (size_t i = 0; i < schema_.size(); ++i) {
    if (!batch.column(i)->type()->Equals(*schema_.fields[i].type)) {
      return Status::InvalidArgument("column " + schema_.fields[i].name + " has type " +
                                     batch.column(i)->type()->ToString() + ", the table expects " +
                                     schema_.fields[i].type->ToString());
    }
  }
  if (batch.num_rows == 0) return Status::OK();
  RETURN_NOT_OK(CheckNotNull(batch));
  if (options_.check) RETURN_NOT_OK(options_.check(batch));

  auto data_schema = std::make_shared<columnar::Schema>();
  std::vector<VectorPtr> data_cols;
  for (int i : data_columns_) {
    data_schema->fields.push_back(schema_.fields[i]);
    data_cols.push_back(batch.column(i));
  }
  RecordBatch data(data_schema, std::move(data_cols), batch.num_rows);
  if (partition_columns_.empty()) return WriteToPartition("", {}, data);

  // Group rows by partition directory (first-seen order).
  std::map<std::string, std::pair<delta::PartitionValues, std::vector<uint32_t>>> groups;
  std::vector<std::string> order;
  std::string dir;
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    dir.clear();
    delta::PartitionValues values;
    for (size_t k = 0; k < partition_columns_.size(); ++k) {
      int pc = partition_columns_[k];
      ASSIGN_OR_RETURN(auto value, SerializePartitionValue(*batch.column(pc), r));
      if (!dir.empty()) dir.push_back('/');
      dir += PartitionDirectory(partition_keys_[k], value);
      values[partition_keys_[k]] = std::move(value);
    }
    auto it = groups.find(dir);
    if (it == groups.end()) {
      order.push_back(dir);
      it = groups.emplace(dir, std::make_pair(std::move(values), std::vector<uint32_t>())).first;
    }
    it->second.second.push_back(static_cast<uint32_t>(r));
  }
  for (const auto& d : order) {
    auto& [values, rows] = groups[d];
    if (rows.size() == static_cast<size_t>(batch.num_rows)) {
      RETURN_NOT_OK(WriteToPartition(d, values, data));
    } else {
      auto part = columnar::GatherBatch(data, rows.data(), static_cast<int64_t>(rows.size()));
      RETURN_NOT_OK(WriteToPartition(d, values, *part));
    }
  }
  return Status::OK();
}

Result<std::unique_ptr<DataFileWriter::OpenFile>> DataFileWriter::OpenNew(const std::string& dir,
                                                                          const delta::PartitionValues& values) {
  auto f = std::make_unique<OpenFile>();
  f->dir = dir;
  f->values = values;
  if (!options_.local_sort && !sort_columns_.empty()) {
    auto data_schema = std::make_shared<columnar::Schema>();
    for (int i : data_columns_) data_schema->fields.push_back(schema_.fields[i]);
    ExternalSorterOptions so;
    so.columns = sort_columns_;
    so.mode = sort_mode_;
    // File scope: this writer writes the buffer out before it reaches the budget; the sorter's
    // own limit is only a backstop (the buffers' spare capacity may overshoot the estimate).
    so.memory_limit = sort_scope_ == LocalSortScope::kFile ? 2 * sort_memory_limit_ : sort_memory_limit_;
    so.spill_dir = io::JoinPath(root_, "_shoal/tmp");
    so.spill_lane = spill_lane_;  // one run written in the background at a time
    ASSIGN_OR_RETURN(f->sorter, ExternalSorter::Make(fs_, std::move(data_schema), std::move(so)));
    return f;  // its files are started as the sorted rows come out (FlushSorted)
  }
  RETURN_NOT_OK(StartFile(f.get(), /*open_writer=*/!options_.local_sort));
  return f;
}

Status DataFileWriter::StartFile(OpenFile* f, bool open_writer) {
  char prefix[32];
  std::snprintf(prefix, sizeof(prefix), "part-%05d-", file_counter_++);
  std::string name = prefix + RandomUuid() + ".c000" + CodecExtension(options_.codec) + ".parquet";
  f->rel_path = f->dir.empty() ? name : f->dir + "/" + name;
  std::string full = io::JoinPath(root_, f->rel_path);
  RETURN_NOT_OK(fs_->CreateDirs(io::DirName(full)));
  ASSIGN_OR_RETURN(auto stats, MakeStatsCollector());
  f->stats.emplace(std::move(stats));
  f->est_bytes = 0;
  if (open_writer) {
    ASSIGN_OR_RETURN(f->writer, parquet::ParquetWriter::Open(fs_, full, physical_schema_, writer_props_));
  }
  return Status::OK();
}

Result<FileStatsCollector> DataFileWriter::MakeStatsCollector() const {
  std::vector<TypePtr> data_types;
  for (int i : data_columns_) data_types.push_back(schema_.fields[i].type);
  return FileStatsCollector::Make(data_fields_, data_types, props_.column_mapping != ColumnMapping::kNone,
                                  props_.num_indexed_cols, props_.stats_columns);
}

Result<DataFileWriter::OpenMap::iterator> DataFileWriter::OpenFor(const std::string& dir,
                                                                  const delta::PartitionValues& values) {
  auto it = open_.find(dir);
  if (it != open_.end()) return it;
  ASSIGN_OR_RETURN(auto f, OpenNew(dir, values));
  return open_.emplace(dir, std::move(f)).first;
}

Status DataFileWriter::WriteToPartition(const std::string& dir, const delta::PartitionValues& values,
                                        const RecordBatch& data) {
  if (!options_.local_sort && !sort_columns_.empty()) return WriteSorted(dir, values, data);
  int64_t total = RawBytes(data);
  int64_t pos = 0;
  while (pos < data.num_rows) {
    ASSIGN_OR_RETURN(auto it, OpenFor(dir, values));
    OpenFile* f = it->second.get();
    // Rows that fit the file's remaining budget, estimated from the batch's average row size.
    int64_t remaining_rows = data.num_rows - pos;
    int64_t per_row = std::max<int64_t>(1, total / std::max<int64_t>(1, data.num_rows));
    const int64_t target = RawTarget();
    int64_t fit = std::max<int64_t>(1, (target - f->est_bytes) / per_row);
    int64_t take = std::min(remaining_rows, fit);
    if (pos == 0 && take == data.num_rows) {
      RETURN_NOT_OK(WriteRows(f, data));
    } else {
      auto slice = columnar::SliceBatch(data, pos, take);
      RETURN_NOT_OK(WriteRows(f, *slice));
    }
    f->est_bytes += take * per_row;
    pos += take;
    if (f->est_bytes >= target) {
      RETURN_NOT_OK(CloseFile(f));
      open_.erase(it);
    }
  }
  return Status::OK();
}

// A partition's rows go into its sorted stream, whose output is cut into files by their size on
// disk (FlushSorted). File scope: a stream takes at most the sort memory's worth of rows
// (counted as the sorter counts them); when it cannot take more it is written out and the rows
// start the next stream, so nothing spills. Write scope: the stream takes every row, spilling
// beyond the budget, and ends before its runs would need a second merge pass.
Status DataFileWriter::WriteSorted(const std::string& dir, const delta::PartitionValues& values,
                                   const RecordBatch& data) {
  int64_t pos = 0;
  while (pos < data.num_rows) {
    ASSIGN_OR_RETURN(auto it, OpenFor(dir, values));
    OpenFile* f = it->second.get();
    int64_t take = data.num_rows - pos;
    if (sort_scope_ == LocalSortScope::kFile) {
      const int64_t per_row = std::max<int64_t>(1, f->sorter->BytesToAdd(data) / data.num_rows);
      const int64_t room = (sort_memory_limit_ - f->sorter->buffered_bytes()) / per_row;
      if (room < take && f->sorter->buffered_rows() > 0) {
        RETURN_NOT_OK(FlushSorted(dir));
        continue;
      }
      take = std::min(take, std::max<int64_t>(room, 1));
    }
    if (pos == 0 && take == data.num_rows) {
      RETURN_NOT_OK(f->sorter->Add(data));
    } else {
      RETURN_NOT_OK(f->sorter->Add(*columnar::SliceBatch(data, pos, take)));
    }
    pos += take;
    RETURN_NOT_OK(EnforceSortBudget());  // may write out (file scope) or spill any stream
    auto now = open_.find(dir);
    if (sort_scope_ == LocalSortScope::kWrite && now != open_.end() &&
        now->second->sorter->runs_pending() + 1 >= now->second->sorter->max_merge_fan_in()) {
      RETURN_NOT_OK(FlushSorted(dir));
    }
  }
  return Status::OK();
}

// The target file size is for bytes on disk, while a file's rows are counted in memory, where
// they take several times more (Parquet's encodings and compression). Once this writer has closed
// files, their ratio converts the target; before that, and when files come out larger on disk
// than in memory (tiny files, whose footers dominate), the target is used as is. Files of the
// local_sort hook, which holds a whole file in memory, stay within the target in memory. (Files
// of a LocalSort by properties are cut by their real size, see FlushSorted.)
int64_t DataFileWriter::RawTarget() const {
  int64_t target = target_size_;
  if (closed_disk_ > 0 && closed_raw_ > closed_disk_) {
    const double converted = static_cast<double>(target_size_) * static_cast<double>(closed_raw_) /
                             static_cast<double>(closed_disk_);
    target = converted >= 9.0e18 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(converted);
  }
  if (options_.local_sort) target = std::min(target, target_size_);
  return target;
}

Status DataFileWriter::WriteRows(OpenFile* f, const RecordBatch& data) {
  f->stats->Update(data);
  if (options_.local_sort) {
    f->buffered.push_back(std::make_shared<RecordBatch>(data));
    return Status::OK();
  }
  auto phys_schema = std::make_shared<columnar::Schema>(physical_schema_);
  std::vector<VectorPtr> cols;
  for (size_t i = 0; i < data.num_columns(); ++i) cols.push_back(Retype(data.column(i), physical_schema_[i].type));
  return f->writer->WriteBatch(RecordBatch(phys_schema, std::move(cols), data.num_rows));
}

// The sorted stream's rows, in order, into files of about the target size on disk: a file is
// closed once its bytes written (and buffered) reach the target, and the next one started, so
// the files of one stream hold consecutive, disjoint key ranges.
Status DataFileWriter::FlushSorted(const std::string& dir) {
  auto it = open_.find(dir);
  if (it == open_.end()) return Status::OK();
  OpenFile* f = it->second.get();
  auto phys_schema = std::make_shared<columnar::Schema>(physical_schema_);
  // Files are cut at row-group boundaries: a chunk longer than a row group is written a row
  // group at a time.
  const int64_t group_rows = writer_props_.max_row_group_rows();
  // A batch's file stats are collected on the sorter's gathering thread (`prepare`), apart, and
  // merged into its file's here: a batch of at most a row group goes to one file.
  ASSIGN_OR_RETURN(FileStatsCollector empty_stats, MakeStatsCollector());
  std::mutex prepared_mu;
  std::deque<std::optional<FileStatsCollector>> prepared;  // per batch, in order; empty: none
  auto prepare = [&](const RecordBatch& sorted) {
    std::optional<FileStatsCollector> part;
    if (sorted.num_rows <= group_rows) {
      part.emplace(empty_stats);
      part->Update(sorted);
    }
    std::lock_guard<std::mutex> lock(prepared_mu);
    prepared.push_back(std::move(part));
  };
  auto write = [&](const RecordBatch& sorted, const FileStatsCollector* stats) -> Status {
    if (!f->writer) RETURN_NOT_OK(StartFile(f, /*open_writer=*/true));
    if (stats) {
      f->stats->Merge(*stats);
    } else {
      f->stats->Update(sorted);
    }
    std::vector<VectorPtr> pcols;
    for (size_t i = 0; i < sorted.num_columns(); ++i)
      pcols.push_back(Retype(sorted.column(i), physical_schema_[i].type));
    RETURN_NOT_OK(f->writer->WriteBatch(RecordBatch(phys_schema, std::move(pcols), sorted.num_rows)));
    if (f->writer->bytes_written() >= target_size_) RETURN_NOT_OK(CloseFile(f));
    return Status::OK();
  };
  RETURN_NOT_OK(f->sorter->Finish(
      [&](const RecordBatch& sorted) {
        std::optional<FileStatsCollector> part;
        {
          std::lock_guard<std::mutex> lock(prepared_mu);
          if (prepared.empty()) return Status::Internal("local sort: a batch reached the writer unprepared");
          part = std::move(prepared.front());
          prepared.pop_front();
        }
        if (sorted.num_rows <= group_rows) return write(sorted, part ? &*part : nullptr);
        for (int64_t pos = 0; pos < sorted.num_rows; pos += group_rows) {
          RETURN_NOT_OK(
              write(*columnar::SliceBatch(sorted, pos, std::min(group_rows, sorted.num_rows - pos)), nullptr));
        }
        return Status::OK();
      },
      prepare));
  sort_peak_ = std::max(sort_peak_, f->sorter->peak_memory_bytes());
  sort_runs_ += f->sorter->runs_spilled();
  if (f->writer) RETURN_NOT_OK(CloseFile(f));
  open_.erase(it);
  return Status::OK();
}

Status DataFileWriter::CloseFile(OpenFile* f) {
  std::string full = io::JoinPath(root_, f->rel_path);
  if (options_.local_sort) {
    // Concatenate the buffered rows, order them by the sort hook, write them in one go.
    std::vector<VectorPtr> cols;
    int64_t rows = 0;
    for (const auto& b : f->buffered) rows += b->num_rows;
    for (size_t c = 0; c < physical_schema_.size(); ++c) {
      std::vector<VectorPtr> parts;
      for (const auto& b : f->buffered) parts.push_back(b->column(c));
      cols.push_back(columnar::Concat(parts));
    }
    RecordBatch all(f->buffered.front()->schema, std::move(cols), rows);
    f->buffered.clear();
    ASSIGN_OR_RETURN(std::vector<uint32_t> perm, options_.local_sort(all));
    if (perm.size() != static_cast<size_t>(rows)) {
      return Status::Internal("local sort returned " + std::to_string(perm.size()) + " rows for " +
                              std::to_string(rows));
    }
    for (uint32_t p : perm) {
      if (p >= rows) return Status::Internal("local sort returned row " + std::to_string(p) + " out of range");
    }
    auto sorted = columnar::GatherBatch(all, perm.data(), rows);
    ASSIGN_OR_RETURN(f->writer, parquet::ParquetWriter::Open(fs_, full, physical_schema_, writer_props_));
    auto phys_schema = std::make_shared<columnar::Schema>(physical_schema_);
    std::vector<VectorPtr> pcols;
    for (size_t i = 0; i < sorted->num_columns(); ++i) {
      pcols.push_back(Retype(sorted->column(i), physical_schema_[i].type));
    }
    RETURN_NOT_OK(f->writer->WriteBatch(RecordBatch(phys_schema, std::move(pcols), rows)));
  }
  RETURN_NOT_OK(f->writer->Close().status());
  f->writer.reset();
  ASSIGN_OR_RETURN(io::FileInfo info, fs_->Stat(full));
  if (f->est_bytes > 0) {  // files counted by in-memory bytes (not sorted streams' files)
    closed_raw_ += f->est_bytes;
    closed_disk_ += info.size;
  }
  delta::AddFile add;
  add.path = delta::PercentEncodePath(f->rel_path);
  add.partition_values = f->values;
  add.size = info.size;
  add.modification_time = options_.modification_time_ms.value_or(info.mtime_ms);
  add.data_change = options_.data_change;
  add.stats = f->stats->ToJson();
  adds_.push_back(std::move(add));
  return Status::OK();
}

Result<std::vector<delta::AddFile>> DataFileWriter::Finish() {
  while (!open_.empty()) {
    auto it = open_.begin();
    if (it->second->sorter) {
      RETURN_NOT_OK(FlushSorted(it->first));
    } else {
      RETURN_NOT_OK(CloseFile(it->second.get()));
      open_.erase(it);
    }
  }
  std::vector<delta::AddFile> out = std::move(adds_);
  adds_.clear();  // handed out: the destructor leaves these files alone
  return out;
}

}  // namespace shoal::table
