#include "parquet/page_writer.h"

#include <limits>

#include "parquet/compression.h"
#include "parquet/crc32.h"
#include "parquet/rle_bit_packed.h"

namespace shoal::parquet {
namespace {

int BitWidth(int max_level) {
  int w = 0;
  while ((1 << w) <= max_level) ++w;
  return w;
}

std::string_view View(const columnar::Buffer& b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

Status CheckPageSize(int64_t n) {
  if (n > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("Parquet page of " + std::to_string(n) + " bytes exceeds the 2 GiB page limit");
  }
  return Status::OK();
}

}  // namespace

PageWriter::PageWriter(CompressionCodec codec, int level, bool crc, DataPageVersion version)
    : codec_(codec), level_(level), crc_(crc), version_(version) {}

void PageWriter::Reset() {
  data_.Clear();
  dictionary_.Clear();
  uncompressed_ = 0;
  dictionary_uncompressed_ = 0;
  data_pages_ = 0;
}

Status PageWriter::Compress(std::string_view in, std::string* out) {
  out->clear();
  if (codec_ == CompressionCodec::kUncompressed) {
    out->assign(in.data(), in.size());
    return Status::OK();
  }
  return parquet::Compress(codec_, in, out, level_);
}

Result<int64_t> PageWriter::CompressedSize(const columnar::Buffer& in) {
  if (codec_ == CompressionCodec::kUncompressed) return static_cast<int64_t>(in.size());
  RETURN_NOT_OK(Compress(View(in), &compressed_));
  return static_cast<int64_t>(compressed_.size());
}

void PageWriter::AppendPage(PageHeader* header, std::string_view body1, std::string_view body2,
                            columnar::Buffer* dst) {
  if (crc_) {
    uint32_t c = Crc32(Crc32(0, body1.data(), body1.size()), body2.data(), body2.size());
    header->crc = static_cast<int32_t>(c);
  }
  header_.clear();
  EncodePageHeader(*header, &header_);
  dst->Append(header_.data(), header_.size());
  dst->Append(body1.data(), body1.size());
  dst->Append(body2.data(), body2.size());
}

Status PageWriter::WriteDataPage(const DataPageInfo& p, int64_t* offset, int32_t* size) {
  levels_.Clear();
  int rep_bytes = 0, def_bytes = 0;
  const bool v2 = version_ == DataPageVersion::kV2;
  auto encode_levels = [&](const uint16_t* lv, int max_level) {
    int64_t before = static_cast<int64_t>(levels_.size());
    if (v2) {
      RleBitPackedEncoder enc(BitWidth(max_level), &levels_);
      enc.PutBatch(lv, p.num_levels);
      enc.Flush();
    } else {
      EncodeRleWithLengthPrefix(lv, p.num_levels, BitWidth(max_level), &levels_);
    }
    return static_cast<int>(static_cast<int64_t>(levels_.size()) - before);
  };
  if (p.max_rep > 0) rep_bytes = encode_levels(p.rep, p.max_rep);
  if (p.max_def > 0) def_bytes = encode_levels(p.def, p.max_def);

  PageHeader h;
  *offset = static_cast<int64_t>(data_.size());
  size_t before = data_.size();
  if (!v2) {
    body_.Clear();
    body_.Append(levels_.data(), levels_.size());
    body_.Append(p.values.data(), p.values.size());
    RETURN_NOT_OK(CheckPageSize(static_cast<int64_t>(body_.size())));
    RETURN_NOT_OK(Compress(View(body_), &compressed_));
    RETURN_NOT_OK(CheckPageSize(static_cast<int64_t>(compressed_.size())));
    h.type = PageType::kDataPage;
    h.uncompressed_page_size = static_cast<int32_t>(body_.size());
    h.compressed_page_size = static_cast<int32_t>(compressed_.size());
    DataPageHeader d;
    d.num_values = static_cast<int32_t>(p.num_levels);
    d.encoding = p.encoding;
    d.definition_level_encoding = Encoding::kRle;
    d.repetition_level_encoding = Encoding::kRle;
    d.statistics = p.statistics;
    h.data_page_header = std::move(d);
    AppendPage(&h, compressed_, {}, &data_);
    uncompressed_ += static_cast<int64_t>(header_.size() + body_.size());
  } else {
    RETURN_NOT_OK(CheckPageSize(static_cast<int64_t>(levels_.size() + p.values.size())));
    bool compress = codec_ != CompressionCodec::kUncompressed;
    if (compress) {
      RETURN_NOT_OK(Compress(p.values, &compressed_));
    } else {
      compressed_.assign(p.values.data(), p.values.size());
    }
    RETURN_NOT_OK(CheckPageSize(static_cast<int64_t>(levels_.size() + compressed_.size())));
    h.type = PageType::kDataPageV2;
    h.uncompressed_page_size = static_cast<int32_t>(levels_.size() + p.values.size());
    h.compressed_page_size = static_cast<int32_t>(levels_.size() + compressed_.size());
    DataPageHeaderV2 d;
    d.num_values = static_cast<int32_t>(p.num_levels);
    d.num_nulls = static_cast<int32_t>(p.num_nulls);
    d.num_rows = static_cast<int32_t>(p.num_rows);
    d.encoding = p.encoding;
    d.definition_levels_byte_length = def_bytes;
    d.repetition_levels_byte_length = rep_bytes;
    d.is_compressed = compress;
    d.statistics = p.statistics;
    h.data_page_header_v2 = std::move(d);
    AppendPage(&h, View(levels_), compressed_, &data_);
    uncompressed_ += static_cast<int64_t>(header_.size() + levels_.size() + p.values.size());
  }
  *size = static_cast<int32_t>(data_.size() - before);
  ++data_pages_;
  return Status::OK();
}

Status PageWriter::WriteDictionaryPage(std::string_view plain_values, int64_t num_values) {
  RETURN_NOT_OK(CheckPageSize(static_cast<int64_t>(plain_values.size())));
  RETURN_NOT_OK(Compress(plain_values, &compressed_));
  RETURN_NOT_OK(CheckPageSize(static_cast<int64_t>(compressed_.size())));
  PageHeader h;
  h.type = PageType::kDictionaryPage;
  h.uncompressed_page_size = static_cast<int32_t>(plain_values.size());
  h.compressed_page_size = static_cast<int32_t>(compressed_.size());
  DictionaryPageHeader d;
  d.num_values = static_cast<int32_t>(num_values);
  d.encoding = Encoding::kPlain;
  d.is_sorted = false;
  h.dictionary_page_header = d;
  uncompressed_ -= dictionary_uncompressed_;
  dictionary_.Clear();
  AppendPage(&h, compressed_, {}, &dictionary_);
  dictionary_uncompressed_ = static_cast<int64_t>(header_.size() + plain_values.size());
  uncompressed_ += dictionary_uncompressed_;
  return Status::OK();
}

}  // namespace shoal::parquet
