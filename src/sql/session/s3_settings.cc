#include "sql/session/s3_settings.h"

#include <algorithm>

#include "io/routing_file_system.h"
#include "sql/parser/token.h"

namespace shoal::sql {

namespace {

Result<io::RoutingFileSystem*> Routing(io::FileSystem& fs, const std::string& key) {
  auto* routing = dynamic_cast<io::RoutingFileSystem*>(&fs);
  if (!routing) return Status::NotSupported("SET " + key + ": this database's file system has no S3 settings");
  return routing;
}

Result<bool> Bool(const std::string& key, const std::string& value) {
  std::string v = Lower(value);
  if (v == "true" || v == "on" || v == "1") return true;
  if (v == "false" || v == "off" || v == "0") return false;
  return Status::InvalidArgument("SET " + key + ": expected true or false, got '" + value + "'");
}

bool HasScheme(const std::string& endpoint) { return endpoint.find("://") != std::string::npos; }

// The endpoint with the scheme s3_use_ssl asks for.
std::string WithScheme(const std::string& endpoint, bool ssl) {
  std::string rest = endpoint;
  if (size_t p = rest.find("://"); p != std::string::npos) rest = rest.substr(p + 3);
  return (ssl ? "https://" : "http://") + rest;
}

// Applies `value` (already validated) of `key` to `o`.
Status Apply(const std::string& key, const std::string& value, io::S3Options* o) {
  if (key == "s3_region") {
    if (value.empty()) return Status::InvalidArgument("SET s3_region: expected a region such as 'us-east-1'");
    o->region = value;
  } else if (key == "s3_endpoint") {
    std::string e = value;
    while (!e.empty() && e.back() == '/') e.pop_back();
    if (!e.empty() && !HasScheme(e)) e = "https://" + e;  // s3_use_ssl may change it
    if (HasScheme(e) && e.rfind("http://", 0) != 0 && e.rfind("https://", 0) != 0) {
      return Status::InvalidArgument("SET s3_endpoint: expected host[:port] or http(s)://host[:port], got '" + value + "'");
    }
    o->endpoint = e;
  } else if (key == "s3_access_key_id") {
    o->access_key_id = value;
  } else if (key == "s3_secret_access_key") {
    o->secret_access_key = value;
  } else if (key == "s3_session_token") {
    o->session_token = value;
  } else if (key == "s3_url_style") {
    std::string v = Lower(value);
    if (v != "path" && v != "vhost") {
      return Status::InvalidArgument("SET s3_url_style: expected 'path' or 'vhost', got '" + value + "'");
    }
    if (v == "vhost" && !o->endpoint.empty()) {
      return Status::NotSupported("SET s3_url_style: virtual-hosted addressing is for AWS; a custom s3_endpoint is "
                                  "always addressed path-style");
    }
    o->force_path_style = v == "path";
  } else if (key == "s3_use_ssl") {
    ASSIGN_OR_RETURN(bool ssl, Bool(key, value));
    if (o->endpoint.empty()) {
      if (!ssl) return Status::NotSupported("SET s3_use_ssl: AWS is reached over https only; set s3_endpoint first");
    } else {
      o->endpoint = WithScheme(o->endpoint, ssl);
    }
  }
  return Status::OK();
}

}  // namespace

const std::vector<std::string>& S3SettingNames() {
  static const std::vector<std::string> names = {"s3_access_key_id", "s3_endpoint",   "s3_region",   "s3_secret_access_key",
                                                 "s3_session_token", "s3_url_style", "s3_use_ssl"};
  return names;
}

bool IsS3Setting(const std::string& key) {
  const auto& n = S3SettingNames();
  return std::find(n.begin(), n.end(), key) != n.end();
}

Status SetS3Setting(io::FileSystem& fs, const std::string& key, const std::string& value) {
  ASSIGN_OR_RETURN(io::RoutingFileSystem * routing, Routing(fs, key));
  io::S3Options o = routing->s3_options();
  RETURN_NOT_OK(Apply(key, value, &o));
  routing->SetS3Options(std::move(o));
  return Status::OK();
}

Status ResetS3Setting(io::FileSystem& fs, const std::string& key) {
  ASSIGN_OR_RETURN(io::RoutingFileSystem * routing, Routing(fs, key));
  const io::S3Options env = io::S3Options::FromEnvironment();
  io::S3Options o = routing->s3_options();
  if (key == "s3_region") o.region = env.region;
  if (key == "s3_endpoint" || key == "s3_use_ssl") o.endpoint = env.endpoint;
  if (key == "s3_access_key_id") o.access_key_id = env.access_key_id;
  if (key == "s3_secret_access_key") o.secret_access_key = env.secret_access_key;
  if (key == "s3_session_token") o.session_token = env.session_token;
  if (key == "s3_url_style") o.force_path_style = env.force_path_style;
  routing->SetS3Options(std::move(o));
  return Status::OK();
}

Result<std::string> ShowS3Setting(io::FileSystem& fs, const std::string& key) {
  ASSIGN_OR_RETURN(io::RoutingFileSystem * routing, Routing(fs, key));
  const io::S3Options o = routing->s3_options();
  auto secret = [](const std::string& v) { return v.empty() ? std::string() : std::string("********"); };
  if (key == "s3_region") return o.region;
  if (key == "s3_endpoint") return o.endpoint;
  if (key == "s3_access_key_id") return o.access_key_id;
  if (key == "s3_secret_access_key") return secret(o.secret_access_key);
  if (key == "s3_session_token") return secret(o.session_token);
  if (key == "s3_url_style") return std::string(o.PathStyle() ? "path" : "vhost");
  if (key == "s3_use_ssl") return std::string(o.endpoint.rfind("http://", 0) == 0 ? "false" : "true");
  return Status::Internal("not an s3 setting: " + key);
}

}  // namespace shoal::sql
