#include "parquet/byte_stream_split.h"

#include <string>

namespace shoal::parquet {
namespace {

template <int W>
void Gather(const uint8_t* data, int64_t stride, int64_t first, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < W; ++k) out[i * W + k] = data[k * stride + first + i];
  }
}

template <int W>
void Scatter(const uint8_t* values, int64_t n, uint8_t* out) {
  for (int k = 0; k < W; ++k) {
    uint8_t* stream = out + k * n;
    for (int64_t i = 0; i < n; ++i) stream[i] = values[i * W + k];
  }
}

}  // namespace

Status ByteStreamSplitDecoder::Reset(const uint8_t* data, int64_t size, int width) {
  if (width <= 0) return Status::InvalidArgument("BYTE_STREAM_SPLIT: width must be positive");
  if (size < 0 || size % width != 0) {
    return Status::Corruption("BYTE_STREAM_SPLIT: page data of " + std::to_string(size) +
                              " bytes is not a multiple of the value width " +
                              std::to_string(width));
  }
  data_ = data;
  width_ = width;
  num_values_ = size / width;
  next_ = 0;
  return Status::OK();
}

Status ByteStreamSplitDecoder::Skip(int64_t n) {
  if (n < 0 || n > num_values_ - next_) {
    return Status::Corruption("BYTE_STREAM_SPLIT: " + std::to_string(n) + " values requested, " +
                              std::to_string(num_values_ - next_) + " remain in page data");
  }
  next_ += n;
  return Status::OK();
}

Status ByteStreamSplitDecoder::Decode(int64_t n, uint8_t* out) {
  const int64_t first = next_;
  RETURN_NOT_OK(Skip(n));
  switch (width_) {
    case 2: Gather<2>(data_, num_values_, first, n, out); break;
    case 4: Gather<4>(data_, num_values_, first, n, out); break;
    case 8: Gather<8>(data_, num_values_, first, n, out); break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        for (int k = 0; k < width_; ++k) out[i * width_ + k] = data_[k * num_values_ + first + i];
      }
  }
  return Status::OK();
}

void EncodeByteStreamSplit(const uint8_t* values, int width, int64_t n, columnar::Buffer* out) {
  const size_t at = out->size();
  out->Resize(at + static_cast<size_t>(n) * width);
  uint8_t* dst = out->data() + at;
  switch (width) {
    case 2: Scatter<2>(values, n, dst); break;
    case 4: Scatter<4>(values, n, dst); break;
    case 8: Scatter<8>(values, n, dst); break;
    default:
      for (int k = 0; k < width; ++k) {
        for (int64_t i = 0; i < n; ++i) dst[k * n + i] = values[i * width + k];
      }
  }
}

}  // namespace shoal::parquet
