#include "parquet/file_reader.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "parquet/dictionary_probe.h"
#include "parquet/record_assembler.h"

namespace shoal::parquet {

using columnar::Vector;

namespace {
constexpr int64_t kMaxFooterBytes = int64_t{1} << 30;
constexpr int64_t kMaxIndexBytes = int64_t{256} << 20;
// A page index span larger than this is read per chunk on demand rather than all ahead.
constexpr int64_t kMaxPrefetchedIndexBytes = int64_t{16} << 20;
}  // namespace

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                                           ReaderOptions options, ReadStats* stats,
                                                           int64_t known_size) {
  std::unique_ptr<ParquetReader> r(new ParquetReader());
  r->fs_ = fs;
  r->path_ = path;
  r->options_ = options;
  if (!options.beneath.empty()) {
    ASSIGN_OR_RETURN(r->file_, fs->OpenForReadBeneath(options.beneath, path, known_size));
  } else if (known_size >= 0) {
    ASSIGN_OR_RETURN(r->file_, fs->OpenForReadOfSize(path, known_size));
  } else {
    ASSIGN_OR_RETURN(r->file_, fs->OpenForRead(path));
  }
  int64_t size = r->file_->Size();
  auto fail = [&](const std::string& what) { return Status::Corruption(path + ": " + what); };
  if (size < 12) return fail("file of " + std::to_string(size) + " bytes is too small to be a Parquet file");
  if (r->file_->latency_bound()) {
    auto cache = std::make_unique<io::RangeCacheFile>(std::move(r->file_));
    r->cache_ = cache.get();
    r->file_ = std::move(cache);
    if (size < kReadWholeFileBelow) {
      RETURN_NOT_OK(r->cache_->Prefetch({{0, size}}, /*pinned=*/true));
    } else {
      RETURN_NOT_OK(r->cache_->Prefetch({{0, 4}, {size - kSpeculativeTailBytes, kSpeculativeTailBytes}}, true));
    }
  }
  uint8_t head[4], tail[8];
  RETURN_NOT_OK(r->file_->ReadAt(0, 4, head));
  RETURN_NOT_OK(r->file_->ReadAt(size - 8, 8, tail));
  if (stats) {
    stats->bytes_read += 12;
    stats->io_requests += 2;
  }
  if (std::memcmp(tail + 4, "PARE", 4) == 0) {
    return Status::NotSupported(path + ": encrypted Parquet files are not supported");
  }
  if (std::memcmp(tail + 4, "PAR1", 4) != 0 || std::memcmp(head, "PAR1", 4) != 0) {
    return fail("not a Parquet file (magic bytes missing)");
  }
  uint32_t footer_len = static_cast<uint32_t>(tail[0]) | (static_cast<uint32_t>(tail[1]) << 8) |
                        (static_cast<uint32_t>(tail[2]) << 16) | (static_cast<uint32_t>(tail[3]) << 24);
  if (footer_len == 0 || footer_len > size - 12 || footer_len > kMaxFooterBytes) {
    return fail("footer length " + std::to_string(footer_len) + " does not fit the file size " + std::to_string(size));
  }
  std::string footer(footer_len, '\0');
  RETURN_NOT_OK(r->file_->ReadAt(size - 8 - footer_len, footer_len, reinterpret_cast<uint8_t*>(footer.data())));
  if (stats) {
    stats->bytes_read += footer_len;
    stats->io_requests += 1;
  }
  Status st = DecodeFileMetaData(footer, &r->metadata_);
  if (!st.ok()) return fail(st.message());
  if (r->cache_) r->PrefetchPageIndex();
  if (r->metadata_.num_rows < 0) return fail("negative row count");
  Result<ParquetSchema> schema = ParquetSchema::Make(r->metadata_.schema);
  if (!schema.ok()) return Status(schema.status().code(), path + ": " + schema.status().message());
  r->schema_ = std::move(schema).value();
  r->columnar_schema_ = std::make_shared<columnar::Schema>(r->schema_.columnar_schema());
  for (size_t g = 0; g < r->metadata_.row_groups.size(); ++g) {
    const RowGroup& rg = r->metadata_.row_groups[g];
    if (rg.num_rows < 0) return fail("row group " + std::to_string(g) + " has a negative row count");
    if (static_cast<int>(rg.columns.size()) != r->schema_.num_leaves()) {
      return fail("row group " + std::to_string(g) + " has " + std::to_string(rg.columns.size()) +
                  " column chunks, the schema " + std::to_string(r->schema_.num_leaves()) + " leaf columns");
    }
  }
  return r;
}

void ParquetReader::PrefetchPageIndex() const {
  // The page index of every chunk, as one span (writers put it between the data and the footer).
  int64_t begin = INT64_MAX, end = 0;
  for (const RowGroup& g : metadata_.row_groups) {
    for (const ColumnChunk& c : g.columns) {
      if (c.column_index_offset && c.column_index_length) {
        begin = std::min(begin, *c.column_index_offset);
        end = std::max(end, *c.column_index_offset + *c.column_index_length);
      }
      if (c.offset_index_offset && c.offset_index_length) {
        begin = std::min(begin, *c.offset_index_offset);
        end = std::max(end, *c.offset_index_offset + *c.offset_index_length);
      }
    }
  }
  if (begin >= end || begin < 0 || end > file_->Size() || end - begin > kMaxPrefetchedIndexBytes) return;
  if (cache_->Contains(begin, end - begin)) return;
  // A failure here only means the index is read on demand (and fails there, named).
  (void)cache_->Prefetch({{begin, end - begin}}, /*pinned=*/true);
}

Status ParquetReader::Prefetch(std::vector<io::ByteRange> ranges) const {
  if (!cache_ || ranges.empty()) return Status::OK();
  return cache_->Prefetch(std::move(ranges));
}

void ParquetReader::ChunkRanges(int rg, int field, const std::vector<RowRange>* rows,
                                std::vector<io::ByteRange>* out) const {
  if (rg < 0 || rg >= num_row_groups() || field < 0 || field >= static_cast<int>(schema_.fields().size())) return;
  const FieldNode& node = schema_.fields()[field];
  for (int l = node.first_leaf; l < node.first_leaf + node.num_leaves; ++l) {
    const ColumnChunk& c = column_chunk(rg, l);
    if (!c.meta_data) continue;
    const ColumnMetaData& m = *c.meta_data;
    int64_t start = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < start) {
      start = *m.dictionary_page_offset;
    }
    std::optional<OffsetIndex> oi;
    if (rows && options_.use_offset_index && c.offset_index_offset) {
      auto loaded = ReadOffsetIndex(rg, l);
      if (loaded.ok()) oi = std::move(*loaded);
    }
    if (!oi || oi->page_locations.empty()) {
      out->push_back({start, m.total_compressed_size});
      continue;
    }
    const auto& locs = oi->page_locations;
    if (locs[0].offset > start) out->push_back({start, locs[0].offset - start});  // dictionary
    const int64_t group_rows = row_group_num_rows(rg);
    size_t r = 0;
    for (size_t p = 0; p < locs.size(); ++p) {
      const int64_t first = locs[p].first_row_index;
      const int64_t last = p + 1 < locs.size() ? locs[p + 1].first_row_index : group_rows;
      while (r < rows->size() && (*rows)[r].end <= first) ++r;
      if (r < rows->size() && (*rows)[r].begin < last) out->push_back({locs[p].offset, locs[p].compressed_page_size});
    }
  }
}

const Statistics* ParquetReader::column_statistics(int rg, int leaf) const {
  const ColumnChunk& c = column_chunk(rg, leaf);
  if (!c.meta_data || !c.meta_data->statistics) return nullptr;
  return &*c.meta_data->statistics;
}

Status ParquetReader::CheckChunk(int rg, int leaf) const {
  const ColumnChunk& c = column_chunk(rg, leaf);
  const LeafColumn& lc = schema_.leaves()[leaf];
  if (c.has_crypto_metadata || c.has_encrypted_column_metadata) {
    return Status::NotSupported(path_ + ": encrypted Parquet files are not supported (column '" + lc.dotted_path + "')");
  }
  if (!c.meta_data) return Status::Corruption(path_ + ": column '" + lc.dotted_path + "' has no metadata");
  if (c.file_path && !c.file_path->empty()) {
    return Status::NotSupported(path_ + ": column '" + lc.dotted_path + "' is stored in another file");
  }
  if (c.meta_data->type != lc.physical) {
    return Status::Corruption(path_ + ": column '" + lc.dotted_path + "' chunk type disagrees with the schema");
  }
  return Status::OK();
}

namespace {
Result<std::string> ReadRange(const io::RandomAccessFile* f, int64_t offset, int64_t length, ReadStats* stats,
                              const std::string& what) {
  if (offset < 0 || length <= 0 || length > kMaxIndexBytes || offset > f->Size() || length > f->Size() - offset) {
    return Status::Corruption(f->path() + ": " + what + " range lies outside the file");
  }
  std::string buf(static_cast<size_t>(length), '\0');
  RETURN_NOT_OK(f->ReadAt(offset, length, reinterpret_cast<uint8_t*>(buf.data())));
  if (stats) {
    stats->bytes_read += length;
    stats->io_requests += 1;
  }
  return buf;
}
}  // namespace

Result<std::optional<ColumnIndex>> ParquetReader::ReadColumnIndex(int rg, int leaf, ReadStats* stats) const {
  const ColumnChunk& c = column_chunk(rg, leaf);
  if (!c.column_index_offset || !c.column_index_length) return std::optional<ColumnIndex>();
  ASSIGN_OR_RETURN(std::string buf, ReadRange(file_.get(), *c.column_index_offset, *c.column_index_length, stats,
                                              "ColumnIndex"));
  ColumnIndex ci;
  Status st = DecodeColumnIndex(buf, &ci);
  if (!st.ok()) return Status::Corruption(path_ + ": " + st.message());
  return std::optional<ColumnIndex>(std::move(ci));
}

Result<std::optional<OffsetIndex>> ParquetReader::ReadOffsetIndex(int rg, int leaf, ReadStats* stats) const {
  const ColumnChunk& c = column_chunk(rg, leaf);
  if (!c.offset_index_offset || !c.offset_index_length) return std::optional<OffsetIndex>();
  ASSIGN_OR_RETURN(std::string buf, ReadRange(file_.get(), *c.offset_index_offset, *c.offset_index_length, stats,
                                              "OffsetIndex"));
  OffsetIndex oi;
  Status st = DecodeOffsetIndex(buf, &oi);
  if (!st.ok()) return Status::Corruption(path_ + ": " + st.message());
  return std::optional<OffsetIndex>(std::move(oi));
}

Result<std::unique_ptr<RowGroupReader>> ParquetReader::OpenRowGroup(int rg, std::vector<int> field_indices,
                                                                    ReadStats* stats) const {
  if (rg < 0 || rg >= num_row_groups()) return Status::InvalidArgument(path_ + ": no row group " + std::to_string(rg));
  std::unique_ptr<RowGroupReader> r(new RowGroupReader());
  auto schema = std::make_shared<columnar::Schema>();
  for (int f : field_indices) {
    if (f < 0 || f >= static_cast<int>(schema_.fields().size())) {
      return Status::InvalidArgument(path_ + ": no field " + std::to_string(f));
    }
    schema->fields.push_back(columnar_schema_->fields[f]);
    const FieldNode& node = schema_.fields()[f];
    for (int l = node.first_leaf; l < node.first_leaf + node.num_leaves; ++l) RETURN_NOT_OK(CheckChunk(rg, l));
  }
  r->file_ = this;
  r->row_group_ = rg;
  r->fields_ = std::move(field_indices);
  r->schema_ = std::move(schema);
  r->num_rows_ = metadata_.row_groups[rg].num_rows;
  r->field_position_.assign(r->fields_.size(), 0);
  r->stats_ = stats;
  return r;
}

Result<std::vector<columnar::BatchPtr>> ParquetReader::ReadAll(std::vector<int> field_indices, ReadStats* stats) const {
  if (field_indices.empty()) {
    for (size_t i = 0; i < schema_.fields().size(); ++i) field_indices.push_back(static_cast<int>(i));
  }
  std::vector<columnar::BatchPtr> out;
  for (int g = 0; g < num_row_groups(); ++g) {
    ASSIGN_OR_RETURN(auto rg, OpenRowGroup(g, field_indices, stats));
    while (true) {
      ASSIGN_OR_RETURN(columnar::BatchPtr b, rg->ReadBatch());
      if (!b) break;
      out.push_back(std::move(b));
    }
  }
  return out;
}

Status RowGroupReader::EnsureInit(bool for_skip) {
  if (!initialized_) {
    initialized_ = true;
    init_status_ = Init(for_skip);
  }
  return init_status_;
}

Status RowGroupReader::Init(bool for_skip) {
  const ParquetSchema& ps = file_->parquet_schema();
  reader_of_leaf_.assign(ps.num_leaves(), -1);
  levels_.resize(ps.num_leaves());
  for (int f : fields_) {
    const FieldNode& node = ps.fields()[f];
    for (int l = node.first_leaf; l < node.first_leaf + node.num_leaves; ++l) {
      if (reader_of_leaf_[l] >= 0) continue;
      const ColumnChunk& chunk = file_->column_chunk(row_group_, l);
      const OffsetIndex* oi = nullptr;
      if ((for_skip || file_->options().read_page_by_page) && file_->options().use_offset_index &&
          chunk.offset_index_offset) {
        auto loaded = file_->ReadOffsetIndex(row_group_, l, stats_);
        if (loaded.ok() && loaded->has_value()) {
          offset_indexes_.push_back(std::make_unique<OffsetIndex>(std::move(**loaded)));
          oi = offset_indexes_.back().get();
        }
      }
      const LeafColumn& leaf = ps.leaves()[l];
      ASSIGN_OR_RETURN(auto pages, PageReader::Make(file_->file(), *chunk.meta_data, leaf.dotted_path, oi,
                                                    file_->options(), stats_));
      reader_of_leaf_[l] = static_cast<int>(readers_.size());
      readers_.push_back(
          std::make_unique<ColumnChunkReader>(&leaf, std::move(pages), num_rows_, file_->path(), stats_));
    }
  }
  return Status::OK();
}

Result<columnar::BatchPtr> RowGroupReader::ReadBatch(int64_t max_rows) {
  if (max_rows <= 0) max_rows = file_->options().batch_rows;
  int64_t n = std::min(max_rows, num_rows_ - position_);
  if (n <= 0) return columnar::BatchPtr();
  RETURN_NOT_OK(EnsureInit(false));
  const ParquetSchema& ps = file_->parquet_schema();
  std::vector<columnar::VectorPtr> columns;
  for (int f : fields_) {
    const FieldNode& node = ps.fields()[f];
    auto short_read = [&](int leaf, int64_t got) {
      return Status::Corruption(file_->path() + ": column '" + ps.leaves()[leaf].dotted_path + "' ends after " +
                                std::to_string(position_ + got) + " rows; its row group has " +
                                std::to_string(num_rows_));
    };
    if (node.kind == FieldNode::Kind::kLeaf && ps.leaves()[node.leaf].max_rep == 0) {
      auto v = Vector::Make(node.type, n);
      ASSIGN_OR_RETURN(int64_t got, readers_[reader_of_leaf_[node.leaf]]->ReadBatch(n, v.get()));
      if (got != n) return short_read(node.leaf, got);
      columns.push_back(std::move(v));
      continue;
    }
    std::vector<LeafLevels> levels(node.num_leaves);
    for (int i = 0; i < node.num_leaves; ++i) {
      int l = node.first_leaf + i;
      // Reuse the per-leaf scratch (and its values vector) across batches.
      LeafLevels& lv = levels_[l];
      lv.def.clear();
      lv.rep.clear();
      lv.num_entries = 0;
      lv.values = Vector::Make(ps.leaves()[l].type);
      ASSIGN_OR_RETURN(int64_t got, readers_[reader_of_leaf_[l]]->ReadRecords(n, &lv));
      if (got != n) return short_read(l, got);
      levels[i] = std::move(lv);
    }
    Result<columnar::VectorPtr> v = AssembleRecords(node, levels, ps.leaves(), n);
    if (!v.ok()) {
      const Status& st = v.status();
      return Status(st.code(), file_->path() + ": " + st.message());
    }
    columns.push_back(std::move(v).value());
  }
  position_ += n;
  return std::make_shared<columnar::RecordBatch>(schema_, std::move(columns), n);
}

Status RowGroupReader::SkipRows(int64_t n) {
  n = std::min(n, num_rows_ - position_);
  if (n <= 0) return Status::OK();
  RETURN_NOT_OK(EnsureInit(true));
  for (auto& r : readers_) RETURN_NOT_OK(r->SkipRows(n));
  position_ += n;
  return Status::OK();
}

Status RowGroupReader::ShortRead(int leaf, int64_t position, int64_t got) const {
  return Status::Corruption(file_->path() + ": column '" + file_->parquet_schema().leaves()[leaf].dotted_path +
                            "' ends after " + std::to_string(position + got) + " rows; its row group has " +
                            std::to_string(num_rows_));
}

Result<columnar::VectorPtr> RowGroupReader::ReadFieldRows(int i, int64_t n) {
  const ParquetSchema& ps = file_->parquet_schema();
  const FieldNode& node = ps.fields()[fields_[i]];
  if (node.kind == FieldNode::Kind::kLeaf && ps.leaves()[node.leaf].max_rep == 0) {
    auto v = Vector::Make(node.type, n);
    ASSIGN_OR_RETURN(int64_t got, readers_[reader_of_leaf_[node.leaf]]->ReadBatch(n, v.get()));
    if (got != n) return ShortRead(node.leaf, field_position_[i], got);
    return v;
  }
  std::vector<LeafLevels> levels(node.num_leaves);
  for (int k = 0; k < node.num_leaves; ++k) {
    int l = node.first_leaf + k;
    levels[k].values = Vector::Make(ps.leaves()[l].type);
    ASSIGN_OR_RETURN(int64_t got, readers_[reader_of_leaf_[l]]->ReadRecords(n, &levels[k]));
    if (got != n) return ShortRead(l, field_position_[i], got);
  }
  Result<columnar::VectorPtr> v = AssembleRecords(node, levels, ps.leaves(), n);
  if (!v.ok()) return Status(v.status().code(), file_->path() + ": " + v.status().message());
  return v;
}

Result<columnar::VectorPtr> RowGroupReader::ReadField(int i, int64_t n) { return ReadFieldImpl(i, n, nullptr, 0); }

Result<columnar::VectorPtr> RowGroupReader::ReadFieldSelected(int i, int64_t n, const uint32_t* sel, int64_t nsel) {
  static const uint32_t kNone = 0;
  return ReadFieldImpl(i, n, sel ? sel : &kNone, sel ? nsel : 0);
}

Result<ColumnChunkReader*> RowGroupReader::FlatLeafReader(int i, int64_t n, const uint32_t* sel, int64_t nsel,
                                                          const char* what) {
  if (i < 0 || i >= num_fields()) return Status::InvalidArgument(file_->path() + ": no field " + std::to_string(i));
  if (n < 0 || n > num_rows_ - field_position_[i]) {
    return Status::InvalidArgument(file_->path() + ": read past the end of row group " + std::to_string(row_group_));
  }
  RETURN_NOT_OK(EnsureInit(true));
  const ParquetSchema& ps = file_->parquet_schema();
  const FieldNode& node = ps.fields()[fields_[i]];
  if (node.kind != FieldNode::Kind::kLeaf || ps.leaves()[node.leaf].max_rep != 0) {
    return Status::Internal(std::string(what) + " on a nested field");
  }
  if (sel != nullptr) {
    for (int64_t k = 0; k < nsel; ++k) {
      if (sel[k] >= n || (k > 0 && sel[k] <= sel[k - 1])) return Status::Internal(std::string(what) + ": bad selection");
    }
  }
  return readers_[reader_of_leaf_[node.leaf]].get();
}

Status RowGroupReader::ReadFieldIndices(int i, int64_t n, const uint32_t* sel, int64_t nsel, uint32_t null_index,
                                        uint32_t* idx) {
  ASSIGN_OR_RETURN(ColumnChunkReader * reader, FlatLeafReader(i, n, sel, nsel, "ReadFieldIndices"));
  RETURN_NOT_OK(reader->ReadSelectedIndices(n, sel, nsel, null_index, idx));
  field_position_[i] += n;
  return Status::OK();
}

bool RowGroupReader::FieldIsDictionaryCoded(int i) const {
  if (i < 0 || i >= num_fields()) return false;
  const ParquetSchema& ps = file_->parquet_schema();
  const FieldNode& node = ps.fields()[fields_[i]];
  if (node.kind != FieldNode::Kind::kLeaf || ps.leaves()[node.leaf].max_rep != 0) return false;
  const columnar::TypePtr& type = schema_->fields[i].type;
  if (!type->IsStringLike()) return false;
  const ColumnChunk& chunk = file_->column_chunk(row_group_, node.leaf);
  if (!chunk.meta_data || (chunk.file_path && !chunk.file_path->empty())) return false;
  return AllDataPagesDictionaryEncoded(*chunk.meta_data);
}

Result<columnar::VectorPtr> RowGroupReader::ReadFieldCoded(int i, int64_t n, const uint32_t* sel, int64_t nsel) {
  if (!FieldIsDictionaryCoded(i)) return Status::Internal("ReadFieldCoded on a field that is not dictionary-coded");
  ASSIGN_OR_RETURN(ColumnChunkReader * reader, FlatLeafReader(i, n, sel, nsel, "ReadFieldCoded"));
  const int64_t m = sel ? nsel : n;
  constexpr uint32_t kNull = 0xFFFFFFFFu;
  std::vector<uint32_t>& idx = scratch_codes_;
  idx.resize(static_cast<size_t>(m));
  RETURN_NOT_OK(reader->ReadSelectedIndices(n, sel, m, kNull, idx.data()));
  field_position_[i] += n;
  columnar::VectorPtr dict = reader->dictionary();
  if (!dict) dict = columnar::Vector::Make(schema_->fields[i].type);  // no value decoded: every row is NULL
  auto out = columnar::Vector::MakeCoded(dict, m);
  int32_t* codes = out->mutable_codes();
  bool nulls = false;
  for (int64_t k = 0; k < m; ++k) {
    const bool null = idx[k] == kNull;
    nulls |= null;
    codes[k] = null ? 0 : static_cast<int32_t>(idx[k]);
  }
  if (nulls) {
    uint8_t* valid = out->MutableValidity();
    for (int64_t k = 0; k < m; ++k) valid[k] = idx[k] == kNull ? 0 : 1;
  }
  return out;
}

Status RowGroupReader::ReadFieldDefined(int i, int64_t n, const uint32_t* sel, int64_t nsel, uint8_t* defined) {
  ASSIGN_OR_RETURN(ColumnChunkReader * reader, FlatLeafReader(i, n, sel, nsel, "ReadFieldDefined"));
  RETURN_NOT_OK(reader->ReadSelectedDefined(n, sel, nsel, defined));
  field_position_[i] += n;
  return Status::OK();
}

Result<columnar::VectorPtr> RowGroupReader::ReadFieldImpl(int i, int64_t n, const uint32_t* sel, int64_t nsel) {
  if (i < 0 || i >= num_fields()) return Status::InvalidArgument(file_->path() + ": no field " + std::to_string(i));
  if (n < 0 || n > num_rows_ - field_position_[i]) {
    return Status::InvalidArgument(file_->path() + ": read past the end of row group " + std::to_string(row_group_));
  }
  RETURN_NOT_OK(EnsureInit(true));
  const ParquetSchema& ps = file_->parquet_schema();
  const FieldNode& node = ps.fields()[fields_[i]];
  columnar::VectorPtr out;
  if (sel == nullptr) {
    ASSIGN_OR_RETURN(out, ReadFieldRows(i, n));
  } else if (nsel == 0) {
    RETURN_NOT_OK(SkipLeaves(i, n));
    out = Vector::Make(node.type);
  } else {
    int64_t first = sel[0], last = sel[nsel - 1];
    if (last >= n) return Status::Internal("ReadField: selection beyond the rows read");
    int64_t runs = 1;
    for (int64_t k = 1; k < nsel; ++k) {
      if (sel[k] <= sel[k - 1]) return Status::Internal("ReadFieldSelected: selection not ascending");
      runs += sel[k] != sel[k - 1] + 1;
    }
    int64_t span = last - first + 1;
    bool flat = node.kind == FieldNode::Kind::kLeaf && ps.leaves()[node.leaf].max_rep == 0;
    // A run costs about as much as decoding this many values: sparse runs skip, dense spans
    // decode and gather.
    constexpr int64_t kRunCost = 24;
    if (flat && runs * kRunCost < span) {
      out = Vector::Make(node.type, nsel);
      RETURN_NOT_OK(readers_[reader_of_leaf_[node.leaf]]->ReadSelected(n, sel, nsel, out.get()));
    } else {
      RETURN_NOT_OK(SkipLeaves(i, first));
      ASSIGN_OR_RETURN(columnar::VectorPtr whole, ReadFieldRows(i, span));
      RETURN_NOT_OK(SkipLeaves(i, n - first - span));
      if (nsel == span) {
        out = std::move(whole);
      } else {
        std::vector<uint32_t> idx(static_cast<size_t>(nsel));
        for (int64_t k = 0; k < nsel; ++k) idx[k] = static_cast<uint32_t>(sel[k] - first);
        out = columnar::Gather(*whole, idx.data(), nsel);
      }
    }
  }
  field_position_[i] += n;
  return out;
}

Status RowGroupReader::SkipField(int i, int64_t n) {
  if (i < 0 || i >= num_fields()) return Status::InvalidArgument(file_->path() + ": no field " + std::to_string(i));
  n = std::min(n, num_rows_ - field_position_[i]);
  if (n <= 0) return Status::OK();
  RETURN_NOT_OK(EnsureInit(true));
  RETURN_NOT_OK(SkipLeaves(i, n));
  field_position_[i] += n;
  return Status::OK();
}

int64_t RowGroupReader::pages_unread() const {
  int64_t n = 0;
  for (const auto& r : readers_) n += r->pages_unread();
  return n;
}

Status RowGroupReader::SkipLeaves(int i, int64_t n) {
  if (n <= 0) return Status::OK();
  const FieldNode& node = file_->parquet_schema().fields()[fields_[i]];
  for (int l = node.first_leaf; l < node.first_leaf + node.num_leaves; ++l) {
    RETURN_NOT_OK(readers_[reader_of_leaf_[l]]->SkipRows(n));
  }
  return Status::OK();
}

}  // namespace shoal::parquet
