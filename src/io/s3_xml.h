// The little XML S3 answers with: ListObjectsV2 pages, error bodies, multipart upload ids.
// A tag scanner, not a general XML parser: S3's answers are flat, well-known documents, and any
// text that does not have the expected shape is a named Corruption, never a crash.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

namespace shoal::io {

// The text of the first <tag>...</tag> element in `xml`, entities decoded; nullopt if none.
std::optional<std::string> XmlText(std::string_view xml, std::string_view tag);

// The raw bodies of every <tag>...</tag> element in `xml`, in order.
std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag);

// Decodes &amp; &lt; &gt; &quot; &apos; and numeric &#N; / &#xN; references to ASCII; any
// other entity is kept literally.
std::string XmlUnescape(std::string_view s);

struct S3ListedObject {
  std::string key;
  int64_t size = 0;
  int64_t mtime_ms = 0;
};

struct S3ListPage {
  std::vector<S3ListedObject> objects;
  std::vector<std::string> common_prefixes;
  bool truncated = false;
  std::string next_continuation_token;
};

// Parses a ListObjectsV2 answer (ListBucketResult).
Result<S3ListPage> ParseListObjectsV2(std::string_view xml);

// "2026-12-07T06:47:52.123Z" (ISO 8601, UTC) or "Mon, 07 Dec 2026 06:47:52 GMT" (HTTP date)
// to milliseconds since the Unix epoch; nullopt when neither.
std::optional<int64_t> ParseS3Time(std::string_view text);

}  // namespace shoal::io
