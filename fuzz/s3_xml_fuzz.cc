// libFuzzer target for what an S3 server answers (untrusted network input): the ListObjectsV2
// parser, the tag scanner and entity decoder, and the time parser must never crash, and a
// parsed listing must hold only what the input spelled (sizes never negative).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "io/s3_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto page = shoal::io::ParseListObjectsV2(text);
  if (page.ok()) {
    for (const auto& o : page->objects) {
      if (o.size < 0) {
        std::fprintf(stderr, "listing with a negative size\n");
        std::abort();
      }
    }
    if (page->truncated && page->next_continuation_token.empty()) {
      std::fprintf(stderr, "truncated listing without a continuation token\n");
      std::abort();
    }
  }
  (void)shoal::io::XmlText(text, "Code");
  (void)shoal::io::XmlElements(text, "Part");
  if (shoal::io::XmlUnescape(text).size() > text.size()) {
    std::fprintf(stderr, "unescaping made the text longer\n");
    std::abort();
  }
  (void)shoal::io::ParseS3Time(text);
  return 0;
}
