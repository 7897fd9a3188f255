// String functions that find parts of a string, as Spark defines them: locate, split_part,
// substring_index, find_in_set, elt, levenshtein. Positions count UTF-8 characters from 1.
#include <algorithm>
#include <string>
#include <vector>

#include "expr/row_kernels.h"

namespace shoal::expr {

using columnar::VectorPtr;

namespace {

TypePtr Str() { return columnar::String(); }
TypePtr I32() { return columnar::Int32(); }

// locate(substr, str[, pos]): 1-based character position of substr at or after pos, else 0
// (0 also for pos < 1).
Status LocateKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    std::string_view sub = StrArg(call, 0, i), s = StrArg(call, 1, i);
    int64_t pos = call.num_args > 2 ? FixedArg<int32_t>(call, 2, i) : 1;
    *r = 0;
    if (pos < 1) return RowStatus::kOk;
    size_t from = Utf8Offset(s, pos - 1);
    if (from > s.size() || (from == s.size() && Utf8Length(s) < pos - 1)) return RowStatus::kOk;
    size_t hit = s.find(sub, from);
    if (hit != std::string_view::npos) *r = static_cast<int32_t>(Utf8Length(s.substr(0, hit)) + 1);
    return RowStatus::kOk;
  }, out);
}

std::vector<std::string_view> SplitOn(std::string_view s, std::string_view delim) {
  std::vector<std::string_view> parts;
  if (delim.empty()) return {s};
  size_t pos = 0;
  while (true) {
    size_t hit = s.find(delim, pos);
    if (hit == std::string_view::npos) break;
    parts.push_back(s.substr(pos, hit - pos));
    pos = hit + delim.size();
  }
  parts.push_back(s.substr(pos));
  return parts;
}

// split_part(str, delim, n): the n-th part (negative: from the end), '' past the end; n = 0 is
// an error (Spark).
Status SplitPartKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    int64_t n = FixedArg<int32_t>(call, 2, i);
    if (n == 0) return Status::InvalidArgument("[INVALID_INDEX_OF_ZERO] split_part() part number must not be 0");
    std::string_view in = StrArg(call, 0, i);
    auto parts = SplitOn(in, StrArg(call, 1, i));
    if (in.empty()) return RowStatus::kOk;
    auto k = static_cast<int64_t>(parts.size());
    int64_t idx = n > 0 ? n - 1 : k + n;
    if (idx >= 0 && idx < k) s->assign(parts[idx]);
    return RowStatus::kOk;
  }, out);
}

// substring_index(str, delim, count): before the count-th delim (count < 0: after the
// count-th from the end).
Status SubstringIndexKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    std::string_view in = StrArg(call, 0, i), d = StrArg(call, 1, i);
    int64_t count = FixedArg<int32_t>(call, 2, i);
    if (count == 0 || d.empty()) return RowStatus::kOk;
    if (count > 0) {
      size_t pos = 0;
      for (int64_t k = 0; k < count; ++k) {
        size_t hit = in.find(d, k == 0 ? 0 : pos + d.size());
        if (hit == std::string_view::npos) {
          s->assign(in);
          return RowStatus::kOk;
        }
        pos = hit;
      }
      s->assign(in.substr(0, pos));
      return RowStatus::kOk;
    }
    size_t pos = in.size();
    for (int64_t k = 0; k < -count; ++k) {
      size_t hit = pos < d.size() ? std::string_view::npos : in.rfind(d, pos - d.size());
      if (hit == std::string_view::npos) {
        s->assign(in);
        return RowStatus::kOk;
      }
      pos = hit;
    }
    s->assign(in.substr(pos + d.size()));
    return RowStatus::kOk;
  }, out);
}

// find_in_set(str, list): 1-based index of str in the comma-separated list; 0 when absent or
// when str holds a comma.
Status FindInSetKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    std::string_view x = StrArg(call, 0, i);
    *r = 0;
    if (x.find(',') != std::string_view::npos) return RowStatus::kOk;
    auto parts = SplitOn(StrArg(call, 1, i), ",");
    for (size_t k = 0; k < parts.size(); ++k) {
      if (parts[k] == x) {
        *r = static_cast<int32_t>(k + 1);
        break;
      }
    }
    return RowStatus::kOk;
  }, out);
}

// elt(n, s1, s2, ...): the n-th string; out of range is an error (ANSI mode).
Status EltKernel(const KernelCall& call, VectorPtr* out) {
  return StringRows(call, [&](int64_t i, std::string* s) -> Result<RowStatus> {
    if (call.arg(0).IsNull(i)) return RowStatus::kNull;
    int64_t n = FixedArg<int32_t>(call, 0, i);
    if (n < 1 || n >= static_cast<int64_t>(call.num_args)) {
      return Status::OutOfRange("[INVALID_ARRAY_INDEX] The index " + std::to_string(n) +
                                " is out of bounds. The array has " + std::to_string(call.num_args - 1) +
                                " elements.");
    }
    if (call.arg(static_cast<size_t>(n)).IsNull(i)) return RowStatus::kNull;
    s->assign(StrArg(call, static_cast<size_t>(n), i));
    return RowStatus::kOk;
  }, out, false);
}

std::vector<uint32_t> CodePoints(std::string_view s) {
  std::vector<uint32_t> cps;
  for (size_t k = 0; k < s.size();) {
    size_t e = Utf8Offset(s.substr(k), 1);
    uint32_t cp = 0;
    for (size_t j = k; j < k + e; ++j) cp = (cp << 8) | static_cast<unsigned char>(s[j]);
    cps.push_back(cp);
    k += e;
  }
  return cps;
}

// levenshtein(a, b[, threshold]): edit distance in characters; -1 when above threshold.
Status LevenshteinKernel(const KernelCall& call, VectorPtr* out) {
  return FixedRows<int32_t>(call, [&](int64_t i, int32_t* r) -> Result<RowStatus> {
    auto a = CodePoints(StrArg(call, 0, i)), b = CodePoints(StrArg(call, 1, i));
    std::vector<int32_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int32_t>(j);
    for (size_t k = 1; k <= a.size(); ++k) {
      cur[0] = static_cast<int32_t>(k);
      for (size_t j = 1; j <= b.size(); ++j) {
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[k - 1] == b[j - 1] ? 0 : 1)});
      }
      std::swap(prev, cur);
    }
    *r = prev[b.size()];
    if (call.num_args > 2 && *r > FixedArg<int32_t>(call, 2, i)) *r = -1;
    return RowStatus::kOk;
  }, out);
}

}  // namespace

void RegisterStringSearchFunctions(FunctionRegistry* r) {
  r->Add({"locate", "locate(STRING substr, STRING str[, INT pos])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, I32(), LocateKernel, o) ||
                   Fixed(a, {Str(), Str(), I32()}, I32(), LocateKernel, o);
          }});
  r->Add({"split_part", "split_part(STRING, STRING delim, INT part)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str(), I32()}, Str(), SplitPartKernel, o);
          }});
  r->Add({"substring_index", "substring_index(STRING, STRING delim, INT count)",
          [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str(), I32()}, Str(), SubstringIndexKernel, o);
          }});
  r->Add({"find_in_set", "find_in_set(STRING, STRING list)", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, I32(), FindInSetKernel, o);
          }});
  r->Add({"elt", "elt(INT n, STRING, ...)", [](const std::vector<TypePtr>& a, Overload* o) {
            if (a.size() < 2) return false;
            if (!Fixed(a, {I32()}, Str(), EltKernel, o, Str())) return false;
            o->propagates_nulls = false;
            return true;
          }});
  r->Add({"levenshtein", "levenshtein(STRING, STRING[, INT threshold])", [](const std::vector<TypePtr>& a, Overload* o) {
            return Fixed(a, {Str(), Str()}, I32(), LevenshteinKernel, o) ||
                   Fixed(a, {Str(), Str(), I32()}, I32(), LevenshteinKernel, o);
          }});
}

}  // namespace shoal::expr
