// The `s3_*` settings (SET / RESET / SHOW): the S3 options of the process's file system
// (io::RoutingFileSystem), which the AWS_* environment variables configure before any SET —
// so, like those variables, they are the process's, seen by every database and connection in
// it. Names as DuckDB's: s3_region, s3_endpoint, s3_access_key_id, s3_secret_access_key,
// s3_session_token, s3_url_style ('path' | 'vhost'), s3_use_ssl. Secrets are never shown.
#pragma once

#include <string>
#include <vector>

#include "io/file_system.h"
#include "shoal/status.h"

namespace shoal::sql {

// The setting names, as documented.
const std::vector<std::string>& S3SettingNames();
// True for a lower-case key naming an s3_* setting.
bool IsS3Setting(const std::string& key);
// SET key = value on the S3 options of `fs` (a RoutingFileSystem; another file system cannot
// take S3 settings: NotSupported). InvalidArgument for a value the setting does not accept.
Status SetS3Setting(io::FileSystem& fs, const std::string& key, const std::string& value);
// RESET key: back to what the environment says.
Status ResetS3Setting(io::FileSystem& fs, const std::string& key);
// SHOW key: the value in use; a secret is '********' when set, '' when not.
Result<std::string> ShowS3Setting(io::FileSystem& fs, const std::string& key);

}  // namespace shoal::sql
