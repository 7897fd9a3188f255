#include "sql/execution/spill_file.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "columnar/batch_codec.h"
#include "parquet/crc32.h"

namespace shoal::sql {

namespace {

constexpr char kPrefix[] = "shoal-spill-";
constexpr char kSuffix[] = ".bin";
constexpr uint32_t kMagic = 0x50534853;  // "SHSP"
constexpr size_t kHeader = 16;           // magic, CRC-32 of the payload, payload length

std::atomic<uint64_t> file_counter{0};

// The pid in a spill file's name, or -1 when `name` is not one.
int64_t PidOf(std::string_view name) {
  const std::string_view prefix(kPrefix), suffix(kSuffix);
  if (name.size() <= prefix.size() + suffix.size() || name.substr(0, prefix.size()) != prefix ||
      name.substr(name.size() - suffix.size()) != suffix) {
    return -1;
  }
  std::string_view rest = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  const size_t dash = rest.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 == rest.size()) return -1;
  int64_t pid = -1;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + dash, pid);
  if (ec != std::errc() || end != rest.data() + dash || pid <= 0) return -1;
  for (char c : rest.substr(dash + 1)) {
    if (c < '0' || c > '9') return -1;
  }
  return pid;
}

bool ProcessGone(int64_t pid) { return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

Status Torn(const std::string& path, const std::string& what) {
  return Status::IOError("spill file " + path + " is damaged: " + what);
}

}  // namespace

SpillManager::SpillManager(std::shared_ptr<io::FileSystem> fs, std::string default_dir)
    : fs_(std::move(fs)), default_dir_(std::move(default_dir)), dir_(default_dir_) {}

SpillManager::~SpillManager() {
  // Files still open belong to SpillFiles, which hold this manager: none are left here, but a
  // directory this manager made goes when it is empty.
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& p : open_) (void)fs_->Delete(p);
  for (const auto& d : made_dirs_) (void)fs_->Delete(d);  // fails (and stays) when not empty
}

Status SpillManager::SetDirectory(const std::string& dir) {
  if (!dir.empty()) RETURN_NOT_OK(RemoveStaleFiles(*fs_, dir).status().WithContext("SET temp_directory"));
  std::lock_guard<std::mutex> lock(mu_);
  dir_ = dir;
  return Status::OK();
}

void SpillManager::ResetDirectory() {
  std::lock_guard<std::mutex> lock(mu_);
  dir_ = default_dir_;
}

std::string SpillManager::directory() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dir_;
}

bool SpillManager::enabled() const { return !directory().empty(); }

int64_t SpillManager::files_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(open_.size());
}

Result<int> SpillManager::RemoveStaleFiles(io::FileSystem& fs, const std::string& dir) {
  ASSIGN_OR_RETURN(bool exists, fs.Exists(dir));
  if (!exists) return 0;
  ASSIGN_OR_RETURN(auto entries, fs.List(dir));
  int removed = 0;
  for (const auto& e : entries) {
    const int64_t pid = PidOf(e.name);
    if (e.is_dir || pid < 0 || pid == ::getpid() || !ProcessGone(pid)) continue;
    Status st = fs.Delete(io::JoinPath(dir, e.name));
    if (st.ok()) ++removed;
  }
  return removed;
}

Result<std::unique_ptr<SpillFile>> SpillManager::Create(columnar::SchemaPtr schema, int64_t buffer_bytes,
                                                        std::atomic<int64_t>* spilled) {
  std::string path;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_.empty()) return Status::NotSupported("spilling is disabled (SET temp_directory = '')");
    ASSIGN_OR_RETURN(bool exists, fs_->Exists(dir_));
    if (!exists) {
      RETURN_NOT_OK(fs_->CreateDirs(dir_).WithContext("temp_directory"));
      made_dirs_.insert(dir_);
    }
    std::string name = kPrefix;
    name.append(std::to_string(::getpid())).append("-");
    name.append(std::to_string(file_counter.fetch_add(1))).append(kSuffix);
    path = io::JoinPath(dir_, name);
    open_.insert(path);
  }
  std::unique_ptr<SpillFile> f(
      new SpillFile(shared_from_this(), path, std::move(schema), buffer_bytes, spilled));
  auto out = fs_->OpenForWrite(path);
  if (!out.ok()) return out.status().WithContext("temp_directory");  // f's destructor forgets it
  f->out_ = std::move(*out);
  files_created_.fetch_add(1, std::memory_order_relaxed);
  return f;
}

void SpillManager::Forget(const std::string& path) {
  (void)fs_->Delete(path);
  std::lock_guard<std::mutex> lock(mu_);
  open_.erase(path);
}

SpillFile::SpillFile(std::shared_ptr<SpillManager> manager, std::string path, columnar::SchemaPtr schema,
                     int64_t buffer_bytes, std::atomic<int64_t>* spilled)
    : manager_(std::move(manager)),
      path_(std::move(path)),
      schema_(std::move(schema)),
      buffer_bytes_(std::max<int64_t>(buffer_bytes, 4096)),
      spilled_(spilled) {}

SpillFile::~SpillFile() {
  if (out_) (void)out_->Close();
  out_.reset();
  in_.reset();
  manager_->Forget(path_);
}

Status SpillFile::Append(const columnar::RecordBatch& b) {
  if (!out_) return Status::Internal("spill file " + path_ + " appended after FinishWriting");
  if (b.num_rows >= min_block_rows_ && pending_.empty()) return AppendBlock(b);
  pending_.push_back(std::make_shared<columnar::RecordBatch>(b));
  pending_rows_ += b.num_rows;
  return pending_rows_ >= min_block_rows_ ? AppendPending() : Status::OK();
}

Status SpillFile::AppendPending() {
  if (pending_.empty()) return Status::OK();
  std::vector<columnar::VectorPtr> cols;
  for (size_t c = 0; c < pending_[0]->columns.size(); ++c) {
    std::vector<columnar::VectorPtr> parts;
    for (const auto& p : pending_) parts.push_back(p->columns[c]);
    cols.push_back(parts.size() == 1 ? parts[0] : columnar::Concat(parts));
  }
  const columnar::RecordBatch block(schema_, std::move(cols), pending_rows_);
  pending_.clear();
  pending_rows_ = 0;
  return AppendBlock(block);
}

Status SpillFile::AppendBlock(const columnar::RecordBatch& b) {
  const size_t at = buffer_.size();
  buffer_.resize(at + kHeader);
  columnar::SerializeBatch(b, &buffer_);
  const uint64_t len = buffer_.size() - at - kHeader;
  const uint32_t crc = parquet::Crc32(0, buffer_.data() + at + kHeader, len);
  std::memcpy(buffer_.data() + at, &kMagic, 4);
  std::memcpy(buffer_.data() + at + 4, &crc, 4);
  std::memcpy(buffer_.data() + at + 8, &len, 8);
  rows_ += b.num_rows;
  ++blocks_;
  if (static_cast<int64_t>(buffer_.size()) >= buffer_bytes_) return Flush();
  return Status::OK();
}

Status SpillFile::Flush() {
  if (buffer_.empty()) return Status::OK();
  RETURN_NOT_OK(out_->Append(buffer_.data(), buffer_.size()).WithContext("writing spill file " + path_));
  const auto n = static_cast<int64_t>(buffer_.size());
  file_size_ += n;
  manager_->bytes_written_.fetch_add(n, std::memory_order_relaxed);
  if (spilled_) spilled_->fetch_add(n, std::memory_order_relaxed);
  buffer_.clear();
  return Status::OK();
}

Status SpillFile::FinishWriting() {
  if (!out_) return Status::OK();
  RETURN_NOT_OK(AppendPending());
  RETURN_NOT_OK(Flush());
  RETURN_NOT_OK(out_->Close().WithContext("writing spill file " + path_));
  out_.reset();
  std::string().swap(buffer_);
  ASSIGN_OR_RETURN(in_, manager_->fs_->OpenForRead(path_));
  if (in_->Size() != file_size_) {
    return Torn(path_, std::to_string(in_->Size()) + " bytes where " + std::to_string(file_size_) +
                           " were written");
  }
  return Status::OK();
}

Status SpillFile::Fill(size_t n) {
  const size_t have = buffer_.size() - pos_;
  if (have >= n) return Status::OK();
  buffer_.erase(0, pos_);
  pos_ = 0;
  const int64_t left = file_size_ - read_offset_;
  const int64_t want = std::min<int64_t>(left, std::max<int64_t>(buffer_bytes_, static_cast<int64_t>(n - have)));
  if (static_cast<int64_t>(n - have) > left) return Torn(path_, "it ends inside a block");
  buffer_.resize(have + static_cast<size_t>(want));
  Status st = in_->ReadAt(read_offset_, want, reinterpret_cast<uint8_t*>(buffer_.data() + have));
  if (!st.ok()) return Torn(path_, st.message());
  read_offset_ += want;
  return Status::OK();
}

Result<columnar::BatchPtr> SpillFile::Next() {
  if (out_) return Status::Internal("spill file " + path_ + " read before FinishWriting");
  if (!in_) return Status::Internal("spill file " + path_ + " has no reader");
  if (blocks_read_ == blocks_) {
    if (pos_ != buffer_.size() || read_offset_ != file_size_) return Torn(path_, "bytes after the last block");
    std::string().swap(buffer_);
    return columnar::BatchPtr();
  }
  RETURN_NOT_OK(Fill(kHeader));
  uint32_t magic = 0, crc = 0;
  uint64_t len = 0;
  std::memcpy(&magic, buffer_.data() + pos_, 4);
  std::memcpy(&crc, buffer_.data() + pos_ + 4, 4);
  std::memcpy(&len, buffer_.data() + pos_ + 8, 8);
  if (magic != kMagic) return Torn(path_, "no block header at offset " + std::to_string(read_offset_ - static_cast<int64_t>(buffer_.size() - pos_)));
  if (len > static_cast<uint64_t>(file_size_)) return Torn(path_, "a block of " + std::to_string(len) + " bytes");
  pos_ += kHeader;
  RETURN_NOT_OK(Fill(static_cast<size_t>(len)));
  const auto* p = reinterpret_cast<const uint8_t*>(buffer_.data() + pos_);
  if (parquet::Crc32(0, p, len) != crc) return Torn(path_, "a block's checksum does not match");
  auto b = columnar::DeserializeBatch(schema_, p, static_cast<size_t>(len), "spill file " + path_);
  if (!b.ok()) return Status::IOError(b.status().message());
  pos_ += static_cast<size_t>(len);
  ++blocks_read_;
  return std::move(*b);
}

Status AppendToPartitions(const columnar::RecordBatch& rows, const std::vector<std::vector<uint32_t>>& sel,
                          std::vector<std::unique_ptr<SpillFile>>* files,
                          const std::function<Result<std::unique_ptr<SpillFile>>()>& create) {
  if (files->size() < sel.size()) files->resize(sel.size());
  for (size_t p = 0; p < sel.size(); ++p) {
    if (sel[p].empty()) continue;
    auto& f = (*files)[p];
    if (!f) {
      ASSIGN_OR_RETURN(f, create());
    }
    const auto n = static_cast<int64_t>(sel[p].size());
    if (n == rows.num_rows) {
      RETURN_NOT_OK(f->Append(rows));
    } else {
      RETURN_NOT_OK(f->Append(*columnar::GatherBatch(rows, sel[p].data(), n)));
    }
  }
  return Status::OK();
}

}  // namespace shoal::sql
