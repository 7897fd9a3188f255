#include "io/routing_file_system.h"

#include <utility>

namespace shoal::io {

RoutingFileSystem::RoutingFileSystem(std::shared_ptr<FileSystem> local, std::function<S3Options()> s3_options)
    : local_(std::move(local)), s3_options_(std::move(s3_options)) {}

std::shared_ptr<FileSystem> RoutingFileSystem::For(const std::string& path) {
  if (!IsS3Path(path)) return local_;
  std::lock_guard<std::mutex> lock(mu_);
  if (!s3_) {
    s3_ = std::make_shared<S3FileSystem>(s3_set_ ? *s3_set_ : s3_options_ ? s3_options_() : S3Options::FromEnvironment());
  }
  return s3_;
}

S3Options RoutingFileSystem::s3_options() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (s3_) return s3_->options();
  if (s3_set_) return *s3_set_;
  return s3_options_ ? s3_options_() : S3Options::FromEnvironment();
}

void RoutingFileSystem::SetS3Options(S3Options options) {
  auto next = std::make_shared<S3FileSystem>(options);
  std::shared_ptr<S3FileSystem> old;
  {
    std::lock_guard<std::mutex> lock(mu_);
    s3_set_ = std::move(options);
    old = std::exchange(s3_, next);
    if (old) next->CarryCounters(old->stats());
  }
}

std::shared_ptr<S3FileSystem> RoutingFileSystem::s3_if_used() const {
  std::lock_guard<std::mutex> lock(mu_);
  return s3_;
}

Result<std::unique_ptr<RandomAccessFile>> RoutingFileSystem::OpenForRead(const std::string& path) {
  return For(path)->OpenForRead(path);
}
Result<std::unique_ptr<RandomAccessFile>> RoutingFileSystem::OpenForReadOfSize(const std::string& path,
                                                                               int64_t size) {
  return For(path)->OpenForReadOfSize(path, size);
}

Result<std::unique_ptr<RandomAccessFile>> RoutingFileSystem::OpenForReadBeneath(const std::string& root,
                                                                                const std::string& path,
                                                                                int64_t size) {
  return For(path)->OpenForReadBeneath(root, path, size);
}
bool RoutingFileSystem::IsRemote(const std::string& path) const { return IsS3Path(path) || local_->IsRemote(path); }
Result<std::unique_ptr<WritableFile>> RoutingFileSystem::OpenForWrite(const std::string& path) {
  return For(path)->OpenForWrite(path);
}
Status RoutingFileSystem::PutIfAbsent(const std::string& path, std::string_view contents) {
  return For(path)->PutIfAbsent(path, contents);
}
Status RoutingFileSystem::WriteAtomic(const std::string& path, std::string_view contents) {
  return For(path)->WriteAtomic(path, contents);
}
Result<std::string> RoutingFileSystem::ReadAll(const std::string& path) { return For(path)->ReadAll(path); }
Result<std::vector<FileInfo>> RoutingFileSystem::List(const std::string& dir) { return For(dir)->List(dir); }
Result<std::vector<FileInfo>> RoutingFileSystem::ListFrom(const std::string& dir, std::string_view start_name) {
  return For(dir)->ListFrom(dir, start_name);
}
Result<ListPrefix> RoutingFileSystem::ListFromLimited(const std::string& dir, std::string_view start_name,
                                                      size_t max_entries) {
  return For(dir)->ListFromLimited(dir, start_name, max_entries);
}
void RoutingFileSystem::Speculate(const std::vector<SpeculativeRead>& reads) {
  std::vector<SpeculativeRead> local, s3;
  for (const SpeculativeRead& r : reads) (IsS3Path(r.path) ? s3 : local).push_back(r);
  if (!local.empty()) local_->Speculate(local);
  if (!s3.empty()) For(s3.front().path)->Speculate(s3);
}
void RoutingFileSystem::DropSpeculation() {
  local_->DropSpeculation();
  if (auto s3 = s3_if_used()) s3->DropSpeculation();
}
Result<FileInfo> RoutingFileSystem::Stat(const std::string& path) { return For(path)->Stat(path); }
Result<bool> RoutingFileSystem::Exists(const std::string& path) { return For(path)->Exists(path); }
Status RoutingFileSystem::CreateDirs(const std::string& path) { return For(path)->CreateDirs(path); }
Status RoutingFileSystem::Delete(const std::string& path) { return For(path)->Delete(path); }
Status RoutingFileSystem::DeleteRecursive(const std::string& path) { return For(path)->DeleteRecursive(path); }
Status RoutingFileSystem::SyncDir(const std::string& dir) { return For(dir)->SyncDir(dir); }

Status RoutingFileSystem::Rename(const std::string& from, const std::string& to) {
  if (IsS3Path(from) != IsS3Path(to)) {
    return Status::NotSupported("rename between local files and S3 ('" + from + "' to '" + to + "')");
  }
  return For(from)->Rename(from, to);
}

std::shared_ptr<FileSystem> DefaultFileSystem() {
  static std::shared_ptr<FileSystem> fs = std::make_shared<RoutingFileSystem>(LocalFileSystem(), nullptr);
  return fs;
}

}  // namespace shoal::io
