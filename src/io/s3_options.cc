#include "io/s3_options.h"

#include <algorithm>
#include <cstdlib>

namespace shoal::io {

namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

S3Options S3Options::FromEnvironment() {
  S3Options o;
  o.access_key_id = Env("AWS_ACCESS_KEY_ID");
  o.secret_access_key = Env("AWS_SECRET_ACCESS_KEY");
  o.session_token = Env("AWS_SESSION_TOKEN");
  if (std::string r = Env("AWS_REGION"); !r.empty()) {
    o.region = r;
  } else if (std::string d = Env("AWS_DEFAULT_REGION"); !d.empty()) {
    o.region = d;
  }
  o.endpoint = Env("AWS_ENDPOINT_URL_S3");
  if (o.endpoint.empty()) o.endpoint = Env("AWS_ENDPOINT_URL");
  while (!o.endpoint.empty() && o.endpoint.back() == '/') o.endpoint.pop_back();
  std::string path_style = Env("AWS_S3_FORCE_PATH_STYLE");
  o.force_path_style = path_style == "true" || path_style == "1" || path_style == "TRUE";
  if (std::string ms = Env("SHOAL_S3_INJECT_LATENCY_MS"); !ms.empty()) {
    o.injected_latency_ms = std::max<int64_t>(0, std::strtoll(ms.c_str(), nullptr, 10));
  }
  o.trace = Env("SHOAL_S3_TRACE") == "1";
  return o;
}

}  // namespace shoal::io
