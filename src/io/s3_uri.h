// S3 object addresses: `s3://bucket/key` paths and the URI encoding S3 requests need.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "shoal/status.h"

namespace shoal::io {

struct S3Location {
  std::string bucket;
  std::string key;  // no leading '/'; "" for the bucket itself; trailing '/' removed
};

// True when `path` starts with "s3://".
bool IsS3Path(std::string_view path);

// Splits "s3://bucket/key..." (InvalidArgument for another scheme or an empty or malformed
// bucket name).
Result<S3Location> ParseS3Path(std::string_view path);

// "s3://bucket/key".
std::string S3PathOf(std::string_view bucket, std::string_view key);

// RFC 3986 percent-encoding as SigV4 wants it: A-Z a-z 0-9 - _ . ~ stay, every other byte
// becomes %XX (upper-case hex); '/' stays when `keep_slash` (object keys in a URL path) and is
// encoded otherwise (query values).
std::string UriEncode(std::string_view s, bool keep_slash);

}  // namespace shoal::io
