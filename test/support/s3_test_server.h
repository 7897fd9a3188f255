// The local S3 server the S3 tests run against (scripts/s3-server.sh, doc/object_storage.md):
// its address and keys from SHOAL_S3_ENDPOINT, SHOAL_S3_ACCESS_KEY, SHOAL_S3_SECRET_KEY and
// SHOAL_S3_BUCKET, or from the one-line file $SHOAL_S3_ENV (DIR/env of `s3-server.sh start`).
// Without a server the tests skip with the reason, except under CI=true, where they fail.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "io/s3_options.h"

namespace shoal::testing {

struct S3TestServer {
  std::string endpoint, access_key, secret_key, bucket;

  // Options for this server with test-sized timeouts.
  io::S3Options Options() const {
    io::S3Options o;
    o.endpoint = endpoint;
    o.access_key_id = access_key;
    o.secret_access_key = secret_key;
    o.connect_timeout_ms = 2000;
    o.request_timeout_ms = 20000;
    return o;
  }
  // Points the AWS_* variables at this server, for what reads them: Database::Open's file
  // system on the first s3:// path, and shell processes started after this call.
  void ExportToEnvironment() const {
    setenv("AWS_ENDPOINT_URL", endpoint.c_str(), 1);
    setenv("AWS_ACCESS_KEY_ID", access_key.c_str(), 1);
    setenv("AWS_SECRET_ACCESS_KEY", secret_key.c_str(), 1);
  }
  // A prefix no other test run uses: s3://bucket/shoal-test/<pid>-<random>/<name>.
  std::string UniquePath(const std::string& name) const {
    static std::mt19937_64 rng{std::random_device{}() ^
                               static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())};
    std::ostringstream p;
    p << "s3://" << bucket << "/shoal-test/" << getpid() << "-" << std::hex << rng() << "/" << name;
    return p.str();
  }
};

inline std::optional<S3TestServer> FindS3TestServer() {
  auto env = [](const char* n) { const char* v = std::getenv(n); return std::string(v ? v : ""); };
  S3TestServer s{env("SHOAL_S3_ENDPOINT"), env("SHOAL_S3_ACCESS_KEY"), env("SHOAL_S3_SECRET_KEY"), env("SHOAL_S3_BUCKET")};
  if (s.endpoint.empty() && !env("SHOAL_S3_ENV").empty()) {
    std::ifstream in(env("SHOAL_S3_ENV"));
    std::string word;
    while (in >> word) {
      size_t eq = word.find('=');
      if (eq == std::string::npos) continue;
      std::string k = word.substr(0, eq), v = word.substr(eq + 1);
      if (k == "endpoint") s.endpoint = v;
      if (k == "access_key") s.access_key = v;
      if (k == "secret_key") s.secret_key = v;
      if (k == "bucket") s.bucket = v;
    }
  }
  if (s.endpoint.empty() || s.bucket.empty()) return std::nullopt;
  return s;
}

inline bool InCi() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

// Declares `server` (an S3TestServer) or skips / fails the current test.
#define SHOAL_REQUIRE_S3(server)                                                                   \
  auto server##_found = ::shoal::testing::FindS3TestServer();                                     \
  if (!server##_found) {                                                                          \
    if (::shoal::testing::InCi()) {                                                               \
      FAIL() << "no S3 test server under CI=true: start one with scripts/s3-server.sh start DIR " \
                "and set SHOAL_S3_ENV=DIR/env (or SHOAL_S3_ENDPOINT, _ACCESS_KEY, _SECRET_KEY, _BUCKET)"; \
    }                                                                                             \
    GTEST_SKIP() << "no S3 test server: start one with scripts/s3-server.sh start DIR and set "   \
                    "SHOAL_S3_ENV=DIR/env (or SHOAL_S3_ENDPOINT, _ACCESS_KEY, _SECRET_KEY, _BUCKET)"; \
  }                                                                                               \
  const ::shoal::testing::S3TestServer& server = *server##_found

}  // namespace shoal::testing
