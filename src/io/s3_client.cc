#include "io/s3_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include "io/s3_uri.h"

namespace shoal::io {

namespace {

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  std::string_view line(data, size * n);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) value.remove_suffix(1);
    (*static_cast<std::map<std::string, std::string>*>(user))[name] = std::string(value);
  }
  return size * n;
}

bool RetryableStatus(long status) {
  return status == 500 || status == 502 || status == 503 || status == 504 || status == 429;
}

}  // namespace

const char* S3RequestKindName(S3RequestKind kind) {
  switch (kind) {
    case S3RequestKind::kGet: return "GET";
    case S3RequestKind::kGetRange: return "GET_RANGE";
    case S3RequestKind::kHead: return "HEAD";
    case S3RequestKind::kPut: return "PUT";
    case S3RequestKind::kList: return "LIST";
    case S3RequestKind::kDelete: return "DELETE";
  }
  return "?";
}

int64_t S3Stats::Requests() const {
  int64_t n = 0;
  for (int64_t r : requests) n += r;
  return n;
}

S3Stats S3Stats::Since(const S3Stats& earlier) const {
  S3Stats d = *this;
  for (int k = 0; k < kS3RequestKinds; ++k) {
    d.requests[k] -= earlier.requests[k];
    d.bytes_in[k] -= earlier.bytes_in[k];
    d.bytes_out[k] -= earlier.bytes_out[k];
  }
  d.retries -= earlier.retries;
  d.connections -= earlier.connections;
  d.round_trips -= earlier.round_trips;
  return d;
}

std::string S3Stats::ToJson() const {
  auto per_kind = [](const int64_t (&v)[kS3RequestKinds]) {
    std::string out = "{";
    for (int k = 0; k < kS3RequestKinds; ++k) {
      if (k) out += ",";
      out.append("\"").append(S3RequestKindName(static_cast<S3RequestKind>(k))).append("\":");
      out += std::to_string(v[k]);
    }
    return out + "}";
  };
  std::string out = "{\"requests\":";
  out += per_kind(requests);
  out += ",\"bytes_in\":" + per_kind(bytes_in);
  out += ",\"bytes_out\":" + per_kind(bytes_out);
  out += ",\"retries\":" + std::to_string(retries);
  out += ",\"connections\":" + std::to_string(connections);
  out += ",\"round_trips\":" + std::to_string(round_trips) + "}";
  return out;
}

std::string S3Response::Header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

struct S3Client::Handle {
  CURL* curl = nullptr;
  ~Handle() {
    if (curl) curl_easy_cleanup(curl);
  }
};

S3Client::S3Client(S3Options options) : options_(std::move(options)) { GlobalInit(); }

S3Client::~S3Client() = default;

std::unique_ptr<S3Client::Handle> S3Client::Acquire() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      auto h = std::move(idle_.back());
      idle_.pop_back();
      return h;
    }
  }
  auto h = std::make_unique<Handle>();
  h->curl = curl_easy_init();
  return h;
}

void S3Client::Release(std::unique_ptr<Handle> h) {
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < 64) idle_.push_back(std::move(h));
}

std::string S3Client::UrlOf(const S3Request& req) const {
  std::string url;
  std::string encoded_key = UriEncode(req.key, true);
  if (options_.PathStyle()) {
    url = options_.endpoint.empty() ? "https://s3." + options_.region + ".amazonaws.com" : options_.endpoint;
    url += "/" + req.bucket;
    if (!req.key.empty()) url += "/" + encoded_key;
  } else {
    url = "https://" + req.bucket + ".s3." + options_.region + ".amazonaws.com/" + encoded_key;
  }
  // SigV4 signs the query sorted by name; curl signs it in the order sent, so send it sorted.
  auto query = req.query;
  std::sort(query.begin(), query.end());
  for (size_t i = 0; i < query.size(); ++i) {
    url += i == 0 ? '?' : '&';
    url += UriEncode(query[i].first, false) + "=" + UriEncode(query[i].second, false);
  }
  return url;
}

void S3Client::Count(S3RequestKind kind, int64_t in, int64_t out) {
  int k = static_cast<int>(kind);
  requests_[k].fetch_add(1, std::memory_order_relaxed);
  bytes_in_[k].fetch_add(in, std::memory_order_relaxed);
  bytes_out_[k].fetch_add(out, std::memory_order_relaxed);
}

S3Stats S3Client::stats() const {
  S3Stats s;
  for (int k = 0; k < kS3RequestKinds; ++k) {
    s.requests[k] = requests_[k].load(std::memory_order_relaxed);
    s.bytes_in[k] = bytes_in_[k].load(std::memory_order_relaxed);
    s.bytes_out[k] = bytes_out_[k].load(std::memory_order_relaxed);
  }
  s.retries = retries_.load(std::memory_order_relaxed);
  s.connections = connections_.load(std::memory_order_relaxed);
  s.round_trips = round_trips_.load(std::memory_order_relaxed);
  return s;
}

void S3Client::CarryCounters(const S3Stats& earlier) {
  for (int k = 0; k < kS3RequestKinds; ++k) {
    requests_[k].fetch_add(earlier.requests[k], std::memory_order_relaxed);
    bytes_in_[k].fetch_add(earlier.bytes_in[k], std::memory_order_relaxed);
    bytes_out_[k].fetch_add(earlier.bytes_out[k], std::memory_order_relaxed);
  }
  retries_.fetch_add(earlier.retries, std::memory_order_relaxed);
  connections_.fetch_add(earlier.connections, std::memory_order_relaxed);
  round_trips_.fetch_add(earlier.round_trips, std::memory_order_relaxed);
}

void S3Client::Backoff(int attempt) const {
  int64_t cap = options_.initial_backoff_ms;
  for (int i = 1; i < attempt && cap < options_.max_backoff_ms; ++i) cap *= 2;
  cap = std::clamp<int64_t>(cap, 1, std::max<int64_t>(1, options_.max_backoff_ms));
  thread_local std::mt19937_64 rng{std::random_device{}()};
  int64_t ms = std::uniform_int_distribution<int64_t>(cap / 4, cap)(rng);
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

void S3Client::SetFaultInjector(std::shared_ptr<S3FaultInjector> faults) {
  std::lock_guard<std::mutex> lock(mu_);
  faults_ = std::move(faults);
}

S3Response S3Client::Perform(Handle& h, const S3Request& req, int* curl_code, std::string* curl_error) {
  S3Response resp;
  CURL* c = h.curl;
  curl_easy_reset(c);  // keeps the live connections
  const std::string url = UrlOf(req);
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout_ms));
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  const std::string sigv4 = "aws:amz:" + options_.region + ":s3";
  if (!options_.access_key_id.empty() || !options_.secret_access_key.empty()) {
    curl_easy_setopt(c, CURLOPT_AWS_SIGV4, sigv4.c_str());
    curl_easy_setopt(c, CURLOPT_USERNAME, options_.access_key_id.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, options_.secret_access_key.c_str());
  }
  struct curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
  std::string token_header;
  if (!options_.session_token.empty()) {
    token_header = "x-amz-security-token: " + options_.session_token;
    headers = curl_slist_append(headers, token_header.c_str());
  }
  for (const std::string& hd : req.headers) headers = curl_slist_append(headers, hd.c_str());
  std::string range;
  if (req.method == "HEAD") {
    curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
  } else if (req.method == "PUT" || req.method == "POST") {
    headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.empty() ? "" : req.body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  } else if (req.method != "GET") {
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  }
  if (req.range_offset >= 0 && req.range_length > 0) {
    range = std::to_string(req.range_offset) + "-" + std::to_string(req.range_offset + req.range_length - 1);
    curl_easy_setopt(c, CURLOPT_RANGE, range.c_str());
    resp.body.reserve(static_cast<size_t>(req.range_length));
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &resp.body);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &resp.headers);
  CURLcode rc = curl_easy_perform(c);
  curl_slist_free_all(headers);
  long connects = 0;
  if (curl_easy_getinfo(c, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK && connects > 0) {
    connections_.fetch_add(connects, std::memory_order_relaxed);
  }
  *curl_code = static_cast<int>(rc);
  if (rc != CURLE_OK) {
    *curl_error = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(rc));
    while (!curl_error->empty() && curl_error->back() == '\n') curl_error->pop_back();
    // Did any byte of the request leave? If not, the server cannot have acted on it.
    long sent = 0;
    curl_easy_getinfo(c, CURLINFO_REQUEST_SIZE, &sent);
    if (sent == 0) *curl_code = -static_cast<int>(rc);  // negative: surely not sent
    resp.status = 0;
    return resp;
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp.status);
  return resp;
}

Result<S3Response> S3Client::Send(const S3Request& req) {
  const int max_attempts = std::max(1, options_.max_attempts);
  std::string last_error;
  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) retries_.fetch_add(1, std::memory_order_relaxed);
    std::shared_ptr<S3FaultInjector> faults;
    {
      std::lock_guard<std::mutex> lock(mu_);
      faults = faults_;
    }
    int code = 0;
    std::string curl_error;
    S3Response resp;
    // This request waits for everything answered before it was sent: one round trip deeper.
    const int64_t depth = round_trips_.load(std::memory_order_acquire) + 1;
    if (options_.injected_latency_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(options_.injected_latency_ms));
    }
    if (faults && faults->BeforeSend(req, &resp, &code)) {
      if (code != 0) curl_error = std::string("injected fault: ") + curl_easy_strerror(static_cast<CURLcode>(code < 0 ? -code : code));
    } else {
      auto h = Acquire();
      if (!h->curl) return Status::IOError("S3: could not create a curl handle");
      resp = Perform(*h, req, &code, &curl_error);
      Release(std::move(h));
      if (faults) {
        const int before = code;
        faults->AfterSend(req, &resp, &code);
        if (code != before && code != 0) {
          curl_error = std::string("injected fault: ") + curl_easy_strerror(static_cast<CURLcode>(code < 0 ? -code : code));
        }
      }
    }
    Count(req.kind, static_cast<int64_t>(resp.body.size()), static_cast<int64_t>(req.body.size()));
    for (int64_t seen = round_trips_.load(std::memory_order_relaxed);
         seen < depth && !round_trips_.compare_exchange_weak(seen, depth, std::memory_order_acq_rel);) {
    }
    if (options_.trace) {
      std::string line = "s3 trace: round trip " + std::to_string(depth) + " " + req.method + " " + req.key;
      for (const auto& [name, value] : req.query) line += (&name == &req.query.front().first ? "?" : "&") + name + "=" + value;
      if (req.range_offset >= 0) {
        line += " bytes " + std::to_string(req.range_offset) + "+" + std::to_string(req.range_length);
      }
      line += " -> " + std::to_string(resp.status) + ", " + std::to_string(resp.body.size()) + " bytes\n";
      std::fputs(line.c_str(), stderr);
    }
    if (code != 0) {
      const bool surely_not_sent = code < 0;
      const int rc = code < 0 ? -code : code;
      if (rc == CURLE_OPERATION_TIMEDOUT) {
        last_error = "timed out (connect timeout " + std::to_string(options_.connect_timeout_ms) +
                     " ms, request timeout " + std::to_string(options_.request_timeout_ms) + " ms): " + curl_error;
      } else {
        last_error = curl_error;
      }
      if (!req.idempotent && !surely_not_sent) {
        resp.outcome_unknown = true;
        resp.transport_error = last_error;
        return resp;
      }
      if (attempt < max_attempts) {
        Backoff(attempt);
        continue;
      }
      return Status::IOError("S3 " + req.method + " " + UrlOf(req) + " failed after " + std::to_string(attempt) +
                             " attempt" + (attempt == 1 ? "" : "s") + ": endpoint unreachable or not answering: " +
                             last_error);
    }
    if (RetryableStatus(resp.status)) {
      if (!req.idempotent && resp.status != 503) {
        resp.outcome_unknown = true;
        return resp;
      }
      if (attempt < max_attempts) {
        Backoff(attempt);
        continue;
      }
    }
    return resp;
  }
}

}  // namespace shoal::io
