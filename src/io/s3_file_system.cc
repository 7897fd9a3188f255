#include "io/s3_file_system.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <cstring>

#include "io/memory_file_system.h"
#include "io/read_range.h"

namespace shoal::io {

namespace {

S3Request MakeRequest(S3RequestKind kind, const char* method, const S3Location& loc) {
  S3Request r;
  r.kind = kind;
  r.method = method;
  r.bucket = loc.bucket;
  r.key = loc.key;
  return r;
}

bool IsNoSuchKey(const S3Response& r) {
  if (r.status != 404) return false;
  std::optional<std::string> code = XmlText(r.body, "Code");
  return !code || *code == "NoSuchKey";  // HEAD answers carry no body
}

Status NoSuchFile(std::string_view what, const std::string& path) {
  return Status::IOError(std::string(what) + " '" + path + "': No such file or directory");
}

Status ErrorStatus(const S3Response& r, std::string_view what, const std::string& path, const S3Options& options) {
  if (!r.transport_error.empty()) {
    return Status::IOError("S3 " + std::string(what) + " '" + path + "': " + r.transport_error);
  }
  std::string code = XmlText(r.body, "Code").value_or("");
  std::string message = XmlText(r.body, "Message").value_or("");
  std::string detail = code.empty() ? "HTTP " + std::to_string(r.status) : code;
  if (!message.empty()) detail += ": " + message;
  if (r.status == 404 && code == "NoSuchBucket") {
    std::string bucket = ParseS3Path(path).ok() ? ParseS3Path(path)->bucket : path;
    return Status::IOError("S3 bucket '" + bucket + "' does not exist (NoSuchBucket) [" + std::string(what) + " '" +
                           path + "']");
  }
  if (r.status == 404) return NoSuchFile(what, path);
  if (r.status == 403) {
    std::string hint;
    if (options.access_key_id.empty()) {
      hint = "; no credentials are set (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)";
    } else if (code == "InvalidAccessKeyId") {
      hint = "; the server does not know the access key id (AWS_ACCESS_KEY_ID)";
    } else if (code == "SignatureDoesNotMatch") {
      hint = "; the secret key does not match the access key id (AWS_SECRET_ACCESS_KEY)";
    }
    return Status::IOError("S3 access denied for " + std::string(what) + " '" + path + "' (" + detail + ")" + hint);
  }
  if (r.status == 301 || r.status == 307) {
    return Status::IOError("S3 " + std::string(what) + " '" + path + "': the bucket is in another region than '" +
                           options.region + "' (" + detail + "); set AWS_REGION");
  }
  return Status::IOError("S3 " + std::string(what) + " '" + path + "' failed: HTTP " + std::to_string(r.status) +
                         (code.empty() ? "" : " (" + detail + ")"));
}

int64_t ContentLength(const S3Response& r) {
  std::string v = r.Header("content-length");
  if (v.empty()) return -1;
  char* end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 10);
  if (end == v.c_str() || *end != '\0' || n < 0) return -1;
  return n;
}

// Ranged GETs one scan thread keeps in flight at once (ReadMany).
constexpr size_t kMaxInFlight = 8;

class S3RandomAccessFile final : public RandomAccessFile {
 public:
  S3RandomAccessFile(std::string path, std::shared_ptr<S3Client> client, S3Location loc, int64_t size)
      : RandomAccessFile(std::move(path)), client_(std::move(client)), loc_(std::move(loc)), size_(size) {}
  int64_t Size() const override { return size_; }
  bool latency_bound() const override { return true; }

  // Up to kMaxInFlight GETs at once, each on its own thread (the client's handle pool gives
  // each its connection): the wait is one round trip per kMaxInFlight ranges.
  Status ReadMany(const std::vector<ReadRequest>& reqs) const override {
    if (reqs.size() <= 1) return RandomAccessFile::ReadMany(reqs);
    std::vector<Status> results(reqs.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next.fetch_add(1)) < reqs.size();) results[i] = ReadAt(reqs[i].offset, reqs[i].length, reqs[i].out);
    };
    const size_t threads = std::min(reqs.size(), kMaxInFlight);
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    for (Status& st : results) RETURN_NOT_OK(st);
    return Status::OK();
  }

  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    RETURN_NOT_OK(CheckReadRange(path_, offset, length, Size()));
    if (length == 0) return Status::OK();
    S3Request req = MakeRequest(S3RequestKind::kGetRange, "GET", loc_);
    req.range_offset = offset;
    req.range_length = length;
    // A body shorter than asked for (a connection cut mid-body that curl did not notice) is
    // fetched again, as a transport error would be.
    const int attempts = std::max(1, client_->options().max_attempts);
    for (int attempt = 1;; ++attempt) {
      ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
      if (r.status != 206 && r.status != 200) return ErrorStatus(r, "read", path_, client_->options());
      // 200: the server ignored the range and sent the whole object.
      const int64_t skip = r.status == 200 ? offset : 0;
      if (static_cast<int64_t>(r.body.size()) >= skip + length) {
        std::memcpy(out, r.body.data() + skip, static_cast<size_t>(length));
        return Status::OK();
      }
      if (attempt >= attempts) {
        return Status::IOError("S3 read of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                               " of '" + path_ + "' returned " + std::to_string(r.body.size()) +
                               " bytes (truncated body) after " + std::to_string(attempt) + " attempts");
      }
      client_->Backoff(attempt);
    }
  }

 private:
  std::shared_ptr<S3Client> client_;
  S3Location loc_;
  int64_t size_;
};

}  // namespace

// Buffers appended bytes; a multipart upload starts once a part's worth is buffered.
class S3WritableFile final : public WritableFile {
 public:
  S3WritableFile(std::string path, std::shared_ptr<S3Client> client, S3Location loc)
      : path_(std::move(path)), client_(std::move(client)), loc_(std::move(loc)) {}
  ~S3WritableFile() override { (void)Close(); }

  Status Append(const void* data, size_t length) override {
    if (closed_) return Status::IOError("write to closed file '" + path_ + "'");
    RETURN_NOT_OK(error_);
    buffer_.append(static_cast<const char*>(data), length);
    pos_ += static_cast<int64_t>(length);
    if (static_cast<int64_t>(buffer_.size()) >= client_->options().part_size) {
      error_ = UploadPart();
      if (!error_.ok()) Abort();
    }
    return error_;
  }

  // The object is durable once Close returns OK; there is nothing to make durable before.
  Status Sync() override { return error_; }

  Status Close() override {
    if (closed_) return error_;
    closed_ = true;
    if (!error_.ok()) return error_;
    if (upload_id_.empty()) {
      S3Request req = MakeRequest(S3RequestKind::kPut, "PUT", loc_);
      req.body = buffer_;
      auto r = client_->Send(req);
      error_ = !r.ok() ? r.status() : r->status == 200 ? Status::OK() : ErrorStatus(*r, "write", path_, client_->options());
    } else {
      error_ = buffer_.empty() ? Status::OK() : UploadPart();
      if (error_.ok()) error_ = Complete();
      if (!error_.ok()) Abort();
    }
    std::string().swap(buffer_);
    return error_;
  }

  int64_t Tell() const override { return pos_; }

 private:
  Status Start() {
    S3Request req = MakeRequest(S3RequestKind::kPut, "POST", loc_);
    req.query = {{"uploads", ""}};
    ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
    if (r.status != 200) return ErrorStatus(r, "start multipart upload of", path_, client_->options());
    upload_id_ = XmlText(r.body, "UploadId").value_or("");
    if (upload_id_.empty()) return Status::IOError("S3 multipart upload of '" + path_ + "': the answer has no UploadId");
    return Status::OK();
  }

  Status UploadPart() {
    if (upload_id_.empty()) RETURN_NOT_OK(Start());
    const int number = static_cast<int>(etags_.size()) + 1;
    if (number > 10000) return Status::IOError("S3 multipart upload of '" + path_ + "': more than 10000 parts");
    S3Request req = MakeRequest(S3RequestKind::kPut, "PUT", loc_);
    req.query = {{"partNumber", std::to_string(number)}, {"uploadId", upload_id_}};
    req.body = buffer_;
    ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
    if (r.status != 200) return ErrorStatus(r, "upload part " + std::to_string(number) + " of", path_, client_->options());
    std::string etag = r.Header("etag");
    if (etag.empty()) return Status::IOError("S3 upload of part " + std::to_string(number) + " of '" + path_ + "': no ETag");
    etags_.push_back(std::move(etag));
    buffer_.clear();
    return Status::OK();
  }

  Status Complete() {
    std::string xml = "<CompleteMultipartUpload>";
    for (size_t i = 0; i < etags_.size(); ++i) {
      xml += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + etags_[i] + "</ETag></Part>";
    }
    xml += "</CompleteMultipartUpload>";
    S3Request req = MakeRequest(S3RequestKind::kPut, "POST", loc_);
    req.query = {{"uploadId", upload_id_}};
    req.body = xml;
    ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
    // A 200 may still carry an <Error> (the server failed while assembling the parts).
    if (r.status == 200 && r.body.find("<Error>") == std::string::npos) {
      upload_id_.clear();
      return Status::OK();
    }
    if (r.status == 404 && XmlText(r.body, "Code").value_or("") == "NoSuchUpload") {
      // A retried Complete whose first try succeeded: the object is there with our size.
      ASSIGN_OR_RETURN(S3Response head, client_->Send(MakeRequest(S3RequestKind::kHead, "HEAD", loc_)));
      if (head.status == 200 && ContentLength(head) == pos_) {
        upload_id_.clear();
        return Status::OK();
      }
    }
    if (r.status == 200) r.status = 500;
    return ErrorStatus(r, "complete multipart upload of", path_, client_->options());
  }

  void Abort() {
    if (upload_id_.empty()) return;
    S3Request req = MakeRequest(S3RequestKind::kDelete, "DELETE", loc_);
    req.query = {{"uploadId", upload_id_}};
    (void)client_->Send(req);
    upload_id_.clear();
  }

  std::string path_;
  std::shared_ptr<S3Client> client_;
  S3Location loc_;
  std::string buffer_;
  int64_t pos_ = 0;
  bool closed_ = false;
  Status error_;  // sticky: the first failure
  std::string upload_id_;
  std::vector<std::string> etags_;
};

S3FileSystem::S3FileSystem(S3Options options) : client_(std::make_shared<S3Client>(std::move(options))) {}

Status S3FileSystem::ErrorOf(const S3Response& r, std::string_view what, const std::string& path) const {
  return ErrorStatus(r, what, path, client_->options());
}

Result<std::unique_ptr<RandomAccessFile>> S3FileSystem::OpenForRead(const std::string& path) {
  if (auto a = speculation_.Take({SpeculativeRead::Kind::kReadAll, path, {}, 0}); a && a->status.ok()) {
    return MakeMemoryFile(path, std::make_shared<const std::string>(std::move(a->text)));
  }
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::IOError("open '" + path + "': is a directory");
  ASSIGN_OR_RETURN(S3Response r, client_->Send(MakeRequest(S3RequestKind::kHead, "HEAD", loc)));
  if (IsNoSuchKey(r)) return NoSuchFile("open", path);
  if (r.status != 200) return ErrorOf(r, "open", path);
  int64_t size = ContentLength(r);
  if (size < 0) return Status::IOError("S3 open '" + path + "': the answer has no Content-Length");
  return std::unique_ptr<RandomAccessFile>(new S3RandomAccessFile(path, client_, std::move(loc), size));
}

Result<std::unique_ptr<RandomAccessFile>> S3FileSystem::OpenForReadOfSize(const std::string& path, int64_t size) {
  if (size < 0) return OpenForRead(path);
  if (auto a = speculation_.Take({SpeculativeRead::Kind::kReadAll, path, {}, 0}); a && a->status.ok()) {
    return MakeMemoryFile(path, std::make_shared<const std::string>(std::move(a->text)));
  }
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::IOError("open '" + path + "': is a directory");
  return std::unique_ptr<RandomAccessFile>(new S3RandomAccessFile(path, client_, std::move(loc), size));
}

Result<std::unique_ptr<WritableFile>> S3FileSystem::OpenForWrite(const std::string& path) {
  speculation_.Clear();
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::IOError("create '" + path + "': is a directory");
  return std::unique_ptr<WritableFile>(new S3WritableFile(path, client_, std::move(loc)));
}

Result<std::optional<std::string>> S3FileSystem::GetObject(const S3Location& loc, const std::string& path) {
  const int attempts = std::max(1, client_->options().max_attempts);
  for (int attempt = 1;; ++attempt) {
    ASSIGN_OR_RETURN(S3Response r, client_->Send(MakeRequest(S3RequestKind::kGet, "GET", loc)));
    if (IsNoSuchKey(r)) return std::optional<std::string>();
    if (r.status != 200) return ErrorOf(r, "open", path);
    const int64_t expected = ContentLength(r);
    if (expected < 0 || expected == static_cast<int64_t>(r.body.size())) return std::optional<std::string>(std::move(r.body));
    if (attempt >= attempts) {
      return Status::IOError("S3 read of '" + path + "' returned " + std::to_string(r.body.size()) + " of " +
                             std::to_string(expected) + " bytes (truncated body)");
    }
    client_->Backoff(attempt);
  }
}

Result<std::string> S3FileSystem::ReadAll(const std::string& path) {
  if (auto a = speculation_.Take({SpeculativeRead::Kind::kReadAll, path, {}, 0})) {
    if (!a->status.ok()) return a->status;
    return std::move(a->text);
  }
  return FetchAll(path);
}

Result<std::string> S3FileSystem::FetchAll(const std::string& path) {
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::IOError("open '" + path + "': is a directory");
  ASSIGN_OR_RETURN(std::optional<std::string> body, GetObject(loc, path));
  if (!body) return NoSuchFile("open", path);
  return std::move(*body);
}

Status S3FileSystem::PutObject(const S3Location& loc, const std::string& path, std::string_view contents) {
  S3Request req = MakeRequest(S3RequestKind::kPut, "PUT", loc);
  req.body = contents;
  ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
  if (r.status != 200) return ErrorOf(r, "write", path);
  return Status::OK();
}

Status S3FileSystem::WriteAtomic(const std::string& path, std::string_view contents) {
  speculation_.Clear();
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::IOError("write '" + path + "': is a directory");
  return PutObject(loc, path, contents);
}

Status S3FileSystem::PutIfAbsent(const std::string& path, std::string_view contents) {
  speculation_.Clear();
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::IOError("create '" + path + "': is a directory");
  // After an attempt with an unknown outcome, "is it there, and is it ours?" decides.
  auto read_back = [&]() -> Result<std::optional<bool>> {
    ASSIGN_OR_RETURN(std::optional<std::string> existing, GetObject(loc, path));
    if (!existing) return std::optional<bool>();
    return std::optional<bool>(*existing == contents);
  };
  bool ambiguous = false;
  std::string last_unknown;
  const int attempts = std::max(1, client_->options().max_attempts);
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    if (attempt > 1) client_->Backoff(attempt - 1);
    S3Request req = MakeRequest(S3RequestKind::kPut, "PUT", loc);
    req.body = contents;
    req.headers = {"If-None-Match: *"};
    req.idempotent = false;
    Result<S3Response> sent = client_->Send(req);  // an error here: this attempt was never sent
    if (!sent.ok()) {
      if (!ambiguous) return sent.status();
      return Status::IOError("S3 conditional PUT of '" + path + "' has no certain outcome: an earlier attempt failed (" +
                             last_unknown + "), then " + sent.status().message());
    }
    S3Response& r = *sent;
    if (r.status == 200 && !r.outcome_unknown) return Status::OK();
    if (r.status == 412) {
      if (!ambiguous) return AlreadyExists(path);
      ASSIGN_OR_RETURN(std::optional<bool> ours, read_back());
      return ours && *ours ? Status::OK() : AlreadyExists(path);
    }
    if (r.status == 409) continue;  // ConditionalRequestConflict: a racing conditional write; try again
    if (!r.outcome_unknown) return ErrorOf(r, "create", path);
    ambiguous = true;
    last_unknown = r.transport_error.empty() ? "HTTP " + std::to_string(r.status) : r.transport_error;
    auto ours = read_back();
    if (ours.ok() && *ours) return **ours ? Status::OK() : AlreadyExists(path);
    // Not there (or not readable now): sending the conditional PUT again is safe.
  }
  return Status::IOError("S3 conditional PUT of '" + path + "' has no certain outcome after " +
                         std::to_string(attempts) + " attempts (last: " + last_unknown +
                         "); the object was not found when read back");
}

Result<S3ListPage> S3FileSystem::ListKeys(const std::string& bucket, const std::string& prefix, bool delimited,
                                          const std::string& start_after, int max_total) {
  S3ListPage all;
  std::string token;
  const std::string display = S3PathOf(bucket, prefix);
  for (int page = 0;; ++page) {
    S3Request req;
    req.kind = S3RequestKind::kList;
    req.method = "GET";
    req.bucket = bucket;
    int page_size = std::clamp(client_->options().list_page_size, 1, 1000);
    if (max_total > 0) {
      const int have = static_cast<int>(all.objects.size() + all.common_prefixes.size());
      page_size = std::min(page_size, std::max(1, max_total - have));
    }
    req.query = {{"list-type", "2"}, {"max-keys", std::to_string(page_size)}};
    if (!prefix.empty()) req.query.emplace_back("prefix", prefix);
    if (delimited) req.query.emplace_back("delimiter", "/");
    if (page == 0 && !start_after.empty()) req.query.emplace_back("start-after", start_after);
    if (!token.empty()) req.query.emplace_back("continuation-token", token);
    ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
    if (r.status != 200) return ErrorOf(r, "list", display);
    ASSIGN_OR_RETURN(S3ListPage p, ParseListObjectsV2(r.body));
    for (auto& o : p.objects) all.objects.push_back(std::move(o));
    for (auto& c : p.common_prefixes) all.common_prefixes.push_back(std::move(c));
    const int64_t count = static_cast<int64_t>(all.objects.size() + all.common_prefixes.size());
    all.truncated = p.truncated;
    if (!p.truncated || (max_total > 0 && count >= max_total)) break;
    if (p.next_continuation_token == token) {
      return Status::Corruption("S3 list of '" + display + "' repeats its continuation token");
    }
    token = std::move(p.next_continuation_token);
  }
  return all;
}

Result<std::vector<FileInfo>> S3FileSystem::List(const std::string& dir) { return ListFrom(dir, {}); }

Result<std::vector<FileInfo>> S3FileSystem::ListFrom(const std::string& dir, std::string_view start_name) {
  ASSIGN_OR_RETURN(ListPrefix listed, FetchListing(dir, start_name, 0));
  return std::move(listed.entries);
}

Result<ListPrefix> S3FileSystem::ListFromLimited(const std::string& dir, std::string_view start_name, size_t max_entries) {
  if (auto a = speculation_.Take({SpeculativeRead::Kind::kListFromLimited, dir, std::string(start_name), max_entries})) {
    if (!a->status.ok()) return a->status;
    return std::move(a->listing);
  }
  return FetchListing(dir, start_name, max_entries);
}

Result<ListPrefix> S3FileSystem::FetchListing(const std::string& dir, std::string_view start_name, size_t max_entries) {
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(dir));
  const std::string prefix = loc.key.empty() ? "" : loc.key + "/";
  // start-after is exclusive: start just before `start_name` (its last byte decremented) and
  // drop what sorts before it below.
  std::string start_after;
  if (!start_name.empty()) {
    start_after = prefix + std::string(start_name);
    unsigned char last = static_cast<unsigned char>(start_after.back());
    if (last == 0) {
      start_after.pop_back();
    } else {
      start_after.back() = static_cast<char>(last - 1);
    }
  }
  const int max_total = static_cast<int>(std::min<size_t>(max_entries, 1u << 30));
  ASSIGN_OR_RETURN(S3ListPage page, ListKeys(loc.bucket, prefix, true, start_after, max_total));
  ListPrefix out;
  out.complete = !page.truncated;
  for (const S3ListedObject& o : page.objects) {
    if (o.key.size() <= prefix.size() || o.key.compare(0, prefix.size(), prefix) != 0) continue;  // the marker
    FileInfo info;
    info.name = o.key.substr(prefix.size());
    if (std::string_view(info.name) < start_name) continue;
    info.size = o.size;
    info.mtime_ms = o.mtime_ms;
    out.entries.push_back(std::move(info));
  }
  for (const std::string& p : page.common_prefixes) {
    if (p.size() <= prefix.size() || p.compare(0, prefix.size(), prefix) != 0) continue;
    FileInfo info;
    info.name = p.substr(prefix.size());
    while (!info.name.empty() && info.name.back() == '/') info.name.pop_back();
    if (info.name.empty() || std::string_view(info.name) < start_name) continue;
    info.is_dir = true;
    out.entries.push_back(std::move(info));
  }
  std::sort(out.entries.begin(), out.entries.end(), [](const FileInfo& a, const FileInfo& b) { return a.name < b.name; });
  return out;
}

Result<bool> S3FileSystem::HasKeysUnder(const S3Location& loc) {
  ASSIGN_OR_RETURN(S3ListPage page, ListKeys(loc.bucket, loc.key.empty() ? "" : loc.key + "/", false, "", 1));
  return !page.objects.empty();
}

Status S3FileSystem::CheckBucket(const std::string& bucket) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (checked_buckets_.count(bucket)) return Status::OK();
  }
  // A one-key listing rather than a HEAD: its error answers have a body naming the cause.
  S3Request req;
  req.kind = S3RequestKind::kList;
  req.bucket = bucket;
  req.query = {{"list-type", "2"}, {"max-keys", "1"}};
  ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
  if (r.status != 200) return ErrorOf(r, "open bucket", S3PathOf(bucket, ""));
  std::lock_guard<std::mutex> lock(mu_);
  checked_buckets_.insert(bucket);
  return Status::OK();
}

Result<FileInfo> S3FileSystem::Stat(const std::string& path) {
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  FileInfo info;
  if (loc.key.empty()) {
    RETURN_NOT_OK(CheckBucket(loc.bucket));
    info.name = loc.bucket;
    info.is_dir = true;
    return info;
  }
  info.name = BaseName(loc.key);
  ASSIGN_OR_RETURN(S3Response r, client_->Send(MakeRequest(S3RequestKind::kHead, "HEAD", loc)));
  if (r.status == 200) {
    info.size = std::max<int64_t>(0, ContentLength(r));
    info.mtime_ms = ParseS3Time(r.Header("last-modified")).value_or(0);
    return info;
  }
  if (!IsNoSuchKey(r)) return ErrorOf(r, "stat", path);
  ASSIGN_OR_RETURN(bool dir, HasKeysUnder(loc));
  if (!dir) return NoSuchFile("stat", path);
  info.is_dir = true;
  return info;
}

Result<bool> S3FileSystem::Exists(const std::string& path) {
  if (auto a = speculation_.Take({SpeculativeRead::Kind::kExists, path, {}, 0})) {
    if (!a->status.ok()) return a->status;
    return a->exists;
  }
  return FetchExists(path);
}

void S3FileSystem::Speculate(const std::vector<SpeculativeRead>& reads) {
  for (const SpeculativeRead& r : reads) {
    speculation_.Start(r, [this, r] {
      SpeculativeAnswer a;
      switch (r.kind) {
        case SpeculativeRead::Kind::kExists: {
          Result<bool> e = FetchExists(r.path);
          a.status = e.status();
          if (e.ok()) a.exists = *e;
          break;
        }
        case SpeculativeRead::Kind::kReadAll: {
          Result<std::string> t = FetchAll(r.path);
          a.status = t.status();
          if (t.ok()) a.text = std::move(*t);
          break;
        }
        case SpeculativeRead::Kind::kListFromLimited: {
          Result<ListPrefix> l = FetchListing(r.path, r.start_name, r.max_entries);
          a.status = l.status();
          if (l.ok()) a.listing = std::move(*l);
          break;
        }
      }
      return a;
    });
  }
}

Result<bool> S3FileSystem::FetchExists(const std::string& path) {
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) {
    Status st = CheckBucket(loc.bucket);
    if (st.ok()) return true;
    if (st.message().find("(NoSuchBucket)") != std::string::npos) return false;
    return st;
  }
  // The HEAD (a file?) and the one-key listing (a directory?) go out together: one round trip
  // where asking in turn would take two whenever the path is a directory or absent.
  Result<bool> dir = false;
  std::thread probe([&] { dir = HasKeysUnder(loc); });
  Result<S3Response> head = client_->Send(MakeRequest(S3RequestKind::kHead, "HEAD", loc));
  probe.join();
  ASSIGN_OR_RETURN(S3Response r, std::move(head));
  if (r.status == 200) return true;
  if (!IsNoSuchKey(r)) return ErrorOf(r, "stat", path);
  return dir;
}

Status S3FileSystem::CreateDirs(const std::string& path) {
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  return CheckBucket(loc.bucket);
}

Status S3FileSystem::Delete(const std::string& path) {
  speculation_.Clear();
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::InvalidArgument("delete '" + path + "': shoal does not delete buckets");
  ASSIGN_OR_RETURN(S3Response r, client_->Send(MakeRequest(S3RequestKind::kDelete, "DELETE", loc)));
  if (r.status == 204 || r.status == 200 || IsNoSuchKey(r)) return Status::OK();
  return ErrorOf(r, "delete", path);
}

Status S3FileSystem::DeleteRecursive(const std::string& path) {
  ASSIGN_OR_RETURN(S3Location loc, ParseS3Path(path));
  if (loc.key.empty()) return Status::InvalidArgument("delete '" + path + "': shoal does not delete whole buckets");
  ASSIGN_OR_RETURN(S3ListPage page, ListKeys(loc.bucket, loc.key + "/", false, "", 0));
  for (const S3ListedObject& o : page.objects) {
    RETURN_NOT_OK(Delete(S3PathOf(loc.bucket, o.key)));
  }
  return Delete(path);
}

Status S3FileSystem::Rename(const std::string& from, const std::string& to) {
  speculation_.Clear();
  ASSIGN_OR_RETURN(S3Location src, ParseS3Path(from));
  ASSIGN_OR_RETURN(S3Location dst, ParseS3Path(to));
  if (src.key.empty() || dst.key.empty()) return Status::NotSupported("rename of a bucket ('" + from + "')");
  S3Request req = MakeRequest(S3RequestKind::kPut, "PUT", dst);
  req.headers = {"x-amz-copy-source: /" + src.bucket + "/" + UriEncode(src.key, true)};
  ASSIGN_OR_RETURN(S3Response r, client_->Send(req));
  if (r.status == 404 && XmlText(r.body, "Code").value_or("NoSuchKey") == "NoSuchKey") return NoSuchFile("rename", from);
  if (r.status != 200 || r.body.find("<Error>") != std::string::npos) {
    if (r.status == 200) r.status = 500;
    return ErrorOf(r, "rename to '" + to + "' from", from);
  }
  return Delete(from);
}

}  // namespace shoal::io
