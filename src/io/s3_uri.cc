#include "io/s3_uri.h"

namespace shoal::io {

namespace {
constexpr std::string_view kScheme = "s3://";
}

bool IsS3Path(std::string_view path) { return path.substr(0, kScheme.size()) == kScheme; }

Result<S3Location> ParseS3Path(std::string_view path) {
  if (!IsS3Path(path)) {
    std::string m = "'";
    m.append(path).append("' is not an s3:// path");
    return Status::InvalidArgument(std::move(m));
  }
  std::string_view rest = path.substr(kScheme.size());
  size_t slash = rest.find('/');
  S3Location loc;
  loc.bucket = std::string(rest.substr(0, slash));
  if (loc.bucket.empty()) {
    return Status::InvalidArgument("S3 path '" + std::string(path) + "' names no bucket (expected s3://bucket/key)");
  }
  for (char c : loc.bucket) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
              c == '.' || c == '_';
    if (!ok) {
      return Status::InvalidArgument("S3 path '" + std::string(path) + "': bucket name '" + loc.bucket +
                                     "' has a character a bucket name cannot have");
    }
  }
  if (slash != std::string_view::npos) {
    std::string_view key = rest.substr(slash + 1);
    while (!key.empty() && key.front() == '/') key.remove_prefix(1);
    while (!key.empty() && key.back() == '/') key.remove_suffix(1);
    loc.key = std::string(key);
  }
  return loc;
}

std::string S3PathOf(std::string_view bucket, std::string_view key) {
  std::string out(kScheme);
  out.append(bucket);
  if (!key.empty()) out.append("/").append(key);
  return out;
}

std::string UriEncode(std::string_view s, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() + 8);
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (alnum || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

}  // namespace shoal::io
