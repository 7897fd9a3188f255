// S3Client: signed HTTP requests to an S3-compatible server over libcurl, with connection reuse
// (a pool of curl handles, each keeping its connections alive), connect and request timeouts,
// retries with full-jitter exponential backoff, and request/byte counters per kind of request.
//
// Requests are signed with SigV4 by libcurl (CURLOPT_AWS_SIGV4) and always carry
// `x-amz-content-sha256: UNSIGNED-PAYLOAD`. Query parameters are sent sorted by name and
// RFC 3986-encoded ('/' as %2F), the canonical form SigV4 signs. Credentials never appear in
// a Status message, a log line or the counters.
//
// Thread-safety: thread-safe; many threads may send requests at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/s3_options.h"
#include "shoal/status.h"

namespace shoal::io {

// What a request is counted as (`--stats`): GET reads a whole object, GET_RANGE a byte range
// of one; multipart and copy requests count as PUT.
enum class S3RequestKind : int { kGet = 0, kGetRange, kHead, kPut, kList, kDelete };
inline constexpr int kS3RequestKinds = 6;
const char* S3RequestKindName(S3RequestKind kind);

// Counters since the client was made; a snapshot, summed over all threads.
struct S3Stats {
  int64_t requests[kS3RequestKinds] = {};  // HTTP requests sent, retries included
  int64_t bytes_in[kS3RequestKinds] = {};  // response body bytes received
  int64_t bytes_out[kS3RequestKinds] = {}; // request body bytes sent
  int64_t retries = 0;                     // requests sent again after a retryable failure
  int64_t connections = 0;                 // TCP (+TLS) connections opened; the rest reused one
  // Dependent round trips: the longest chain of requests each sent after the one before it
  // answered (requests in flight together count once). A lower bound of the time spent
  // waiting is this times the network's round-trip time.
  int64_t round_trips = 0;
  int64_t Requests() const;
  // The counters gained since `earlier` (a snapshot of the same client).
  S3Stats Since(const S3Stats& earlier) const;
  // {"requests":{"GET":n,...},"bytes_in":{...},"bytes_out":{...},"retries":n,"connections":n,
  //  "round_trips":n}
  std::string ToJson() const;
};

struct S3Request {
  S3RequestKind kind = S3RequestKind::kGet;
  std::string method = "GET";  // GET, HEAD, PUT, POST, DELETE
  std::string bucket;
  std::string key;  // "" addresses the bucket
  std::vector<std::pair<std::string, std::string>> query;  // unencoded names and values
  std::vector<std::string> headers;                         // "Name: value"
  std::string_view body;                                    // PUT / POST payload
  int64_t range_offset = -1;                                // >= 0: Range: bytes=offset-(offset+length-1)
  int64_t range_length = 0;
  // False for a request that must not be sent twice without the caller looking first (a
  // conditional PUT): it is retried only when it surely did not reach the server (connect
  // failures, 503 SlowDown); otherwise the response or error comes back with outcome_unknown.
  bool idempotent = true;
};

struct S3Response {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
  // The request may or may not have taken effect (a transport error after sending, or a 5xx
  // other than 503); only set for non-idempotent requests.
  bool outcome_unknown = false;
  std::string transport_error;  // set with outcome_unknown when no HTTP status came back

  std::string Header(const std::string& lower_name) const;
};

// Faults injected between the client and the server, for tests of what each fault does
// (doc/object_storage.md). Called from any thread sending a request.
class S3FaultInjector {
 public:
  virtual ~S3FaultInjector() = default;
  // Before an attempt is sent: return true to fail it without sending, with *fake as the
  // server's answer (e.g. 503 SlowDown) or *curl_code set to a curl error (e.g. connect refused,
  // as a negative code: surely not sent).
  virtual bool BeforeSend(const S3Request& req, S3Response* fake, int* curl_code) { return false; }
  // After a real exchange: may rewrite its outcome (a reset after the server acted, a
  // truncated body) through *resp and *curl_code (positive: the request was sent).
  virtual void AfterSend(const S3Request& req, S3Response* resp, int* curl_code) {}
};

class S3Client {
 public:
  explicit S3Client(S3Options options);
  ~S3Client();
  S3Client(const S3Client&) = delete;
  S3Client& operator=(const S3Client&) = delete;

  // Sends `req`, retrying retryable failures. Returns the response for any HTTP status the
  // caller must judge (2xx, 3xx, 4xx, and 5xx once retries are exhausted or not allowed), or an
  // IOError when the server could not be reached or answered only with transport errors.
  Result<S3Response> Send(const S3Request& req);

  // The URL of `req` as sent (no credentials in it); for messages.
  std::string UrlOf(const S3Request& req) const;

  S3Stats stats() const;
  // Adds `earlier` to the counters: a client that replaces another (new settings) goes on
  // counting where that one stopped, so differences of stats() stay meaningful.
  void CarryCounters(const S3Stats& earlier);
  const S3Options& options() const { return options_; }

  // Full-jitter backoff before try `attempt` (1 = the first retry).
  void Backoff(int attempt) const;

  // Tests: faults for every later request (nullptr: none).
  void SetFaultInjector(std::shared_ptr<S3FaultInjector> faults);

 private:
  struct Handle;
  std::unique_ptr<Handle> Acquire();
  void Release(std::unique_ptr<Handle> h);
  // One HTTP exchange; curl's code in *curl_code (0 = an HTTP status came back).
  S3Response Perform(Handle& h, const S3Request& req, int* curl_code, std::string* curl_error);
  void Count(S3RequestKind kind, int64_t in, int64_t out);

  const S3Options options_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Handle>> idle_;  // GUARDED_BY(mu_)
  std::shared_ptr<S3FaultInjector> faults_;    // GUARDED_BY(mu_)
  std::atomic<int64_t> requests_[kS3RequestKinds] = {};
  std::atomic<int64_t> bytes_in_[kS3RequestKinds] = {};
  std::atomic<int64_t> bytes_out_[kS3RequestKinds] = {};
  std::atomic<int64_t> retries_{0};
  std::atomic<int64_t> connections_{0};
  std::atomic<int64_t> round_trips_{0};  // depth of the deepest request answered so far
};

}  // namespace shoal::io
