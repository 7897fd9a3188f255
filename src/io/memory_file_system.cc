#include "io/memory_file_system.h"

#include <cstring>
#include <vector>

#include "io/read_range.h"

namespace shoal::io {

namespace {

class MemoryRandomAccessFile final : public RandomAccessFile {
 public:
  MemoryRandomAccessFile(std::string path, std::shared_ptr<const std::string> data)
      : RandomAccessFile(std::move(path)), data_(std::move(data)) {}
  int64_t Size() const override { return static_cast<int64_t>(data_->size()); }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    RETURN_NOT_OK(CheckReadRange(path_, offset, length, Size()));
    if (length) std::memcpy(out, data_->data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

 private:
  std::shared_ptr<const std::string> data_;
};

}  // namespace

std::unique_ptr<RandomAccessFile> MakeMemoryFile(std::string path, std::shared_ptr<const std::string> data) {
  return std::make_unique<MemoryRandomAccessFile>(std::move(path), std::move(data));
}

// Buffers appends; the file becomes visible (replacing any previous one) on Close.
class MemoryWritableFile final : public WritableFile {
 public:
  MemoryWritableFile(MemoryFileSystem* fs, std::string path) : fs_(fs), path_(std::move(path)) {}
  ~MemoryWritableFile() override { (void)Close(); }
  Status Append(const void* data, size_t length) override {
    if (closed_) return Status::IOError("write to closed file '" + path_ + "'");
    buf_.append(static_cast<const char*>(data), length);
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status Close() override {
    if (!closed_) {
      closed_ = true;
      std::lock_guard<std::mutex> l(fs_->mu_);
      fs_->Store(path_, std::move(buf_));
    }
    return Status::OK();
  }
  int64_t Tell() const override { return static_cast<int64_t>(buf_.size()); }

 private:
  MemoryFileSystem* fs_;
  std::string path_;
  std::string buf_;
  bool closed_ = false;
};

std::string MemoryFileSystem::Normalize(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

void MemoryFileSystem::Store(const std::string& path, std::string data) {
  Entry e;
  e.data = std::make_shared<const std::string>(std::move(data));
  e.mtime_ms = clock_++;
  files_[Normalize(path)] = std::move(e);
}

bool MemoryFileSystem::IsDirLocked(const std::string& path) const {
  std::string p = Normalize(path);
  if (dirs_.count(p)) return true;
  std::string prefix = p + "/";
  auto it = files_.lower_bound(prefix);
  return it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

Result<std::unique_ptr<RandomAccessFile>> MemoryFileSystem::OpenForRead(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = files_.find(Normalize(path));
  if (it == files_.end()) return Status::IOError("open '" + path + "': No such file or directory");
  return std::unique_ptr<RandomAccessFile>(new MemoryRandomAccessFile(path, it->second.data));
}

Result<std::unique_ptr<WritableFile>> MemoryFileSystem::OpenForWrite(const std::string& path) {
  return std::unique_ptr<WritableFile>(new MemoryWritableFile(this, path));
}

Status MemoryFileSystem::PutIfAbsent(const std::string& path, std::string_view contents) {
  std::lock_guard<std::mutex> l(mu_);
  if (files_.count(Normalize(path))) return AlreadyExists(path);
  Store(path, std::string(contents));
  return Status::OK();
}

Status MemoryFileSystem::WriteAtomic(const std::string& path, std::string_view contents) {
  std::lock_guard<std::mutex> l(mu_);
  Store(path, std::string(contents));
  return Status::OK();
}

Result<std::vector<FileInfo>> MemoryFileSystem::List(const std::string& dir) {
  std::lock_guard<std::mutex> l(mu_);
  std::string prefix = Normalize(dir) + "/";
  if (!IsDirLocked(dir)) return Status::IOError("list '" + dir + "': No such file or directory");
  std::map<std::string, FileInfo> out;
  for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    std::string rest = it->first.substr(prefix.size());
    size_t slash = rest.find('/');
    FileInfo info;
    if (slash == std::string::npos) {
      info.name = rest;
      info.size = static_cast<int64_t>(it->second.data->size());
      info.mtime_ms = it->second.mtime_ms;
    } else {
      info.name = rest.substr(0, slash);
      info.is_dir = true;
    }
    out.emplace(info.name, info);
  }
  for (auto it = dirs_.lower_bound(prefix); it != dirs_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    std::string rest = it->first.substr(prefix.size());
    FileInfo info;
    info.name = rest.substr(0, rest.find('/'));
    info.is_dir = true;
    out.emplace(info.name, info);
  }
  std::vector<FileInfo> v;
  for (auto& [_, info] : out) v.push_back(std::move(info));
  return v;
}

Result<FileInfo> MemoryFileSystem::Stat(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = files_.find(Normalize(path));
  FileInfo info;
  info.name = BaseName(Normalize(path));
  if (it != files_.end()) {
    info.size = static_cast<int64_t>(it->second.data->size());
    info.mtime_ms = it->second.mtime_ms;
    return info;
  }
  if (IsDirLocked(path)) {
    info.is_dir = true;
    return info;
  }
  return Status::IOError("stat '" + path + "': No such file or directory");
}

Result<bool> MemoryFileSystem::Exists(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  return files_.count(Normalize(path)) > 0 || IsDirLocked(path);
}

Status MemoryFileSystem::CreateDirs(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  std::string p = Normalize(path);
  std::vector<std::string> prefixes;
  for (size_t pos = 1; pos != std::string::npos; pos = p.find('/', pos + 1)) {
    prefixes.push_back(p.substr(0, p.find('/', pos)));
    if (p.find('/', pos) == std::string::npos) break;
  }
  prefixes.push_back(p);
  for (const std::string& d : prefixes) {
    if (files_.count(d)) return Status::IOError("create directory '" + d + "': not a directory");
  }
  for (const std::string& d : prefixes) dirs_[d] = 1;
  return Status::OK();
}

Status MemoryFileSystem::Delete(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  std::string p = Normalize(path);
  if (files_.erase(p)) return Status::OK();
  if (dirs_.count(p)) {
    std::string prefix = p + "/";
    auto it = files_.lower_bound(prefix);
    if (it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
      return Status::IOError("delete '" + path + "': Directory not empty");
    }
    dirs_.erase(p);
    return Status::OK();
  }
  return Status::IOError("delete '" + path + "': No such file or directory");
}

Status MemoryFileSystem::DeleteRecursive(const std::string& path) {
  std::lock_guard<std::mutex> l(mu_);
  std::string p = Normalize(path);
  std::string prefix = p + "/";
  files_.erase(p);
  dirs_.erase(p);
  for (auto* m : {&files_}) {
    for (auto it = m->lower_bound(prefix); it != m->end() && it->first.compare(0, prefix.size(), prefix) == 0;)
      it = m->erase(it);
  }
  for (auto it = dirs_.lower_bound(prefix); it != dirs_.end() && it->first.compare(0, prefix.size(), prefix) == 0;)
    it = dirs_.erase(it);
  return Status::OK();
}

Status MemoryFileSystem::Rename(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = files_.find(Normalize(from));
  if (it == files_.end()) return Status::IOError("rename '" + from + "': No such file or directory");
  Entry e = it->second;
  files_.erase(it);
  files_[Normalize(to)] = std::move(e);
  return Status::OK();
}

void MemoryFileSystem::SetContents(const std::string& path, std::string contents) {
  std::lock_guard<std::mutex> l(mu_);
  Store(path, std::move(contents));
}

}  // namespace shoal::io
