// libFuzzer target for the Thrift compact structures of Parquet: the first input byte picks
// the decoder (file metadata, page header, offset index, column index, bloom filter header,
// statistics), the rest is its input. Any error Status is fine; a crash, sanitizer report or
// runaway allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parquet/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal::parquet;
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t consumed = 0;
  switch (data[0] % 6) {
    case 0: {
      FileMetaData m;
      (void)DecodeFileMetaData(bytes, &m);
      break;
    }
    case 1: {
      PageHeader h;
      (void)DecodePageHeader(bytes, &h, &consumed);
      break;
    }
    case 2: {
      OffsetIndex o;
      (void)DecodeOffsetIndex(bytes, &o);
      break;
    }
    case 3: {
      ColumnIndex c;
      (void)DecodeColumnIndex(bytes, &c);
      break;
    }
    case 4: {
      BloomFilterHeader b;
      (void)DecodeBloomFilterHeader(bytes, &b, &consumed);
      break;
    }
    default: {
      Statistics s;
      (void)DecodeStatistics(bytes, &s);
      break;
    }
  }
  return 0;
}
