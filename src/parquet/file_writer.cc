#include "parquet/file_writer.h"

#include <algorithm>
#include <limits>

namespace shoal::parquet {
namespace {

// Rows shredded at a time, between row-group size checks.
constexpr int64_t kPieceRows = 64 * 1024;
constexpr char kMagic[] = "PAR1";

}  // namespace

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                                           const columnar::Schema& schema,
                                                           WriterProperties properties) {
  std::unique_ptr<ParquetWriter> w(new ParquetWriter());
  w->props_ = std::move(properties);
  ASSIGN_OR_RETURN(w->schema_, MakeWriteSchema(schema, w->props_.field_ids()));
  w->columnar_schema_ = schema;
  for (const SortingColumnSpec& s : w->props_.sorting_columns()) {
    auto it = std::find_if(w->schema_.leaves.begin(), w->schema_.leaves.end(),
                           [&](const WriteLeaf& l) { return l.dotted == s.path; });
    if (it == w->schema_.leaves.end()) {
      return Status::InvalidArgument("sorting column '" + s.path + "' is not a leaf column of " + path);
    }
    w->sorting_.push_back(
        SortingColumn{static_cast<int32_t>(it - w->schema_.leaves.begin()), s.descending, s.nulls_first});
  }
  for (const WriteLeaf& leaf : w->schema_.leaves) {
    w->columns_.push_back(std::make_unique<ColumnWriter>(leaf, w->props_.column(leaf.dotted), w->props_));
  }
  w->fs_ = std::move(fs);
  w->path_ = path;
  ASSIGN_OR_RETURN(w->file_, w->fs_->OpenForWrite(path));
  RETURN_NOT_OK(w->file_->Append(kMagic, 4));
  return w;
}

ParquetWriter::~ParquetWriter() {
  if (file_ && !closed_) (void)file_->Close();
}

int64_t ParquetWriter::bytes_written() const { return (file_ ? file_->Tell() : 0) + buffered_bytes(); }

int64_t ParquetWriter::buffered_bytes() const {
  int64_t total = 0;
  for (const auto& c : columns_) total += c->buffered_bytes();
  return total;
}

Status ParquetWriter::CheckBatch(const columnar::RecordBatch& batch) const {
  if (batch.num_columns() != columnar_schema_.size()) {
    return Status::InvalidArgument("batch has " + std::to_string(batch.num_columns()) + " columns, Parquet file " +
                                   path_ + " has " + std::to_string(columnar_schema_.size()));
  }
  for (size_t i = 0; i < batch.num_columns(); ++i) {
    const columnar::Field& f = columnar_schema_[i];
    const columnar::VectorPtr& c = batch.column(i);
    if (!c || !c->type()->Equals(*f.type)) {
      return Status::InvalidArgument("column '" + f.name + "' of the batch has type " +
                                     (c ? c->type()->ToString() : std::string("<missing>")) + ", expected " +
                                     f.type->ToString());
    }
    if (c->size() < batch.num_rows) {
      return Status::InvalidArgument("column '" + f.name + "' has " + std::to_string(c->size()) +
                                     " rows, the batch " + std::to_string(batch.num_rows));
    }
  }
  return Status::OK();
}

Status ParquetWriter::WriteBatch(const columnar::RecordBatch& batch) {
  if (closed_) return Status::InvalidArgument("Parquet file " + path_ + " is already closed");
  RETURN_NOT_OK(CheckBatch(batch));
  const int64_t n = batch.num_rows;
  int64_t pos = 0;
  while (pos < n) {
    int64_t take = std::min({n - pos, props_.max_row_group_rows() - group_rows_, kPieceRows});
    for (size_t f = 0; f < schema_.fields.size(); ++f) {
      const WriteNode& field = schema_.fields[f];
      RETURN_NOT_OK(levels_.Shred(field, schema_, *batch.column(f), pos, pos + take, &leaf_levels_));
      for (int k = 0; k < field.num_leaves; ++k) {
        RETURN_NOT_OK(columns_[static_cast<size_t>(field.first_leaf + k)]->Write(leaf_levels_[static_cast<size_t>(k)]));
      }
    }
    group_rows_ += take;
    pos += take;
    int64_t buffered = buffered_bytes();
    peak_buffered_ = std::max(peak_buffered_, buffered);
    if (group_rows_ >= props_.max_row_group_rows() || buffered >= props_.max_row_group_bytes()) {
      RETURN_NOT_OK(FlushRowGroup());
    }
  }
  return Status::OK();
}

Status ParquetWriter::FlushRowGroup() {
  if (group_rows_ == 0) return Status::OK();
  RowGroup rg;
  rg.num_rows = group_rows_;
  rg.file_offset = file_->Tell();
  rg.ordinal = static_cast<int16_t>(std::min<size_t>(meta_.row_groups.size(), std::numeric_limits<int16_t>::max()));
  rg.sorting_columns = sorting_;
  int64_t compressed = 0;
  std::vector<std::optional<ColumnIndex>> cis;
  std::vector<std::optional<OffsetIndex>> ois;
  std::vector<std::unique_ptr<BloomFilter>> blooms;
  for (auto& c : columns_) {
    ColumnWriter::Chunk chunk;
    RETURN_NOT_OK(c->WriteChunk(file_.get(), &chunk).WithContext(path_));
    rg.total_byte_size += chunk.chunk.meta_data->total_uncompressed_size;
    compressed += chunk.chunk.meta_data->total_compressed_size;
    rg.columns.push_back(std::move(chunk.chunk));
    cis.push_back(std::move(chunk.column_index));
    ois.push_back(std::move(chunk.offset_index));
    blooms.push_back(std::move(chunk.bloom_filter));
  }
  rg.total_compressed_size = compressed;
  std::string header;
  for (size_t i = 0; i < blooms.size(); ++i) {
    if (!blooms[i]) continue;
    BloomFilterHeader bh;
    bh.num_bytes = static_cast<int32_t>(blooms[i]->num_bytes());
    bh.algorithm_block = bh.hash_xxhash = bh.compression_none = true;
    header.clear();
    EncodeBloomFilterHeader(bh, &header);
    ColumnMetaData& m = *rg.columns[i].meta_data;
    m.bloom_filter_offset = file_->Tell();
    m.bloom_filter_length = static_cast<int32_t>(header.size() + static_cast<size_t>(blooms[i]->num_bytes()));
    RETURN_NOT_OK(file_->Append(header));
    RETURN_NOT_OK(file_->Append(blooms[i]->bytes(), static_cast<size_t>(blooms[i]->num_bytes())));
  }
  meta_.row_groups.push_back(std::move(rg));
  column_indexes_.push_back(std::move(cis));
  offset_indexes_.push_back(std::move(ois));
  rows_written_ += group_rows_;
  group_rows_ = 0;
  return Status::OK();
}

Result<FileMetaData> ParquetWriter::Close() {
  if (closed_) return Status::InvalidArgument("Parquet file " + path_ + " is already closed");
  RETURN_NOT_OK(FlushRowGroup());
  std::string buf;
  for (size_t g = 0; g < column_indexes_.size(); ++g) {
    for (size_t c = 0; c < column_indexes_[g].size(); ++c) {
      if (!column_indexes_[g][c]) continue;
      buf.clear();
      EncodeColumnIndex(*column_indexes_[g][c], &buf);
      meta_.row_groups[g].columns[c].column_index_offset = file_->Tell();
      meta_.row_groups[g].columns[c].column_index_length = static_cast<int32_t>(buf.size());
      RETURN_NOT_OK(file_->Append(buf));
    }
  }
  for (size_t g = 0; g < offset_indexes_.size(); ++g) {
    for (size_t c = 0; c < offset_indexes_[g].size(); ++c) {
      if (!offset_indexes_[g][c]) continue;
      buf.clear();
      EncodeOffsetIndex(*offset_indexes_[g][c], &buf);
      meta_.row_groups[g].columns[c].offset_index_offset = file_->Tell();
      meta_.row_groups[g].columns[c].offset_index_length = static_cast<int32_t>(buf.size());
      RETURN_NOT_OK(file_->Append(buf));
    }
  }
  column_indexes_.clear();
  offset_indexes_.clear();

  meta_.version = 1;
  meta_.schema = schema_.elements;
  meta_.num_rows = rows_written_;
  meta_.key_value_metadata = props_.key_value_metadata();
  meta_.created_by = props_.created_by();
  meta_.column_orders.assign(schema_.leaves.size(), ColumnOrder{1});
  buf.clear();
  EncodeFileMetaData(meta_, &buf);
  uint32_t len = static_cast<uint32_t>(buf.size());
  uint8_t le[4] = {static_cast<uint8_t>(len), static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len >> 16),
                   static_cast<uint8_t>(len >> 24)};
  RETURN_NOT_OK(file_->Append(buf));
  RETURN_NOT_OK(file_->Append(le, 4));
  RETURN_NOT_OK(file_->Append(kMagic, 4));
  RETURN_NOT_OK(file_->Sync());
  RETURN_NOT_OK(file_->Close());
  closed_ = true;
  return meta_;
}

}  // namespace shoal::parquet
