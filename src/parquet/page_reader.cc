#include "parquet/page_reader.h"

#include <cstring>

#include "parquet/compression.h"
#include "parquet/crc32.h"
#include "parquet/page_buffer_cache.h"

namespace shoal::parquet {

Result<std::unique_ptr<PageReader>> PageReader::Make(const io::RandomAccessFile* file, const ColumnMetaData& meta,
                                                     std::string column, const OffsetIndex* offset_index,
                                                     const ReaderOptions& options, ReadStats* stats) {
  std::unique_ptr<PageReader> r(new PageReader());
  r->file_ = file;
  r->column_ = std::move(column);
  r->codec_ = meta.codec;
  r->options_ = options;
  r->stats_ = stats;
  auto fail = [&](const std::string& what) {
    return Status::Corruption(file->path() + ": column '" + r->column_ + "': " + what);
  };
  int64_t start = meta.data_page_offset;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 && *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  int64_t length = meta.total_compressed_size;
  int64_t fsize = file->Size();
  if (start < 4 || length < 0 || start > fsize || length > fsize - start) {
    return fail("column chunk range [" + std::to_string(start) + ", +" + std::to_string(length) +
                ") lies outside the file (size " + std::to_string(fsize) + ")");
  }
  bool use_index = offset_index != nullptr && !offset_index->page_locations.empty();
  if (use_index) {
    const auto& locs = offset_index->page_locations;
    int64_t prev_end = start, prev_row = -1;
    for (const PageLocation& l : locs) {
      if (l.offset < prev_end || l.compressed_page_size <= 0 || l.offset > fsize ||
          l.compressed_page_size > fsize - l.offset || l.first_row_index <= prev_row) {
        use_index = false;  // an inconsistent index is ignored; the chunk is read whole
        break;
      }
      prev_end = l.offset + l.compressed_page_size;
      prev_row = l.first_row_index;
    }
  }
  if (use_index) {
    const auto& locs = offset_index->page_locations;
    r->offset_index_ = offset_index;
    if (locs[0].offset > start) r->segments_.push_back({start, locs[0].offset - start, -1});
    for (size_t i = 0; i < locs.size(); ++i) {
      r->segments_.push_back({locs[i].offset, locs[i].compressed_page_size, static_cast<int>(i)});
    }
  } else if (length > 0) {
    r->segments_.push_back({start, length, -1});
  }
  return r;
}

PageReader::~PageReader() { PageBufferCache::Give(&buffer_); }

Status PageReader::LoadSegment(size_t i) {
  const Segment& s = segments_[i];
  PageBufferCache::Fit(&buffer_, static_cast<size_t>(s.length));
  buffer_.Resize(static_cast<size_t>(s.length));
  RETURN_NOT_OK(file_->ReadAt(s.offset, s.length, buffer_.data()));
  if (stats_) {
    stats_->bytes_read += s.length;
    stats_->io_requests += 1;
  }
  buffer_offset_ = s.offset;
  pos_ = 0;
  current_page_index_ = s.page_index;
  return Status::OK();
}

Status PageReader::SeekToPage(int page_index) {
  if (!offset_index_) return Status::Internal("SeekToPage without an OffsetIndex");
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (segments_[i].page_index == page_index) {
      next_segment_ = i;
      buffer_.Clear();
      pos_ = 0;
      return Status::OK();
    }
  }
  return Status::Internal("page index out of range");
}

Result<bool> PageReader::NextLeadingPage(Page* page) {
  if (!offset_index_ || segments_.empty() || segments_[0].page_index != -1) return false;
  if (next_segment_ == 0) {
    RETURN_NOT_OK(LoadSegment(next_segment_++));
  } else if (current_page_index_ != -1 || next_segment_ != 1) {
    return false;
  }
  if (pos_ >= static_cast<int64_t>(buffer_.size())) return false;
  return ParsePage(page);
}

Result<bool> PageReader::Next(Page* page) {
  while (pos_ >= static_cast<int64_t>(buffer_.size())) {
    if (next_segment_ >= segments_.size()) return false;
    RETURN_NOT_OK(LoadSegment(next_segment_++));
  }
  return ParsePage(page);
}

Result<bool> PageReader::ParsePage(Page* page) {
  auto fail = [&](const std::string& what) {
    return Status::Corruption(file_->path() + ": column '" + column_ + "': " + what + " (page at offset " +
                              std::to_string(buffer_offset_ + pos_) + ")");
  };
  int64_t left = static_cast<int64_t>(buffer_.size()) - pos_;
  *page = Page();
  size_t consumed = 0;
  Status st = DecodePageHeader(std::string_view(reinterpret_cast<const char*>(buffer_.data() + pos_), left),
                               &page->header, &consumed);
  if (!st.ok()) return fail(st.message());
  const PageHeader& h = page->header;
  if (h.compressed_page_size > left - static_cast<int64_t>(consumed)) {
    // Some writers under-declare total_compressed_size; when reading the chunk whole, extend the
    // read to the page's end if that stays inside the file's data (before the footer).
    int64_t missing = h.compressed_page_size - (left - static_cast<int64_t>(consumed));
    int64_t seg_end = buffer_offset_ + static_cast<int64_t>(buffer_.size());
    if (current_page_index_ >= 0 || seg_end + missing > file_->Size() - 8) {
      return fail("page of " + std::to_string(h.compressed_page_size) + " bytes extends past the column chunk");
    }
    size_t old = buffer_.size();
    buffer_.Resize(old + static_cast<size_t>(missing));
    RETURN_NOT_OK(file_->ReadAt(seg_end, missing, buffer_.data() + old));
    if (stats_) {
      stats_->bytes_read += missing;
      stats_->io_requests += 1;
    }
  }
  if (h.uncompressed_page_size > kMaxPageBytes) {
    return fail("uncompressed page size " + std::to_string(h.uncompressed_page_size) + " exceeds 1 GiB");
  }
  if (h.uncompressed_page_size > options_.max_page_bytes) {
    return Status::OutOfMemory(file_->path() + ": column '" + column_ + "': a page of " +
                               std::to_string(h.uncompressed_page_size) +
                               " bytes uncompressed does not fit the memory limit of " +
                               std::to_string(options_.max_page_bytes) + " bytes");
  }
  page->offset = buffer_offset_ + pos_;
  page->body = buffer_.data() + pos_ + consumed;
  page->body_size = h.compressed_page_size;
  page->page_index = current_page_index_;
  pos_ += static_cast<int64_t>(consumed) + h.compressed_page_size;
  if (h.crc && options_.verify_crc) {
    uint32_t crc = Crc32(0, page->body, static_cast<size_t>(page->body_size));
    if (crc != static_cast<uint32_t>(*h.crc)) return fail("page CRC32 mismatch");
  }
  return true;
}

Status PageReader::Decompress(const Page& page, columnar::Buffer* out) const {
  const PageHeader& h = page.header;
  size_t usize = static_cast<size_t>(h.uncompressed_page_size);
  PageBufferCache::Fit(out, usize);
  out->Resize(usize);
  auto wrap = [&](const Status& st) {
    return Status(st.code(), file_->path() + ": column '" + column_ + "': " + st.message());
  };
  if (h.type == PageType::kDataPageV2 && h.data_page_header_v2) {
    const DataPageHeaderV2& v2 = *h.data_page_header_v2;
    int64_t levels = int64_t{v2.definition_levels_byte_length} + v2.repetition_levels_byte_length;
    if (v2.definition_levels_byte_length < 0 || v2.repetition_levels_byte_length < 0 || levels > page.body_size ||
        levels > static_cast<int64_t>(usize)) {
      return wrap(Status::Corruption("v2 page level lengths exceed the page size"));
    }
    if (levels) std::memcpy(out->data(), page.body, static_cast<size_t>(levels));
    const uint8_t* in = page.body + levels;
    size_t in_size = static_cast<size_t>(page.body_size - levels);
    size_t out_size = usize - static_cast<size_t>(levels);
    if (out_size == 0) return Status::OK();
    CompressionCodec codec = v2.is_compressed ? codec_ : CompressionCodec::kUncompressed;
    Status st = parquet::Decompress(codec, in, in_size, out->data() + levels, out_size);
    return st.ok() ? st : wrap(st);
  }
  if (usize == 0) return Status::OK();
  Status st = parquet::Decompress(codec_, page.body, static_cast<size_t>(page.body_size), out->data(), usize);
  return st.ok() ? st : wrap(st);
}

Status PageReader::DecompressV2Values(const Page& page, columnar::Buffer* out) const {
  const PageHeader& h = page.header;
  auto fail = [&](const std::string& what) {
    return Status::Corruption(file_->path() + ": column '" + column_ + "': " + what);
  };
  if (h.type != PageType::kDataPageV2 || !h.data_page_header_v2) return Status::Internal("not a v2 data page");
  const DataPageHeaderV2& v2 = *h.data_page_header_v2;
  int64_t levels = int64_t{v2.definition_levels_byte_length} + v2.repetition_levels_byte_length;
  if (v2.definition_levels_byte_length < 0 || v2.repetition_levels_byte_length < 0 || levels > page.body_size ||
      levels > h.uncompressed_page_size) {
    return fail("v2 page level lengths exceed the page size");
  }
  size_t out_size = static_cast<size_t>(h.uncompressed_page_size - levels);
  PageBufferCache::Fit(out, out_size);
  out->Resize(out_size);
  if (out_size == 0) return Status::OK();
  CompressionCodec codec = v2.is_compressed ? codec_ : CompressionCodec::kUncompressed;
  Status st = parquet::Decompress(codec, page.body + levels, static_cast<size_t>(page.body_size - levels), out->data(),
                                  out_size);
  return st.ok() ? st : Status(st.code(), file_->path() + ": column '" + column_ + "': " + st.message());
}

}  // namespace shoal::parquet
