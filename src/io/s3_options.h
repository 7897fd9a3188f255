// S3Options: where and how the S3 file system connects, configured the AWS way (environment
// variables) so a session can later override single fields with `SET s3_...` settings.
//
// Thread-safety: a value; copy freely.
#pragma once

#include <cstdint>
#include <string>

namespace shoal::io {

struct S3Options {
  // Credentials. Both empty: requests go unsigned (public buckets). Never printed.
  std::string access_key_id;      // AWS_ACCESS_KEY_ID
  std::string secret_access_key;  // AWS_SECRET_ACCESS_KEY
  std::string session_token;      // AWS_SESSION_TOKEN; empty = none
  std::string region = "us-east-1";  // AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1
  // "http(s)://host[:port]" of an S3-compatible server (AWS_ENDPOINT_URL_S3, else
  // AWS_ENDPOINT_URL); empty = AWS, https://s3.<region>.amazonaws.com.
  std::string endpoint;
  // Path-style addressing (endpoint/bucket/key) instead of virtual-hosted (bucket.host/key).
  // Always used with a custom endpoint; AWS_S3_FORCE_PATH_STYLE=true forces it for AWS too.
  bool force_path_style = false;

  int64_t connect_timeout_ms = 3000;   // TCP + TLS connect, per attempt
  int64_t request_timeout_ms = 30000;  // a whole request, per attempt
  int max_attempts = 5;                // tries of a retryable request (5xx, SlowDown, connect)
  int64_t initial_backoff_ms = 50;     // backoff before the 2nd try; doubles, full jitter
  int64_t max_backoff_ms = 2000;       // cap of one backoff sleep
  int64_t part_size = 8 << 20;         // multipart upload above this size (S3 minimum: 5 MiB)
  int list_page_size = 1000;           // max-keys of one ListObjectsV2 page (S3 maximum: 1000)
  // Benchmarks and tests: every request attempt waits this long before it is sent, as a
  // distant server would make it (SHOAL_S3_INJECT_LATENCY_MS); 0 = none.
  int64_t injected_latency_ms = 0;
  // Every request, its dependent round trip and its byte range printed to stderr when it is
  // answered (SHOAL_S3_TRACE=1): a debugging knob for the read path's round trips.
  bool trace = false;

  // The defaults overridden by the AWS_* environment variables named above.
  static S3Options FromEnvironment();

  bool PathStyle() const { return force_path_style || !endpoint.empty(); }
};

}  // namespace shoal::io
