// POSIX implementation of FileSystem.
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "io/file_system.h"
#include "io/read_range.h"

namespace shoal::io {

namespace {

Status ErrnoStatus(const std::string& what, const std::string& path, int err) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(err));
}

class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(std::string path, int fd, int64_t size)
      : RandomAccessFile(std::move(path)), fd_(fd), size_(size) {}
  ~LocalRandomAccessFile() override { ::close(fd_); }
  int64_t Size() const override { return size_; }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) const override {
    RETURN_NOT_OK(CheckReadRange(path_, offset, length, Size()));
    while (length > 0) {
      ssize_t n = ::pread(fd_, out, static_cast<size_t>(length), offset);
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus("read", path_, errno);
      }
      if (n == 0) return Status::Corruption(path_ + ": file shrank while reading");
      out += n;
      offset += n;
      length -= n;
    }
    return Status::OK();
  }

 private:
  int fd_;
  int64_t size_;
};

class LocalWritableFile final : public WritableFile {
 public:
  LocalWritableFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~LocalWritableFile() override { (void)Close(); }
  Status Append(const void* data, size_t length) override {
    const char* p = static_cast<const char*>(data);
    while (length > 0) {
      ssize_t n = ::write(fd_, p, length);
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus("write", path_, errno);
      }
      p += n;
      length -= static_cast<size_t>(n);
      pos_ += n;
    }
    return Status::OK();
  }
  Status Sync() override {
    if (::fsync(fd_) != 0) return ErrnoStatus("fsync", path_, errno);
    return Status::OK();
  }
  Status Close() override {
    if (fd_ < 0) return Status::OK();
    int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) return ErrnoStatus("close", path_, errno);
    return Status::OK();
  }
  int64_t Tell() const override { return pos_; }

 private:
  std::string path_;
  int fd_;
  int64_t pos_ = 0;
};

std::string TempNameFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t salt = std::random_device{}();
  return DirName(path) + "/." + BaseName(path) + "." + std::to_string(getpid()) + "." +
         std::to_string(salt ^ counter++) + ".tmp";
}

Status WriteTemp(const std::string& tmp, std::string_view contents) {
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("create", tmp, errno);
  LocalWritableFile f(tmp, fd);
  Status st = f.Append(contents.data(), contents.size());
  if (st.ok()) st = f.Sync();
  Status cst = f.Close();
  if (st.ok()) st = cst;
  if (!st.ok()) ::unlink(tmp.c_str());
  return st;
}

class LocalFs final : public FileSystem {
 public:
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus("open", path, errno);
    return FileOfFd(path, fd);
  }

  // openat2 with RESOLVE_BENEATH resolves `path` below `root` atomically: a link (absolute, or
  // with ".." leading above the root) anywhere on the way fails with EXDEV. Kernels without
  // openat2 (before 5.6, or a seccomp filter refusing it) get the same check after opening: the
  // opened file's real path (/proc/self/fd) must lie under the root's.
  Result<std::unique_ptr<RandomAccessFile>> OpenForReadBeneath(const std::string& root, const std::string& path,
                                                               int64_t) override {
    int fd = -1;
    int err = ENOSYS;
    // A path not spelled under the root (an absolute add path of a table opened by a relative
    // root) is checked after opening.
    if (CheckBeneath(root, path).ok()) {
      const std::string rel = path.substr(root.back() == '/' ? root.size() : root.size() + 1);
      int dfd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (dfd < 0) return ErrnoStatus("open", root, errno);
      struct open_how how;
      std::memset(&how, 0, sizeof how);
      how.flags = O_RDONLY | O_CLOEXEC;
      how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
      fd = static_cast<int>(::syscall(SYS_openat2, dfd, rel.c_str(), &how, sizeof how));
      err = errno;
      ::close(dfd);
    }
    if (fd < 0 && (err == ENOSYS || err == EPERM)) {
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      err = errno;
      if (fd >= 0 && !OpenedBeneath(root, path, fd)) {
        ::close(fd);
        fd = -1;
        err = EXDEV;
      }
    }
    if (fd < 0 && err == EXDEV) {
      return Status::InvalidArgument("'" + path + "' resolves outside the table at '" + root +
                                     "' (through a symbolic link); refusing to read it");
    }
    if (fd < 0) return ErrnoStatus("open", path, err);
    return FileOfFd(path, fd);
  }

  static bool OpenedBeneath(const std::string& root, const std::string& path, int fd) {
    char* real_root = ::realpath(root.c_str(), nullptr);
    if (!real_root) return false;
    std::string prefix = std::string(real_root) + "/";
    std::free(real_root);
    char buf[PATH_MAX];
    std::string link = "/proc/self/fd/" + std::to_string(fd);
    ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
    if (n < 0) return errno == ENOENT && CheckBeneath(root, path).ok();  // no /proc: lexical only
    return std::string_view(buf, static_cast<size_t>(n)).starts_with(prefix);
  }

  static Result<std::unique_ptr<RandomAccessFile>> FileOfFd(const std::string& path, int fd) {
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int e = errno;
      ::close(fd);
      return ErrnoStatus("stat", path, e);
    }
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      return Status::IOError("open '" + path + "': is a directory");
    }
    return std::unique_ptr<RandomAccessFile>(new LocalRandomAccessFile(path, fd, st.st_size));
  }

  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoStatus("create", path, errno);
    return std::unique_ptr<WritableFile>(new LocalWritableFile(path, fd));
  }

  Status PutIfAbsent(const std::string& path, std::string_view contents) override {
    std::string tmp = TempNameFor(path);
    RETURN_NOT_OK(WriteTemp(tmp, contents));
    // link() fails with EEXIST if the target exists: the atomic put-if-absent.
    int rc = ::link(tmp.c_str(), path.c_str());
    int err = errno;
    ::unlink(tmp.c_str());
    if (rc != 0) {
      if (err == EEXIST) return AlreadyExists(path);
      return ErrnoStatus("link", path, err);
    }
    return SyncDir(DirName(path));
  }

  Status WriteAtomic(const std::string& path, std::string_view contents) override {
    std::string tmp = TempNameFor(path);
    RETURN_NOT_OK(WriteTemp(tmp, contents));
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      ::unlink(tmp.c_str());
      return ErrnoStatus("rename", path, err);
    }
    return SyncDir(DirName(path));
  }

  Result<std::vector<FileInfo>> List(const std::string& dir) override { return ListFrom(dir, {}); }

  // readdir returns names without a stat; only the entries kept are stat'ed, so a snapshot load
  // that lists `_delta_log/` from its checkpoint pays for the few files after it, not for the
  // 100,000 commits before.
  Result<std::vector<FileInfo>> ListFrom(const std::string& dir, std::string_view start_name) override {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return ErrnoStatus("list", dir, errno);
    std::vector<FileInfo> out;
    const int dfd = ::dirfd(d);
    while (struct dirent* e = ::readdir(d)) {
      std::string_view name = e->d_name;
      if (name == "." || name == ".." || name < start_name) continue;
      // Relative to the open directory: no path join and no walk of the parents per entry.
      struct stat st;
      if (::fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // vanished meanwhile
      const bool link = S_ISLNK(st.st_mode);
      // A link describes its target (a dangling one itself).
      if (link && ::fstatat(dfd, e->d_name, &st, 0) != 0 &&
          ::fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        continue;
      }
      out.push_back(InfoOf(std::string(name), st));
      out.back().is_symlink = link;
    }
    ::closedir(d);
    return out;
  }

  Result<FileInfo> Stat(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return ErrnoStatus("stat", path, errno);
    return InfoOf(BaseName(path), st);
  }

  static FileInfo InfoOf(std::string name, const struct stat& st) {
    FileInfo info;
    info.name = std::move(name);
    info.size = st.st_size;
    info.mtime_ms = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
    info.is_dir = S_ISDIR(st.st_mode);
    return info;
  }

  Result<bool> Exists(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) return true;
    if (errno == ENOENT || errno == ENOTDIR) return false;
    return ErrnoStatus("stat", path, errno);
  }

  // Creates each missing component, then fsyncs the parent of every directory it created so
  // the new names survive a crash (a commit into a new partition directory must not vanish).
  Status CreateDirs(const std::string& path) override {
    struct stat existing;
    if (::stat(path.c_str(), &existing) == 0 && S_ISDIR(existing.st_mode)) return Status::OK();
    std::filesystem::path p = std::filesystem::path(path).lexically_normal();
    std::vector<std::filesystem::path> created;
    std::filesystem::path prefix;
    for (const auto& part : p) {
      prefix /= part;
      if (part.empty() || part == "/" || part == "." || part == "..") continue;
      if (::mkdir(prefix.c_str(), 0777) == 0) {
        created.push_back(prefix);
      } else if (errno != EEXIST) {
        return ErrnoStatus("create directory", prefix.string(), errno);
      } else {
        struct stat st;
        if (::stat(prefix.c_str(), &st) != 0) return ErrnoStatus("create directory", prefix.string(), errno);
        if (!S_ISDIR(st.st_mode)) return Status::IOError("create directory '" + prefix.string() + "': not a directory");
      }
    }
    for (const auto& dir : created) RETURN_NOT_OK(SyncDir(dir.parent_path().string()));
    return Status::OK();
  }

  Status Delete(const std::string& path) override {
    if (::remove(path.c_str()) != 0) return ErrnoStatus("delete", path, errno);
    return Status::OK();
  }

  Status DeleteRecursive(const std::string& path) override {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    if (ec) return Status::IOError("delete '" + path + "': " + ec.message());
    return Status::OK();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return ErrnoStatus("rename", from, errno);
    return Status::OK();
  }

  Status SyncDir(const std::string& dir) override {
    int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus("open directory", dir, errno);
    int rc = ::fsync(fd);
    int err = errno;
    ::close(fd);
    if (rc != 0) return ErrnoStatus("fsync directory", dir, err);
    return Status::OK();
  }
};

}  // namespace

std::shared_ptr<FileSystem> LocalFileSystem() {
  static std::shared_ptr<FileSystem> fs = std::make_shared<LocalFs>();
  return fs;
}

}  // namespace shoal::io
