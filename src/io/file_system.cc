#include "io/file_system.h"

#include <algorithm>

namespace shoal::io {

namespace {
constexpr const char* kAlreadyExists = "already exists: ";
}

Status AlreadyExists(const std::string& path) { return Status::IOError(kAlreadyExists + path); }

bool IsAlreadyExists(const Status& st) {
  return st.code() == StatusCode::kIOError && st.message().rfind(kAlreadyExists, 0) == 0;
}

Status RandomAccessFile::ReadMany(const std::vector<ReadRequest>& reqs) const {
  for (const ReadRequest& r : reqs) RETURN_NOT_OK(ReadAt(r.offset, r.length, r.out));
  return Status::OK();
}

Result<std::unique_ptr<RandomAccessFile>> FileSystem::OpenForReadOfSize(const std::string& path, int64_t) {
  return OpenForRead(path);
}

Status CheckBeneath(const std::string& root, const std::string& path) {
  if (root.empty() || path.size() <= root.size() + 1 || path.compare(0, root.size(), root) != 0 ||
      (path[root.size()] != '/' && root.back() != '/')) {
    return Status::InvalidArgument("'" + path + "' is not a file inside the table at '" + root + "'");
  }
  return Status::OK();
}

Result<std::unique_ptr<RandomAccessFile>> FileSystem::OpenForReadBeneath(const std::string& root,
                                                                         const std::string& path, int64_t size) {
  RETURN_NOT_OK(CheckBeneath(root, path));
  return size >= 0 ? OpenForReadOfSize(path, size) : OpenForRead(path);
}

Result<std::string> FileSystem::ReadAll(const std::string& path) {
  ASSIGN_OR_RETURN(auto file, OpenForRead(path));
  std::string out(static_cast<size_t>(file->Size()), '\0');
  RETURN_NOT_OK(file->ReadAt(0, file->Size(), reinterpret_cast<uint8_t*>(out.data())));
  return out;
}

Result<std::vector<FileInfo>> FileSystem::ListFrom(const std::string& dir, std::string_view start_name) {
  ASSIGN_OR_RETURN(auto entries, List(dir));
  std::erase_if(entries, [&](const FileInfo& e) { return std::string_view(e.name) < start_name; });
  return entries;
}

Result<ListPrefix> FileSystem::ListFromLimited(const std::string& dir, std::string_view start_name, size_t) {
  ListPrefix out;
  ASSIGN_OR_RETURN(out.entries, ListFrom(dir, start_name));
  std::sort(out.entries.begin(), out.entries.end(), [](const FileInfo& a, const FileInfo& b) { return a.name < b.name; });
  return out;
}

std::string JoinPath(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  std::string out(a);
  if (out.back() != '/') out.push_back('/');
  if (b.front() == '/') b.remove_prefix(1);
  out.append(b);
  return out;
}

std::string DirName(std::string_view path) {
  size_t p = path.find_last_of('/');
  if (p == std::string_view::npos) return "";
  if (p == 0) return "/";
  return std::string(path.substr(0, p));
}

std::string BaseName(std::string_view path) {
  size_t p = path.find_last_of('/');
  return std::string(p == std::string_view::npos ? path : path.substr(p + 1));
}

}  // namespace shoal::io
