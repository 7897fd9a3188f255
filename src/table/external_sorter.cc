#include "table/external_sorter.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "table/uuid.h"

namespace shoal::table {

using columnar::BatchPtr;
using columnar::RecordBatch;
using columnar::Vector;
using columnar::VectorPtr;

namespace {

// Bytes a vector holds (allocated capacity, children included).
int64_t HeldBytes(const Vector& v) {
  int64_t n = static_cast<int64_t>(v.values().capacity() + v.bytes().capacity() + v.validity().capacity());
  for (const auto& c : v.children()) n += HeldBytes(*c);
  return n;
}

// Bytes a vector's rows occupy.
int64_t UsedBytes(const Vector& v) {
  int64_t n = static_cast<int64_t>(v.values().size() + v.bytes().size() + v.validity().size());
  for (const auto& c : v.children()) n += UsedBytes(*c);
  return n;
}

int64_t UsedBytes(const RecordBatch& b) {
  int64_t n = 0;
  for (const auto& c : b.columns) n += UsedBytes(*c);
  return n;
}

int64_t HeldBytes(const RecordBatch& b) {
  int64_t n = 0;
  for (const auto& c : b.columns) n += HeldBytes(*c);
  return n;
}

// Spill files favour speed: LZ4, no dictionary, no statistics; the page index stays on so a
// run is read back page by page.
parquet::WriterProperties SpillProperties(int64_t memory_limit) {
  return parquet::WriterProperties::Builder()
      .compression(parquet::CompressionCodec::kLz4Raw)
      .dictionary(false)
      .statistics(false)
      .page_crc(false)
      .max_row_group_bytes(std::max<int64_t>(memory_limit / 16, 16 << 10))
      .data_page_bytes(std::max<int64_t>(std::min<int64_t>(memory_limit / 64, 128 << 10), 4 << 10))
      .Build();
}

// Rows `perm[0..n)` of one flat column into a new vector: one typed pass per column, no
// per-value calls; strings of up to 16 bytes are copied as two fixed 8-byte words.
columnar::VectorPtr GatherFlat(const Vector& v, const uint32_t* perm, int64_t n) {
  auto out = std::make_shared<Vector>(v.type());
  if (v.MayHaveNulls()) {
    std::vector<uint8_t>& val = out->validity();
    val.resize(static_cast<size_t>(n));
    const uint8_t* src = v.validity().data();
    for (int64_t i = 0; i < n; ++i) val[i] = src[perm[i]];
  }
  if (v.type()->IsStringLike()) {
    const int64_t* so = v.offsets();
    const uint8_t* sb = v.bytes().data();
    const int64_t src_size = static_cast<int64_t>(v.bytes().size());
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) total += so[perm[i] + 1] - so[perm[i]];
    out->values().Resize(sizeof(int64_t) * static_cast<size_t>(n + 1));
    out->bytes().Resize(static_cast<size_t>(total) + 16);
    int64_t* dof = out->offsets();
    uint8_t* db = out->bytes().data();
    int64_t pos = 0;
    dof[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t from = so[perm[i]];
      const int64_t len = so[perm[i] + 1] - from;
      if (len <= 16 && from + 16 <= src_size) {
        std::memcpy(db + pos, sb + from, 16);  // the slack past `total` absorbs the overrun
      } else if (len > 0) {
        std::memcpy(db + pos, sb + from, static_cast<size_t>(len));
      }
      pos += len;
      dof[i + 1] = pos;
    }
    out->bytes().Resize(static_cast<size_t>(total));
  } else {
    const int w = v.type()->SlotWidth();
    out->values().Resize(static_cast<size_t>(n) * static_cast<size_t>(w));
    auto copy = [&](auto tag) {
      using T = decltype(tag);
      const T* src = v.data<T>();
      T* dst = out->data<T>();
      for (int64_t i = 0; i < n; ++i) dst[i] = src[perm[i]];
    };
    ForSlotWidth(w, copy);
  }
  out->SetLength(n);
  return out;
}

// Rows `perm[0..n)` of `b`, column by column (nested columns through columnar::Gather).
BatchPtr GatherRows(const RecordBatch& b, const uint32_t* perm, int64_t n) {
  auto out = std::make_shared<RecordBatch>();
  out->schema = b.schema;
  out->num_rows = n;
  for (const auto& c : b.columns) {
    const columnar::DataType& t = *c->type();
    bool flat = !t.IsNested() && t.id() != columnar::TypeId::kNull;
    out->columns.push_back(flat ? GatherFlat(*c, perm, n) : columnar::Gather(*c, perm, n));
  }
  return out;
}

// Reuses `*slot` when nothing else holds it (the previous batch was consumed), else a new vector.
Vector* OutputVector(VectorPtr* slot, const columnar::TypePtr& type) {
  if (!*slot || slot->use_count() != 1) *slot = std::make_shared<Vector>(type);
  (*slot)->validity().clear();
  return slot->get();
}

bool IsFlat(const columnar::DataType& t) { return !t.IsNested() && t.id() != columnar::TypeId::kNull; }

}  // namespace

// A sorted stream of rows with their keys, consumed chunk by chunk by the merge.
class ExternalSorter::Source {
 public:
  virtual ~Source() = default;
  // Up to max_rows next rows; nullptr at the end.
  virtual Result<BatchPtr> Next(int64_t max_rows) = 0;
};

// A sorted buffer: the kept batches and the sorted order, either as segment codes (flat
// schemas) or as row indices into the one batch (schemas with nested columns).
struct ExternalSorter::SortedBuffer {
  columnar::SchemaPtr schema;
  std::vector<BatchPtr> batches;        // keeps the rows alive
  BatchPtr single;                      // set: perm holds row indices into it
  std::vector<SegmentColumn> columns;   // coded: per column, the segments' pointers
  std::vector<uint32_t> perm;           // the sorted order, unless merged lazily:
  std::shared_ptr<RunMerger> merger;    // set: the batch runs give the order chunk by chunk
  int64_t held = 0;                     // bytes of the batches and the permutation or runs

  int64_t rows() const { return merger ? merger->rows() : static_cast<int64_t>(perm.size()); }

  // Sorted rows [pos, pos+n) as a batch; with `reuse`, into the vectors it holds when free.
  BatchPtr Gather(int64_t pos, int64_t n, std::vector<VectorPtr>* reuse) const {
    if (single) return GatherRows(*single, perm.data() + pos, n);
    auto out = std::make_shared<RecordBatch>();
    out->schema = schema;
    out->num_rows = n;
    if (reuse) reuse->resize(columns.size());
    // Chunks are asked for in order, one at a time, so the merger continues where it stopped.
    std::vector<uint32_t> merged;
    if (merger) merger->Next(n, &merged);
    const uint32_t* codes = merger ? merged.data() : perm.data() + pos;
    for (size_t c = 0; c < columns.size(); ++c) {
      const columnar::TypePtr& t = schema->fields[c].type;
      VectorPtr fresh;
      VectorPtr* slot = reuse ? &(*reuse)[c] : &fresh;
      Vector* v = OutputVector(slot, t);
      GatherCoded(columns[c], *t, codes, n, v);
      out->columns.push_back(*slot);
    }
    return out;
  }
};

// The last buffer as one source of a merge, sorted in memory: gathers chunks by the permutation
// into fresh vectors (the merge keeps chunks while it takes rows from them).
class ExternalSorter::MemorySource : public ExternalSorter::Source {
 public:
  explicit MemorySource(SortedBuffer b) : b_(std::move(b)) {}
  Result<BatchPtr> Next(int64_t max_rows) override {
    int64_t n = std::min<int64_t>(max_rows, b_.rows() - pos_);
    if (n <= 0) return BatchPtr();
    auto out = b_.Gather(pos_, n, nullptr);
    pos_ += n;
    return out;
  }

 private:
  SortedBuffer b_;
  int64_t pos_ = 0;
};

// Hands the sorted rows to `consume` in chunks of up to `chunk` rows, in order, gathering chunk
// k + 1 on a helper thread while `consume` takes chunk k: the gather's random reads and the
// consumer's work (Parquet encoding) then run on two cores. Chunks alternate between `reuse` and
// a second set of vectors, so two chunks are held at once.
template <typename Sorted, typename Consume>  // Sorted: ExternalSorter::SortedBuffer
Status GatherInChunks(const Sorted& sorted, int64_t chunk, std::vector<VectorPtr>* reuse, Consume&& consume,
                      const ExternalSorter::Prepare& prepare = nullptr) {
  const int64_t n = sorted.rows();
  if (n == 0) return Status::OK();
  std::vector<VectorPtr> second;
  std::vector<VectorPtr>* sets[2] = {reuse, &second};
  BatchPtr next = sorted.Gather(0, std::min(chunk, n), sets[0]);
  if (prepare) prepare(*next);
  for (int64_t pos = 0, k = 0; pos < n; ++k) {
    BatchPtr cur = std::move(next);
    const int64_t after = pos + cur->num_rows;
    std::thread helper;
    if (after < n) {
      std::vector<VectorPtr>* into = sets[(k + 1) % 2];
      helper = std::thread([&sorted, &next, &prepare, after, chunk, n, into] {
        next = sorted.Gather(after, std::min(chunk, n - after), into);
        if (prepare) prepare(*next);
      });
    }
    Status st = consume(*cur);
    cur.reset();  // its vectors are free for chunk k + 2
    if (helper.joinable()) helper.join();
    RETURN_NOT_OK(st);
    pos = after;
  }
  return Status::OK();
}

// A spilled run, read row group by row group in chunks.
class ExternalSorter::RunSource : public ExternalSorter::Source {
 public:
  static Result<std::unique_ptr<RunSource>> Open(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                                 const columnar::Schema& schema) {
    auto s = std::unique_ptr<RunSource>(new RunSource());
    parquet::ReaderOptions ro;
    ro.verify_crc = false;
    ro.read_page_by_page = true;  // a merge holds one page per column of each run
    ASSIGN_OR_RETURN(s->reader_, parquet::ParquetReader::Open(std::move(fs), path, ro));
    if (s->reader_->schema()->size() != schema.size()) {
      return Status::Internal("spill run " + path + " has " + std::to_string(s->reader_->schema()->size()) +
                              " columns, expected " + std::to_string(schema.size()));
    }
    for (size_t i = 0; i < schema.size(); ++i) s->fields_.push_back(static_cast<int>(i));
    s->path_ = path;
    s->schema_ = schema;
    return s;
  }
  Result<BatchPtr> Next(int64_t max_rows) override {
    while (true) {
      if (!group_ || group_->rows_remaining() == 0) {
        if (next_group_ >= reader_->num_row_groups()) return BatchPtr();
        group_.reset();
        ASSIGN_OR_RETURN(group_, reader_->OpenRowGroup(next_group_++, fields_));
        continue;
      }
      ASSIGN_OR_RETURN(BatchPtr b, group_->ReadBatch(max_rows));
      if (!b) {
        group_.reset();
        continue;
      }
      // The reader may size its vectors for much more than the rows read: keep the merge's
      // memory proportional to its chunks.
      if (HeldBytes(*b) > 2 * UsedBytes(*b) + 4096) b = columnar::SliceBatch(*b, 0, b->num_rows);
      for (size_t i = 0; i < schema_.size(); ++i) {
        if (!b->column(i)->type()->Equals(*schema_[i].type)) {
          return Status::Internal("spill run " + path_ + " column " + schema_[i].name + " reads back as " +
                                  b->column(i)->type()->ToString() + ", expected " + schema_[i].type->ToString());
        }
      }
      return b;
    }
  }

 private:
  RunSource() = default;
  std::unique_ptr<parquet::ParquetReader> reader_;
  std::unique_ptr<parquet::RowGroupReader> group_;
  std::vector<int> fields_;
  int next_group_ = 0;
  std::string path_;
  columnar::Schema schema_;
};

void SpillLane::Acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  free_.wait(lock, [this] { return !busy_; });
  busy_ = true;
}

void SpillLane::Release() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    busy_ = false;
  }
  free_.notify_all();
}

Result<std::unique_ptr<ExternalSorter>> ExternalSorter::Make(std::shared_ptr<io::FileSystem> fs,
                                                             columnar::SchemaPtr schema,
                                                             ExternalSorterOptions options) {
  if (options.columns.empty()) return Status::InvalidArgument("local sort needs at least one column");
  if (options.memory_limit <= 0) return Status::InvalidArgument("local sort memory limit must be positive");
  if (options.spill_dir.empty()) return Status::InvalidArgument("local sort needs a spill directory");
  options.output_batch_rows = std::max<int64_t>(1, options.output_batch_rows);
  options.max_merge_fan_in = std::clamp(options.max_merge_fan_in, 2, 4096);
  std::unique_ptr<ExternalSorter> s(new ExternalSorter());
  s->fs_ = std::move(fs);
  s->schema_ = std::move(schema);
  s->options_ = std::move(options);
  // Validates the columns against the full schema (index range, sortable types).
  RETURN_NOT_OK(SortKeyEncoder::Make(*s->schema_, s->options_.columns).status());
  // The encoders see only the sort columns: keys never touch (or concatenate) other columns.
  auto key_schema = std::make_shared<columnar::Schema>();
  std::vector<SortColumn> key_cols;
  for (const SortColumn& c : s->options_.columns) {
    s->key_columns_.push_back(c.column);
    key_cols.push_back(SortColumn{static_cast<int>(key_cols.size()), c.descending, c.nulls_first});
    key_schema->fields.push_back(s->schema_->fields[static_cast<size_t>(c.column)]);
  }
  s->key_schema_ = std::move(key_schema);
  ASSIGN_OR_RETURN(SortKeyEncoder lex, SortKeyEncoder::Make(*s->key_schema_, std::move(key_cols)));
  s->lex_.emplace(std::move(lex));
  for (const auto& f : s->schema_->fields) {
    s->pending_.push_back(Vector::Make(f.type));
    s->flat_ = s->flat_ && IsFlat(*f.type);
  }
  if (s->flat_ && s->options_.mode == LocalSortMode::kLexicographic && s->options_.sort_while_adding &&
      std::thread::hardware_concurrency() > 1) {
    s->batch_runs_ = std::make_unique<BatchRunSorter>(&*s->lex_);
  }
  s->background_ = s->options_.spill_in_background && std::thread::hardware_concurrency() > 1;
  if (s->background_ && !s->options_.spill_lane) s->options_.spill_lane = std::make_shared<SpillLane>();
  s->run_prefix_ = "sort-" + RandomUuid() + "-";
  return s;
}

ExternalSorter::~ExternalSorter() {
  (void)WaitForSpill();  // the run it writes is in runs_
  for (const auto& r : runs_) (void)fs_->Delete(r);
}

int64_t ExternalSorter::RowCost() const {
  // Key bytes and the sort's scratch (the permutation takes the place of half the scratch).
  // Z-order keys are 8 bytes; computing them briefly needs 36 bytes per row, less than the sort.
  int key = options_.mode == LocalSortMode::kZOrder ? 8 : lex_->width();
  return key + kSortBytesPerRow;
}

int64_t ExternalSorter::buffer_bytes() const { return buffered_raw_ + buffered_rows_ * RowCost(); }

int64_t ExternalSorter::buffered_bytes() const { return buffer_bytes() + spill_accounted_; }

int64_t ExternalSorter::BytesToAdd(const RecordBatch& batch) const {
  return HeldBytes(batch) + batch.num_rows * RowCost();
}

void ExternalSorter::RaisePeak(int64_t bytes) {
  int64_t peak = peak_.load();
  while (bytes > peak && !peak_.compare_exchange_weak(peak, bytes)) {
  }
}

void ExternalSorter::Track(int64_t bytes) {
  buffer_now_ = bytes;
  RaisePeak(bytes + spill_now_);
}

void ExternalSorter::TrackSpill(int64_t bytes) {
  spill_now_ = bytes;
  RaisePeak(bytes + buffer_now_);
}

void ExternalSorter::Keep(BatchPtr batch) {
  const int64_t n = batch->num_rows;
  kept_raw_ += HeldBytes(*batch);
  if (flat_) {
    // Even segments of at most kSegmentRows rows.
    const int64_t parts = (n + kSegmentRows - 1) / kSegmentRows;
    const int64_t per = (n + parts - 1) / parts;
    if (batch_runs_) batch_runs_->Submit(KeyColumns(*batch), static_cast<uint32_t>(segments_.size()), per);
    for (int64_t b = 0; b < n; b += per) segments_.push_back(Segment{batch, b, std::min(per, n - b)});
  } else {
    segments_.push_back(Segment{batch, 0, n});
  }
  kept_.push_back(std::move(batch));
}

void ExternalSorter::FlushPending() {
  if (pending_rows_ == 0) return;
  auto b = std::make_shared<RecordBatch>(schema_, std::move(pending_), pending_rows_);
  pending_.clear();
  for (const auto& f : schema_->fields) pending_.push_back(Vector::Make(f.type));
  pending_rows_ = 0;
  pending_raw_ = 0;
  Keep(std::move(b));
}

Status ExternalSorter::Add(const RecordBatch& batch) {
  if (batch.num_columns() != schema_->size()) {
    return Status::InvalidArgument("local sort: batch has " + std::to_string(batch.num_columns()) +
                                   " columns, expected " + std::to_string(schema_->size()));
  }
  if (batch.num_rows == 0) return Status::OK();
  // Average bytes per row of this batch, so a large batch is taken in slices that fit.
  const int64_t raw = UsedBytes(batch);
  const int64_t held = HeldBytes(batch);
  const int64_t per_row = std::max<int64_t>(1, held / batch.num_rows) + RowCost();
  // Kept whole when large enough to be worth a segment and not mostly unused capacity.
  const bool keepable = flat_ && batch.num_rows >= 4096 && held <= 2 * raw + 4096;
  int64_t pos = 0;
  while (pos < batch.num_rows) {
    int64_t room = (FillLimit() - buffer_bytes()) / per_row;
    // Codes address at most 2^16 segments; a batch takes up to two more than its row count needs.
    const bool segments_full = flat_ && segments_.size() + 3 + static_cast<size_t>(batch.num_rows / kSegmentRows) >=
                                            static_cast<size_t>(kSegmentRows);
    if (room <= 0 || segments_full) {
      if (buffered_rows_ > 0) {
        RETURN_NOT_OK(Spill());
        continue;
      }
      room = 1;
    }
    int64_t take = std::min(room, batch.num_rows - pos);
    if (buffered_rows_ + take > int64_t{UINT32_MAX}) take = int64_t{UINT32_MAX} - buffered_rows_;
    if (keepable && pos == 0 && take == batch.num_rows) {
      FlushPending();  // arrival order: the copied rows come first
      Keep(std::make_shared<RecordBatch>(batch));
    } else {
      pending_raw_ = 0;
      for (size_t c = 0; c < pending_.size(); ++c) {
        pending_[c]->AppendFrom(*batch.column(c), pos, take);
        pending_raw_ += HeldBytes(*pending_[c]);
      }
      pending_rows_ += take;
      if (flat_ && pending_rows_ >= kSegmentRows) FlushPending();
    }
    buffered_raw_ = kept_raw_ + pending_raw_;
    buffered_rows_ += take;
    pos += take;
    Track(buffer_bytes());
  }
  return Status::OK();
}

Status ExternalSorter::EnsureKeyEncoder(const RecordBatch& key_sample) {
  if (options_.mode != LocalSortMode::kZOrder || zorder_) return Status::OK();
  std::vector<SortColumn> cols;
  for (size_t k = 0; k < key_columns_.size(); ++k) cols.push_back(SortColumn{static_cast<int>(k), false, true});
  ASSIGN_OR_RETURN(ZOrderKeyEncoder z, ZOrderKeyEncoder::Make(*key_schema_, cols, key_sample));
  zorder_.emplace(std::move(z));
  return Status::OK();
}

RecordBatch ExternalSorter::KeyColumns(const RecordBatch& batch) const {
  std::vector<VectorPtr> cols;
  for (int c : key_columns_) cols.push_back(batch.column(static_cast<size_t>(c)));
  return RecordBatch(key_schema_, std::move(cols), batch.num_rows);
}

KeyRows ExternalSorter::Encode(const RecordBatch& batch) const {
  RecordBatch keys = KeyColumns(batch);
  return zorder_ ? zorder_->Encode(keys) : lex_->Encode(keys);
}

void ExternalSorter::TakeBuffer(SortedBuffer* out, std::vector<Segment>* segments) {
  out->schema = schema_;
  out->batches = std::move(kept_);
  *segments = std::move(segments_);
  kept_.clear();
  segments_.clear();
  buffered_rows_ = 0;
  buffered_raw_ = 0;
  kept_raw_ = 0;
  buffer_now_ = 0;
}

Result<ExternalSorter::SortedBuffer> ExternalSorter::SortedInMemory() {
  if (batch_runs_) {
    FlushPending();
    batch_runs_->Wait();
    if (batch_runs_->Mergeable()) {
      const int64_t raw = buffered_raw_;
      SortedBuffer out;
      std::vector<Segment> segments;
      TakeBuffer(&out, &segments);
      out.held = raw + batch_runs_->memory_bytes();
      Track(out.held);
      out.merger = batch_runs_->TakeMerger();
      out.columns = SegmentColumns(segments);
      return out;
    }
  }
  return SortBuffer();
}

Result<ExternalSorter::SortedBuffer> ExternalSorter::SortBuffer() {
  FlushPending();
  if (batch_runs_) batch_runs_->Clear();  // a whole sort instead: their memory goes first
  const int64_t raw = buffered_raw_;
  const int64_t rows = buffered_rows_;
  SortedBuffer out;
  std::vector<Segment> segments;
  TakeBuffer(&out, &segments);
  // The sort columns of all rows, in arrival order (concatenated only when several batches).
  RecordBatch key_batch;
  if (out.batches.size() == 1) {
    key_batch = KeyColumns(*out.batches[0]);
  } else {
    std::vector<VectorPtr> cols;
    for (int c : key_columns_) {
      std::vector<VectorPtr> parts;
      for (const auto& b : out.batches) parts.push_back(b->column(static_cast<size_t>(c)));
      cols.push_back(columnar::Concat(parts));
    }
    key_batch = RecordBatch(key_schema_, std::move(cols), rows);
  }
  RETURN_NOT_OK(EnsureKeyEncoder(key_batch));
  KeyRows keys = zorder_ ? zorder_->Encode(key_batch) : lex_->Encode(key_batch);
  Track(raw + keys.memory_bytes() + kSortBytesPerRow * rows);
  out.perm = SortKeyRows(keys);
  out.held = raw + static_cast<int64_t>(out.perm.capacity() * sizeof(uint32_t));
  if (!flat_) {
    out.single = out.batches.size() == 1 ? out.batches[0] : nullptr;
    if (!out.single) return Status::Internal("local sort: a nested-column buffer spans several batches");
    return out;
  }
  // Arrival positions -> segment codes. Segments before the last hold at least one row; a
  // lookup every 4096 positions finds the segment, then a short walk forward.
  std::vector<int64_t> starts;
  starts.reserve(segments.size() + 1);
  int64_t at = 0;
  for (const auto& sg : segments) {
    starts.push_back(at);
    at += sg.rows;
  }
  starts.push_back(at);
  std::vector<uint32_t> lut(static_cast<size_t>((rows >> 12) + 1));
  uint32_t sg = 0;
  for (size_t k = 0; k < lut.size(); ++k) {
    const int64_t p = static_cast<int64_t>(k) << 12;
    while (sg + 1 < segments.size() && starts[sg + 1] <= p) ++sg;
    lut[k] = sg;
  }
  for (uint32_t& p : out.perm) {
    uint32_t s = lut[p >> 12];
    while (starts[s + 1] <= p) ++s;
    p = (s << 16) | static_cast<uint32_t>(p - starts[s]);
  }
  out.columns = SegmentColumns(segments);
  return out;
}

std::vector<SegmentColumn> ExternalSorter::SegmentColumns(const std::vector<Segment>& segments) const {
  std::vector<SegmentColumn> columns(schema_->size());
  for (size_t c = 0; c < schema_->size(); ++c) {
    SegmentColumn& sc = columns[c];
    const columnar::DataType& t = *schema_->fields[c].type;
    if (!IsFlat(t)) continue;  // nested columns are not gathered by code
    const int w = t.IsStringLike() ? 0 : t.SlotWidth();
    for (const auto& seg : segments) {
      const Vector& v = *seg.batch->column(c);
      if (t.IsStringLike()) {
        sc.offsets.push_back(v.offsets() + seg.begin);
        sc.bytes.push_back(v.bytes().data());
        sc.values.push_back(nullptr);
      } else {
        sc.values.push_back(v.values().data() + seg.begin * w);
        sc.offsets.push_back(nullptr);
        sc.bytes.push_back(nullptr);
      }
      sc.validity.push_back(v.MayHaveNulls() ? v.validity().data() + seg.begin : nullptr);
      sc.any_nulls = sc.any_nulls || v.MayHaveNulls();
    }
  }
  return columns;
}

Result<std::string> ExternalSorter::NewRunPath() {
  RETURN_NOT_OK(fs_->CreateDirs(options_.spill_dir));
  return io::JoinPath(options_.spill_dir, run_prefix_ + std::to_string(run_counter_++) + ".parquet");
}

Status ExternalSorter::Spill() {
  RETURN_NOT_OK(WaitForSpill());
  if (buffered_rows_ == 0) return Status::OK();
  const int64_t accounted = buffer_bytes();
  ASSIGN_OR_RETURN(SortedBuffer sorted, SortedInMemory());
  buffer_now_ = 0;  // the sorted rows are counted by the run writer from here on
  ASSIGN_OR_RETURN(std::string path, NewRunPath());
  runs_.push_back(path);
  ++runs_spilled_;
  ASSIGN_OR_RETURN(auto writer, parquet::ParquetWriter::Open(fs_, path, *schema_, SpillProperties(options_.memory_limit)));
  if (!background_) return WriteRun(sorted, writer.get());
  // The buffer keeps counting against the budget until its run is written.
  spill_accounted_ = accounted;
  options_.spill_lane->Acquire();
  spill_thread_ = std::thread([this, sorted = std::move(sorted), writer = std::move(writer)]() mutable {
    spill_status_ = WriteRun(sorted, writer.get());
    sorted = SortedBuffer();  // the run is written: its rows are freed
    writer.reset();
    spill_accounted_ = 0;
    options_.spill_lane->Release();
  });
  return Status::OK();
}

Status ExternalSorter::WriteRun(const SortedBuffer& sorted, parquet::ParquetWriter* writer) {
  const int64_t held = sorted.held;
  const int64_t n = sorted.rows();
  // Chunks of about 1/16 of the budget keep the gathered copy small.
  const int64_t per_row = std::max<int64_t>(1, held / std::max<int64_t>(1, n));
  const int64_t chunk = std::clamp<int64_t>(options_.memory_limit / 16 / per_row, 1, 64 * 1024);
  Status st = GatherInChunks(sorted, chunk, &spill_cols_, [&](const RecordBatch& part) {
    RETURN_NOT_OK(writer->WriteBatch(part));
    TrackSpill(held + 2 * HeldBytes(part) + writer->buffered_bytes());  // this chunk and the next
    return Status::OK();
  });
  if (st.ok()) st = writer->Close().status();
  TrackSpill(0);
  return st;
}

Status ExternalSorter::WaitForSpill() {
  if (!spill_thread_.joinable()) return Status::OK();
  spill_thread_.join();
  Status st = std::move(spill_status_);
  spill_status_ = Status::OK();
  return st;
}

Status ExternalSorter::Finish(const Sink& sink, const Prepare& prepare) {
  RETURN_NOT_OK(WaitForSpill());
  if (runs_.empty()) {
    if (buffered_rows_ == 0) return Status::OK();
    ASSIGN_OR_RETURN(SortedBuffer sorted, SortedInMemory());
    return GatherInChunks(sorted, options_.output_batch_rows, &out_cols_, sink, prepare);
  }
  // A large last buffer is spilled too, so it and the merge chunks share the budget.
  if (buffer_bytes() > options_.memory_limit / 2) {
    RETURN_NOT_OK(Spill());
    RETURN_NOT_OK(WaitForSpill());
  }
  // Merge passes until the runs fit one merge; the earliest rows stay first for stable ties.
  while (runs_.size() + (buffered_rows_ > 0 ? 1 : 0) > static_cast<size_t>(options_.max_merge_fan_in)) {
    const size_t fan_in = static_cast<size_t>(options_.max_merge_fan_in);
    std::vector<std::string> inputs(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(fan_in));
    std::vector<std::unique_ptr<Source>> sources;
    for (const auto& r : inputs) {
      ASSIGN_OR_RETURN(auto s, RunSource::Open(fs_, r, *schema_));
      sources.push_back(std::move(s));
    }
    ASSIGN_OR_RETURN(std::string path, NewRunPath());
    ASSIGN_OR_RETURN(auto writer,
                     parquet::ParquetWriter::Open(fs_, path, *schema_, SpillProperties(options_.memory_limit)));
    runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(fan_in), path);
    ++runs_spilled_;
    parquet::ParquetWriter* w = writer.get();
    RETURN_NOT_OK(Merge(std::move(sources), [w](const RecordBatch& b) { return w->WriteBatch(b); }));
    RETURN_NOT_OK(writer->Close().status());
    for (const auto& r : inputs) RETURN_NOT_OK(fs_->Delete(r));
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(fan_in));
  }
  std::vector<std::unique_ptr<Source>> sources;
  for (const auto& r : runs_) {
    ASSIGN_OR_RETURN(auto s, RunSource::Open(fs_, r, *schema_));
    sources.push_back(std::move(s));
  }
  if (buffered_rows_ > 0) {
    ASSIGN_OR_RETURN(SortedBuffer sorted, SortedInMemory());
    sources.push_back(std::make_unique<MemorySource>(std::move(sorted)));
  }
  RETURN_NOT_OK(Merge(std::move(sources), sink, prepare));
  std::vector<std::string> done = std::move(runs_);
  runs_.clear();
  for (const auto& r : done) RETURN_NOT_OK(fs_->Delete(r));
  return Status::OK();
}

// The k-way merge of sorted sources, one output chunk at a time. A binary heap over the
// sources' current rows (ties: the earlier source, so the merge is stable) picks each row's
// source; the chunk's rows are recorded as segment codes, every source chunk the output touches
// being one segment, and each flat column is then gathered by one typed loop (coded_gather.h).
// Nested columns are appended span by span.
class ExternalSorter::ChunkMerger {
 public:
  ChunkMerger(const ExternalSorter& sorter, std::vector<std::unique_ptr<Source>> sources)
      : s_(sorter), sources_(std::move(sources)), cursors_(sources_.size()) {}

  // Reads every source's first chunk and sizes the chunks so that every source's chunk and two
  // output chunks fit half the budget (the other half may hold the last, unspilled buffer).
  Status Start() {
    // A small first read of each source measures the row size. It opens the source's first
    // pages, which costs more than the rows: the sources are opened on two threads.
    Status odd;
    std::thread helper([this, &odd] {
      for (size_t i = 1; i < cursors_.size() && odd.ok(); i += 2) odd = Refill(i, 64);
    });
    Status even;
    for (size_t i = 0; i < cursors_.size() && even.ok(); i += 2) even = Refill(i, 64);
    helper.join();
    RETURN_NOT_OK(even);
    RETURN_NOT_OK(odd);
    int64_t row_bytes = 64;
    for (size_t i = 0; i < cursors_.size(); ++i) {
      const Cursor& c = cursors_[i];
      if (c.batch) {
        row_bytes = std::max(row_bytes, HeldBytes(*c.batch) / c.batch->num_rows + c.keys.width);
        heap_.push_back(static_cast<uint32_t>(i));
      }
    }
    const int64_t per_source = s_.options_.memory_limit / 2 / static_cast<int64_t>(cursors_.size() + 2);
    chunk_ = std::clamp<int64_t>(per_source / row_bytes, 16, kSegmentRows);
    // Sources are consumed at about the same pace, so equal chunks would run out together and
    // one output chunk would wait for every source's read. Staggered second reads spread them.
    for (size_t i = 0; i < cursors_.size(); ++i) {
      cursors_[i].next_rows = std::max<int64_t>(16, chunk_ * static_cast<int64_t>(i + 1) / static_cast<int64_t>(cursors_.size()));
    }
    out_rows_ = std::min(chunk_, s_.options_.output_batch_rows);
    for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
    return Status::OK();
  }

  // The next merged chunk (nullptr at the end), into the vectors `reuse` holds when free.
  Result<BatchPtr> Next(std::vector<VectorPtr>* reuse) {
    if (heap_.empty()) return BatchPtr();
    spans_.clear();
    segments_.clear();
    for (Cursor& c : cursors_) c.slot = -1;
    int64_t rows = 0;
    // Codes address at most 2^16 segments: a chunk ends early if its sources' chunks are tiny.
    const size_t max_segments = static_cast<size_t>(kSegmentRows) - cursors_.size();
    while (!heap_.empty() && rows < out_rows_ && segments_.size() < max_segments) {
      const uint32_t top = heap_[0];
      Cursor& c = cursors_[top];
      if (c.slot < 0) {
        c.slot = static_cast<int64_t>(segments_.size());
        segments_.push_back(Segment{c.batch, 0, c.batch->num_rows});
      }
      // The top source's rows up to the next source's current row come out as one span.
      const int64_t take = SpanBeforeRunnerUp(top, std::min(c.batch->num_rows - c.pos, out_rows_ - rows));
      spans_.push_back(CodeSpan{static_cast<uint32_t>(c.slot), static_cast<uint32_t>(c.pos), static_cast<uint32_t>(take)});
      rows += take;
      c.pos += take;
      if (c.pos == c.batch->num_rows) {
        RETURN_NOT_OK(Refill(top, c.next_rows));
        c.next_rows = chunk_;
        if (!c.batch) {
          heap_[0] = heap_.back();
          heap_.pop_back();
        }
      }
      if (!heap_.empty()) SiftDown(0);
    }
    const int64_t n = rows;
    auto out = std::make_shared<RecordBatch>();
    out->schema = s_.schema_;
    out->num_rows = n;
    reuse->resize(s_.schema_->size());
    const std::vector<SegmentColumn> columns = s_.SegmentColumns(segments_);
    for (size_t col = 0; col < s_.schema_->size(); ++col) {
      const columnar::TypePtr& t = s_.schema_->fields[col].type;
      if (IsFlat(*t)) {
        Vector* v = OutputVector(&(*reuse)[col], t);
        GatherSpans(columns[col], *t, spans_.data(), spans_.size(), n, v);
        out->columns.push_back((*reuse)[col]);
      } else {
        out->columns.push_back(AppendSpans(col, t, n));
      }
    }
    out_bytes_ = HeldBytes(*out);
    held_ = out_bytes_;
    for (const Segment& seg : segments_) held_ += HeldBytes(*seg.batch);
    for (const Cursor& c : cursors_) {
      if (c.batch && c.slot < 0) held_ += HeldBytes(*c.batch);
      held_ += c.keys.memory_bytes();
    }
    return out;
  }

  // Bytes the last Next held: its output, the source chunks it read from, the keys; and its
  // output alone.
  int64_t held() const { return held_; }
  int64_t output_bytes() const { return out_bytes_; }

 private:
  struct Cursor {
    BatchPtr batch;
    KeyRows keys;
    int64_t pos = 0;
    int64_t slot = -1;  // segment of `batch` in the current output chunk, -1: none yet
    int64_t next_rows = 0;  // rows of the next read
  };

  Status Refill(size_t i, int64_t rows) {
    Cursor& c = cursors_[i];
    c.keys = KeyRows();
    c.slot = -1;
    do {
      ASSIGN_OR_RETURN(c.batch, sources_[i]->Next(rows));
    } while (c.batch && c.batch->num_rows == 0);
    c.pos = 0;
    if (c.batch) c.keys = s_.Encode(*c.batch);
    return Status::OK();
  }

  // How many of the heap top's rows, from its current one and at most `most`, come before the
  // runner-up source's current row (ties: the earlier source first); at least one (rows of a
  // source are sorted: batch_runs.h's LeadingCount).
  int64_t SpanBeforeRunnerUp(uint32_t top, int64_t most) const {
    if (heap_.size() == 1 || most <= 1) return most;
    uint32_t next = heap_[1];
    if (heap_.size() > 2 && After(next, heap_[2])) next = heap_[2];
    const Cursor& x = cursors_[top];
    const Cursor& y = cursors_[next];
    auto before = [&](int64_t k) {  // row x.pos + k comes before y's current row
      const int r = CompareKeyRows(x.keys, x.pos + k, y.keys, y.pos);
      return r < 0 || (r == 0 && top < next);
    };
    return LeadingCount(most, before);  // row 0 comes first: it is the top
  }

  // Whether source a's current row sorts after source b's.
  bool After(uint32_t a, uint32_t b) const {
    const Cursor& x = cursors_[a];
    const Cursor& y = cursors_[b];
    const int r = CompareKeyRows(x.keys, x.pos, y.keys, y.pos);
    return r > 0 || (r == 0 && a > b);
  }

  void SiftDown(size_t i) {
    const size_t n = heap_.size();
    const uint32_t v = heap_[i];
    while (true) {
      size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && After(heap_[child], heap_[child + 1])) ++child;
      if (!After(v, heap_[child])) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = v;
  }

  // A nested column of the chunk, appended span by span.
  VectorPtr AppendSpans(size_t col, const columnar::TypePtr& type, int64_t n) const {
    auto v = Vector::Make(type, n);
    for (const CodeSpan& sp : spans_) {
      const Segment& seg = segments_[sp.segment];
      v->AppendFrom(*seg.batch->column(col), seg.begin + sp.row, sp.rows);
    }
    return v;
  }

  const ExternalSorter& s_;
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<Cursor> cursors_;
  std::vector<uint32_t> heap_;  // sources with rows left, a min-heap by key
  int64_t chunk_ = 64;          // rows read from a source at once
  int64_t out_rows_ = 1;        // rows per output chunk
  std::vector<Segment> segments_;
  std::vector<CodeSpan> spans_;  // the chunk's rows, span by span
  int64_t held_ = 0;
  int64_t out_bytes_ = 0;
};

// A producer thread merges and gathers chunks up to two ahead of the sink (the Parquet writer
// encoding them), so a chunk that needs many source reads is absorbed by the ones before it.
// Three sets of output vectors rotate: the chunk in the sink and two ready ones.
Status ExternalSorter::Merge(std::vector<std::unique_ptr<Source>> sources, const Sink& sink,
                             const Prepare& prepare) {
  ChunkMerger merger(*this, std::move(sources));
  RETURN_NOT_OK(merger.Start());
  constexpr size_t kSets = 3;
  struct Ready {
    BatchPtr batch;
    int64_t output_bytes = 0;
    int64_t held = 0;  // the merger's bytes after producing it (sources' chunks included)
  };
  std::vector<VectorPtr> sets[kSets];
  std::mutex mu;
  std::condition_variable changed;
  std::deque<Ready> ready;
  bool done = false;   // the producer has stopped (end or error)
  bool stop = false;   // the sink failed: the producer stops
  Status produce_status;
  std::thread producer([&] {
    for (size_t k = 0;; ++k) {
      {
        std::unique_lock<std::mutex> lock(mu);
        changed.wait(lock, [&] { return stop || ready.size() < kSets - 1; });
        if (stop) break;
      }
      Result<BatchPtr> next = merger.Next(&sets[k % kSets]);
      if (prepare && next.ok() && *next) prepare(**next);
      std::lock_guard<std::mutex> lock(mu);
      if (!next.ok() || !*next) {
        produce_status = next.status();
        break;
      }
      ready.push_back(Ready{std::move(*next), merger.output_bytes(), merger.held()});
      changed.notify_all();
    }
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    changed.notify_all();
  });
  Status st;
  while (true) {
    Ready cur;
    int64_t held = 0;  // the latest chunk's held bytes (sources included) plus the other chunks
    {
      std::unique_lock<std::mutex> lock(mu);
      changed.wait(lock, [&] { return done || !ready.empty(); });
      if (ready.empty()) break;
      cur = std::move(ready.front());
      ready.pop_front();
      if (ready.empty()) {
        held = cur.held;
      } else {
        held = cur.output_bytes + ready.back().held;
        for (size_t i = 0; i + 1 < ready.size(); ++i) held += ready[i].output_bytes;
      }
      changed.notify_all();
    }
    Track(held);
    st = sink(*cur.batch);
    cur.batch.reset();  // its vectors are free for a later chunk
    if (!st.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
      changed.notify_all();
      break;
    }
  }
  producer.join();
  RETURN_NOT_OK(st);
  return produce_status;
}

}  // namespace shoal::table
