#include "delta/table_path.h"

#include <cctype>
#include <filesystem>
#include <vector>

namespace shoal::delta {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Splits on '/', dropping empty and "." segments; `dotdot` decides what ".." does.
enum class DotDot { kReject, kPop };

Result<std::vector<std::string_view>> Segments(std::string_view path, DotDot dotdot) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t end = path.find('/', pos);
    if (end == std::string_view::npos) end = path.size();
    std::string_view seg = path.substr(pos, end - pos);
    pos = end + 1;
    if (seg.empty() || seg == ".") continue;
    if (seg == "..") {
      if (dotdot == DotDot::kReject) {
        return Status::InvalidArgument("path '" + std::string(path) +
                                       "' has a '..' segment and would escape the table root");
      }
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(seg);
  }
  return out;
}

std::string Join(bool absolute, const std::vector<std::string_view>& segs) {
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < segs.size(); ++i) {
    if (i) out.push_back('/');
    out.append(segs[i]);
  }
  if (out.empty()) out.push_back('.');
  return out;
}

// Absolute, lexically normalized form of the table root ("build/t" -> "/cwd/build/t").
std::string AbsoluteRoot(std::string_view root) {
  std::string r(root);
  if (r.empty() || r[0] != '/') {
    std::error_code ec;
    auto abs = std::filesystem::absolute(r.empty() ? "." : r, ec);
    if (!ec) r = abs.string();
  }
  auto segs = Segments(r, DotDot::kPop);
  return Join(true, *segs);
}

}  // namespace

Result<std::string> PercentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      int hi = i + 2 < s.size() ? HexValue(s[i + 1]) : -1;
      int lo = i + 2 < s.size() ? HexValue(s[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return Status::InvalidArgument("path '" + std::string(s) +
                                       "': bad percent-encoding at position " + std::to_string(i));
      }
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0') {
      return Status::InvalidArgument("path '" + std::string(s) + "' contains a NUL byte");
    }
    out.push_back(c);
  }
  return out;
}

std::string PercentEncodePath(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c >= 0x80 || std::string_view("-_.!~*'()/@&=+$,;").find(static_cast<char>(c)) !=
                                 std::string_view::npos;
    if (keep) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Result<std::string> NormalizePathNoDotDot(std::string_view path) {
  ASSIGN_OR_RETURN(auto segs, Segments(path, DotDot::kReject));
  return Join(!path.empty() && path[0] == '/', segs);
}

Result<std::string> ResolveTablePath(std::string_view table_root, std::string_view path) {
  if (path.empty()) return Status::InvalidArgument("empty file path in the Delta log");
  // A scheme is letters/digits/+/-/. before the first ':' that precedes any '/'.
  size_t colon = path.find(':');
  size_t slash = path.find('/');
  bool has_scheme = colon != std::string_view::npos && colon > 0 &&
                    (slash == std::string_view::npos || colon < slash);
  if (has_scheme) {
    for (size_t i = 0; i < colon; ++i) {
      char c = path[i];
      bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
      if (!ok) {
        has_scheme = false;
        break;
      }
    }
  }
  std::string_view rest = path;
  bool absolute = false;
  if (has_scheme) {
    std::string_view scheme = path.substr(0, colon);
    if (scheme != "file") {
      return Status::InvalidArgument("path '" + std::string(path) + "' has scheme '" +
                                     std::string(scheme) +
                                     "': only file: paths inside the table are supported");
    }
    rest = path.substr(colon + 1);
    if (rest.substr(0, 2) == "//") {  // file://authority/path
      rest.remove_prefix(2);
      size_t s = rest.find('/');
      std::string_view authority = rest.substr(0, s);
      if (!authority.empty() && authority != "localhost") {
        return Status::InvalidArgument("path '" + std::string(path) + "' names remote host '" +
                                       std::string(authority) + "'");
      }
      rest = s == std::string_view::npos ? std::string_view("/") : rest.substr(s);
    }
    if (rest.empty() || rest[0] != '/') {
      return Status::InvalidArgument("path '" + std::string(path) + "' is not an absolute file URI");
    }
    absolute = true;
  } else if (path[0] == '/') {
    absolute = true;
  }
  ASSIGN_OR_RETURN(std::string decoded, PercentDecode(rest));
  auto segs = Segments(decoded, DotDot::kReject);
  if (!segs.ok()) return segs.status();
  if (segs->empty()) {
    return Status::InvalidArgument("path '" + std::string(path) + "' names no file");
  }
  if (!absolute) {
    std::string out(table_root);
    if (out.empty()) out = ".";
    for (auto seg : *segs) {
      if (out.back() != '/') out.push_back('/');
      out.append(seg);
    }
    return out;
  }
  std::string root = AbsoluteRoot(table_root);
  std::string full = Join(true, *segs);
  std::string prefix = root == "/" ? "/" : root + "/";
  if (full.size() <= prefix.size() || full.compare(0, prefix.size(), prefix) != 0) {
    return Status::InvalidArgument("path '" + std::string(path) + "' is outside the table root '" +
                                   root + "'");
  }
  return full;
}

}  // namespace shoal::delta
