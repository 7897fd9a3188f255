#include "table/optimize.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <limits>
#include <set>
#include <thread>

#include "delta/json_fields.h"
#include "delta/table_path.h"
#include "parquet/file_reader.h"
#include "table/data_file_writer.h"
#include "table/layout_choice.h"
#include "table/live_rows_reader.h"
#include "table/optimize_plan.h"
#include "table/row_id_columns.h"
#include "table/table_properties.h"

namespace shoal::table {

namespace {

constexpr int64_t kWriteChunkRows = 65536;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What one bin became.
struct BinResult {
  std::vector<delta::AddFile> outputs;
  std::vector<int64_t> live_rows;  // per source, in bin order
  int64_t rows = 0;
  Status status;
};

// Shared, read-only inputs of the bin rewrites.
struct RewriteContext {
  std::shared_ptr<io::FileSystem> fs;
  std::string root;
  const delta::Metadata* metadata = nullptr;
  std::shared_ptr<const scan::TableSchema> schema;
  int64_t target_size = 0;
  std::vector<int> zorder_columns;  // table column indices; empty: keep row order
  ZOrderOptions zorder;
  // The table's LocalSort key (explicit or automatic) that compaction outputs are written with;
  // ZORDER outputs are not re-sorted.
  SortKey sort_key;
  std::set<std::string> unsorted;  // paths of files not sorted by sort_key
  // Row tracking: the metadata with the materialized row id columns (what `metadata` and
  // `schema` then describe), so rewrites keep every row's id (table/row_id_columns.h).
  std::shared_ptr<const delta::Metadata> row_id_metadata;
  std::function<void(int64_t done, int64_t planned)> progress;  // OptimizeOptions::progress
};

// The sink's batch with materialized row ids filled in (when the table tracks rows).
Result<columnar::RecordBatch> WithRowIds(const RewriteContext& ctx, std::unique_ptr<RowIdFiller>* filler,
                                         const RewriteBin& bin, size_t file, const columnar::RecordBatch& rows) {
  if (!*filler) {
    ASSIGN_OR_RETURN(*filler, RowIdFiller::Make(ctx.fs, ctx.root, *ctx.row_id_metadata, *ctx.schema, bin.files));
  }
  return (*filler)->Fill(file, rows);
}

Result<std::unique_ptr<DataFileWriter>> OneFileWriter(const RewriteContext& ctx) {
  DataFileWriterOptions opts;
  opts.data_change = false;
  opts.target_file_size = std::numeric_limits<int64_t>::max();  // the bin decides the file size
  if (!ctx.zorder_columns.empty()) {
    opts.local_sort_columns = std::vector<std::string>();  // keep the z-order
  } else {
    opts.local_sort_columns = ctx.sort_key.columns;
    opts.local_sort_mode = ctx.sort_key.mode;
    opts.local_sort_scope = LocalSortScope::kWrite;  // one sorted file per bin, spilling if large
  }
  return DataFileWriter::Make(ctx.fs, ctx.root, *ctx.metadata, opts);
}

// True when a compaction of `bin` keeps every source's rows contiguous and in order: no sort
// key, or one source already sorted lexicographically by it (the stable sort keeps its order).
bool KeepsRowOrder(const RewriteContext& ctx, const RewriteBin& bin) {
  if (!ctx.zorder_columns.empty()) return false;
  if (ctx.sort_key.empty()) return true;
  return bin.files.size() == 1 && ctx.sort_key.mode == LocalSortMode::kLexicographic &&
         !ctx.unsorted.count(bin.files[0].path);
}

// Closes `writer` (when there is one) after a failure and deletes what it wrote.
void DiscardWriter(const RewriteContext& ctx, std::unique_ptr<DataFileWriter> writer) {
  if (!writer) return;
  auto adds = writer->Finish();
  if (!adds.ok()) return;
  for (const delta::AddFile& a : *adds) {
    auto full = delta::ResolveTablePath(ctx.root, a.path);
    if (full.ok()) (void)ctx.fs->Delete(*full);
  }
}

void DeleteOutputs(const RewriteContext& ctx, const std::vector<delta::AddFile>& outputs) {
  for (const delta::AddFile& a : outputs) {
    auto full = delta::ResolveTablePath(ctx.root, a.path);
    if (full.ok()) (void)ctx.fs->Delete(*full);
  }
}

// Bin-packing / PURGE: the bin's live rows, source after source, into one output file.
Status CompactBin(const RewriteContext& ctx, const RewriteBin& bin, BinResult* out) {
  ASSIGN_OR_RETURN(std::unique_ptr<DataFileWriter> writer, OneFileWriter(ctx));
  out->live_rows.assign(bin.files.size(), 0);
  std::unique_ptr<RowIdFiller> filler;
  Status st = ReadLiveRows(ctx.fs, ctx.root, ctx.schema, bin.files,
                           [&](size_t file, const columnar::RecordBatch& rows) -> Status {
                             out->live_rows[file] += rows.num_rows;
                             out->rows += rows.num_rows;
                             if (!ctx.row_id_metadata) return writer->Write(rows);
                             ASSIGN_OR_RETURN(columnar::RecordBatch filled, WithRowIds(ctx, &filler, bin, file, rows));
                             return writer->Write(filled);
                           });
  if (!st.ok()) {
    DiscardWriter(ctx, std::move(writer));
    return st;
  }
  ASSIGN_OR_RETURN(out->outputs, writer->Finish());
  if (out->outputs.size() > 1) {
    DeleteOutputs(ctx, out->outputs);
    return Status::Internal("compaction of one bin wrote " + std::to_string(out->outputs.size()) + " files");
  }
  return Status::OK();
}

// ZORDER: all rows of the bin, sorted by z-value, split evenly into ceil(input bytes / target)
// files.
Status ZOrderBin(const RewriteContext& ctx, const RewriteBin& bin, BinResult* out) {
  size_t ncols = ctx.schema->columns.size();
  std::vector<std::vector<columnar::VectorPtr>> parts(ncols);
  columnar::SchemaPtr batch_schema;
  std::unique_ptr<RowIdFiller> filler;
  RETURN_NOT_OK(ReadLiveRows(ctx.fs, ctx.root, ctx.schema, bin.files,
                             [&](size_t file, const columnar::RecordBatch& in) -> Status {
                               columnar::RecordBatch rows = in;
                               if (ctx.row_id_metadata) {
                                 ASSIGN_OR_RETURN(rows, WithRowIds(ctx, &filler, bin, file, in));
                               }
                               if (!batch_schema) batch_schema = rows.schema;
                               for (size_t c = 0; c < ncols; ++c) parts[c].push_back(rows.column(c));
                               out->rows += rows.num_rows;
                               return Status::OK();
                             }));
  if (out->rows == 0) return Status::OK();
  std::vector<columnar::VectorPtr> cols(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    cols[c] = parts[c].size() == 1 ? parts[c][0] : columnar::Concat(parts[c]);
    parts[c].clear();
  }
  columnar::RecordBatch all(batch_schema, cols, out->rows);
  std::vector<const columnar::Vector*> keys;
  for (int c : ctx.zorder_columns) keys.push_back(cols[static_cast<size_t>(c)].get());
  ASSIGN_OR_RETURN(std::vector<uint32_t> perm, ZOrderPermutation(keys, ctx.zorder));
  int64_t files = (bin.total_size + ctx.target_size - 1) / std::max<int64_t>(1, ctx.target_size);
  files = std::clamp<int64_t>(files, 1, out->rows);
  for (int64_t k = 0; k < files; ++k) {
    int64_t begin = out->rows * k / files;
    int64_t end = out->rows * (k + 1) / files;
    auto writer = OneFileWriter(ctx);
    if (!writer.ok()) {
      DeleteOutputs(ctx, out->outputs);
      return writer.status();
    }
    Status st;
    for (int64_t pos = begin; pos < end && st.ok(); pos += kWriteChunkRows) {
      int64_t n = std::min(kWriteChunkRows, end - pos);
      auto chunk = columnar::GatherBatch(all, perm.data() + pos, n);
      st = (*writer)->Write(*chunk);
    }
    if (!st.ok()) {
      DiscardWriter(ctx, std::move(*writer));
      DeleteOutputs(ctx, out->outputs);
      return st;
    }
    auto adds = (*writer)->Finish();
    if (!adds.ok()) {
      DeleteOutputs(ctx, out->outputs);
      return adds.status();
    }
    for (auto& a : *adds) out->outputs.push_back(std::move(a));
  }
  return Status::OK();
}

// Rewrites every bin on `threads` workers; on failure deletes all outputs and returns the
// first error (in bin order).
Result<std::vector<BinResult>> RewriteBins(const RewriteContext& ctx, const std::vector<RewriteBin>& bins,
                                           int threads) {
  std::vector<BinResult> results(bins.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::atomic<int64_t> rewritten{0};
  const int64_t planned = static_cast<int64_t>(bins.size());
  if (ctx.progress) ctx.progress(0, planned);
  auto work = [&] {
    while (!failed.load()) {
      size_t i = next.fetch_add(1);
      if (i >= bins.size()) return;
      BinResult& r = results[i];
      r.status = ctx.zorder_columns.empty() ? CompactBin(ctx, bins[i], &r) : ZOrderBin(ctx, bins[i], &r);
      if (!r.status.ok()) failed = true;
      const int64_t done = rewritten.fetch_add(1) + 1;
      if (ctx.progress) ctx.progress(done, planned);
    }
  };
  int workers = std::clamp<int>(threads, 1, static_cast<int>(std::max<size_t>(1, bins.size())));
  if (workers == 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < workers; ++t) pool.emplace_back(work);
    for (auto& t : pool) t.join();
  }
  if (failed) {
    Status first;
    for (BinResult& r : results) {
      if (!r.status.ok() && first.ok()) first = r.status;
      DeleteOutputs(ctx, r.outputs);
    }
    return first;
  }
  return results;
}

int ThreadCount(int requested) {
  if (requested > 0) return requested;
  unsigned hw = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp<unsigned>(hw, 1, 8));
}

void AddSourceMetrics(const RewritePlan& plan, OptimizeMetrics* m) {
  for (const RewriteBin& bin : plan.bins) {
    for (const delta::AddFile& f : bin.files) {
      m->files_removed.Add(f.size);
      if (f.deletion_vector && f.deletion_vector->cardinality > 0) {
        ++m->num_deletion_vectors_removed;
        m->num_deletion_vector_rows_removed += f.deletion_vector->cardinality;
      }
    }
  }
  m->num_files_removed = m->files_removed.total_files;
  m->partitions_optimized = plan.partitions;
  m->num_batches = plan.bins.empty() ? 0 : 1;
  m->total_considered_files = plan.files_considered;
  m->total_files_skipped = plan.files_skipped;
}

// Rewrites the plan's bins and stages them: compactions through AddCompactedFile (order
// preserved), ZORDER as plain removes and adds.
Result<OptimizeResult> Execute(const RewriteContext& ctx, const RewritePlan& plan, int threads,
                               txn::Transaction* txn, int64_t start_ms) {
  OptimizeResult result;
  OptimizeMetrics& m = result.metrics;
  m.start_time_ms = start_ms;
  m.zorder = !ctx.zorder_columns.empty();
  AddSourceMetrics(plan, &m);
  ASSIGN_OR_RETURN(std::vector<BinResult> done, RewriteBins(ctx, plan.bins, threads));
  if (!plan.bins.empty()) txn->SetDataChange(false);
  Status st;
  for (size_t i = 0; i < plan.bins.size() && st.ok(); ++i) {
    const RewriteBin& bin = plan.bins[i];
    BinResult& r = done[i];
    m.num_rows += r.rows;
    if (KeepsRowOrder(ctx, bin) && r.outputs.size() == 1) {
      st = txn->AddCompactedFile(r.outputs[0], bin.files, r.live_rows);
    } else {
      for (const delta::AddFile& f : bin.files) {
        if (!st.ok()) break;
        st = txn->RemoveFile(f);
      }
      for (const delta::AddFile& a : r.outputs) txn->AddFile(a);
    }
    for (const delta::AddFile& a : r.outputs) {
      m.files_added.Add(a.size);
      result.added.push_back(a);
    }
  }
  if (!st.ok()) {
    for (const BinResult& r : done) DeleteOutputs(ctx, r.outputs);
    return st;
  }
  m.num_files_added = m.files_added.total_files;
  m.end_time_ms = NowMs();
  return result;
}

Result<RewriteContext> MakeContext(const scan::DeltaTable& table, txn::Transaction* txn,
                                   const OptimizeOptions& options) {
  RewriteContext ctx;
  ctx.progress = options.progress;
  ctx.fs = txn->fs();
  ctx.root = table.snapshot()->table_root();
  ctx.metadata = &table.snapshot()->metadata();
  ctx.schema = table.schema();
  ASSIGN_OR_RETURN(auto with_ids, txn::MetadataWithRowIdColumns(table.snapshot()->protocol(), *ctx.metadata));
  if (with_ids) {
    ASSIGN_OR_RETURN(scan::TableSchema schema, scan::BuildTableSchema(*with_ids));
    ctx.row_id_metadata = std::make_shared<const delta::Metadata>(std::move(*with_ids));
    ctx.metadata = ctx.row_id_metadata.get();
    ctx.schema = std::make_shared<const scan::TableSchema>(std::move(schema));
  }
  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(ctx.metadata->configuration));
  ctx.target_size = options.target_file_size.value_or(props.target_file_size);
  if (ctx.target_size <= 0) return Status::InvalidArgument("target file size must be positive");
  ctx.zorder = options.zorder;
  if (props.local_sort_auto && props.local_sort_columns.empty()) {
    // OPTIMIZE is where the advisor's key is re-evaluated and applied to old files.
    auto key = RefreshAutoLayout(ctx.fs, *table.snapshot(), *ctx.schema);
    if (key.ok()) ctx.sort_key = *key;
  }
  if (ctx.sort_key.empty()) {
    ctx.sort_key = EffectiveSortKey(props, ReadLayoutChoice(*ctx.fs, ctx.root), ctx.schema->schema);
  }
  return ctx;
}

std::string LowerText(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Paths of the `files` whose data is not sorted by ctx.sort_key (FileSortedBy).
Status FindUnsortedFiles(const RewriteContext& ctx, const std::vector<delta::AddFile>& files,
                         std::set<std::string>* out) {
  for (const delta::AddFile& f : files) {
    ASSIGN_OR_RETURN(std::string full, delta::ResolveTablePath(ctx.root, f.path));
    ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(ctx.fs, full));
    if (!FileSortedBy(reader->metadata(), *ctx.schema, ctx.sort_key)) out->insert(f.path);
  }
  return Status::OK();
}

Status ResolveZOrderColumns(const scan::TableSchema& schema, const std::vector<std::string>& names,
                            std::vector<int>* out) {
  for (const std::string& name : names) {
    int c = schema.Find(name);
    if (c < 0) return Status::InvalidArgument("Z-Ordering column " + name + " does not exist in data schema.");
    const scan::TableColumn& col = schema.columns[static_cast<size_t>(c)];
    if (col.is_partition) {
      return Status::InvalidArgument(col.name + " is a partition column. Z-Ordering can only be performed on data columns");
    }
    if (!ZOrderSupportsType(*col.type)) {
      return Status::InvalidArgument("Z-Ordering column " + col.name + " has type " + col.type->ToString() +
                                     ", which cannot be Z-ordered");
    }
    if (std::find(out->begin(), out->end(), c) != out->end()) {
      return Status::InvalidArgument("Z-Ordering column " + col.name + " is listed twice");
    }
    out->push_back(c);
  }
  return Status::OK();
}

delta::Json SizeJson(const FileSizeMetrics& s) {
  delta::Json j = delta::Json::object();
  j["min"] = s.min;
  j["max"] = s.max;
  j["avg"] = s.avg();
  j["totalFiles"] = s.total_files;
  j["totalSize"] = s.total_size;
  return j;
}

std::string JsonList(const std::vector<std::string>& items) {
  delta::Json a = delta::Json::array();
  for (const auto& s : items) a.push_back(s);
  return delta::JsonText(a);
}

}  // namespace

bool FileSortedBy(const parquet::FileMetaData& footer, const scan::TableSchema& schema, const SortKey& key) {
  if (key.empty()) return true;
  if (footer.row_groups.empty()) return true;  // no rows: nothing to order
  for (const parquet::KeyValue& kv : footer.key_value_metadata) {
    if (kv.key == kLocalSortKeyMetadata && kv.value && LowerText(*kv.value) == LowerText(key.ToString())) return true;
  }
  if (key.mode != LocalSortMode::kLexicographic) return false;
  // The leaf index of each data column of the key, from the first row group's column paths.
  std::vector<int32_t> leaves;
  const parquet::RowGroup& rg0 = footer.row_groups[0];
  for (const std::string& name : key.columns) {
    int c = schema.Find(name);
    if (c < 0) return false;
    const scan::TableColumn& col = schema.columns[static_cast<size_t>(c)];
    if (col.is_partition) continue;
    int32_t leaf = -1;
    for (size_t i = 0; i < rg0.columns.size(); ++i) {
      const auto& md = rg0.columns[i].meta_data;
      if (md && md->path_in_schema.size() == 1 && md->path_in_schema[0] == col.physical_name) {
        leaf = static_cast<int32_t>(i);
      }
    }
    if (leaf < 0) return false;
    leaves.push_back(leaf);
  }
  for (const parquet::RowGroup& rg : footer.row_groups) {
    if (rg.sorting_columns.size() != leaves.size()) return false;
    for (size_t i = 0; i < leaves.size(); ++i) {
      const parquet::SortingColumn& sc = rg.sorting_columns[i];
      if (sc.column_idx != leaves[i] || sc.descending || !sc.nulls_first) return false;
    }
  }
  return true;
}

void FileSizeMetrics::Add(int64_t size) {
  min = total_files == 0 ? size : std::min(min, size);
  max = total_files == 0 ? size : std::max(max, size);
  ++total_files;
  total_size += size;
}

std::string OptimizeMetrics::ToJson() const {
  delta::Json j = delta::Json::object();
  j["numFilesAdded"] = num_files_added;
  j["numFilesRemoved"] = num_files_removed;
  j["filesAdded"] = SizeJson(files_added);
  j["filesRemoved"] = SizeJson(files_removed);
  j["partitionsOptimized"] = partitions_optimized;
  if (zorder) {
    // Delta's "all" strategy: every file of the selected partitions is one merged input.
    delta::Json z = delta::Json::object();
    z["strategyName"] = "all";
    z["inputCubeFiles"] = {{"num", 0}, {"size", 0}};
    z["inputOtherFiles"] = {{"num", files_removed.total_files}, {"size", files_removed.total_size}};
    z["inputNumCubes"] = 0;
    z["mergedFiles"] = {{"num", files_removed.total_files}, {"size", files_removed.total_size}};
    z["numOutputCubes"] = num_files_added;
    j["zOrderStats"] = std::move(z);
  } else {
    j["zOrderStats"] = nullptr;
  }
  j["numBatches"] = num_batches;
  j["totalConsideredFiles"] = total_considered_files;
  j["totalFilesSkipped"] = total_files_skipped;
  j["preserveInsertionOrder"] = !zorder;
  j["numFilesSkippedToReduceWriteAmplification"] = 0;
  j["numBytesSkippedToReduceWriteAmplification"] = 0;
  j["startTimeMs"] = start_time_ms;
  j["endTimeMs"] = end_time_ms;
  j["deletionVectorStats"] = {{"numDeletionVectorsRemoved", num_deletion_vectors_removed},
                              {"numDeletionVectorRowsRemoved", num_deletion_vector_rows_removed}};
  return delta::JsonText(j);
}

Result<OptimizeResult> OptimizeTable(const scan::DeltaTable& table, txn::Transaction* txn,
                                     const OptimizeOptions& options) {
  int64_t start = NowMs();
  ASSIGN_OR_RETURN(RewriteContext ctx, MakeContext(table, txn, options));
  RETURN_NOT_OK(ResolveZOrderColumns(*ctx.schema, options.zorder_by, &ctx.zorder_columns));
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> files,
                   SelectPartitions(table.snapshot()->files(), *ctx.schema, options.partition_filter));
  RewritePlan plan;
  if (ctx.zorder_columns.empty()) {
    BinPackingOptions bp;
    bp.max_bin_size = ctx.target_size;
    bp.min_file_size = options.min_file_size;
    bp.max_deleted_rows_ratio = options.max_deleted_rows_ratio;
    if (!ctx.sort_key.empty()) {
      RETURN_NOT_OK(FindUnsortedFiles(ctx, files, &ctx.unsorted));
      bp.needs_resort = [&ctx](const delta::AddFile& f) { return ctx.unsorted.count(f.path) > 0; };
    }
    plan = PlanBinPacking(files, bp);
  } else {
    plan = PlanZOrder(files);
  }
  return Execute(ctx, plan, ThreadCount(options.threads), txn, start);
}

Result<OptimizeResult> PurgeDeletionVectors(const scan::DeltaTable& table, txn::Transaction* txn,
                                            const OptimizeOptions& options) {
  int64_t start = NowMs();
  ASSIGN_OR_RETURN(RewriteContext ctx, MakeContext(table, txn, options));
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> files,
                   SelectPartitions(table.snapshot()->files(), *ctx.schema, options.partition_filter));
  RewritePlan plan = PlanPurge(files);
  if (ctx.sort_key.mode == LocalSortMode::kLexicographic && !ctx.sort_key.empty()) {
    std::vector<delta::AddFile> sources;
    for (const RewriteBin& b : plan.bins) sources.insert(sources.end(), b.files.begin(), b.files.end());
    RETURN_NOT_OK(FindUnsortedFiles(ctx, sources, &ctx.unsorted));
  }
  return Execute(ctx, plan, ThreadCount(options.threads), txn, start);
}

delta::Json OptimizeOperationParameters(const std::vector<std::string>& predicates,
                                        const std::vector<std::string>& zorder_by) {
  delta::Json j = delta::Json::object();
  j["predicate"] = JsonList(predicates);
  j["zOrderBy"] = JsonList(zorder_by);
  return j;
}

delta::Json ReorgOperationParameters(const std::vector<std::string>& predicates) {
  delta::Json j = delta::Json::object();
  j["predicate"] = JsonList(predicates);
  j["applyPurge"] = "true";
  return j;
}

}  // namespace shoal::table
