#include "support/json_compare.h"

namespace shoal::testing {

namespace {

using json = nlohmann::json;

std::string IntText(const json& j) {
  if (j.is_number_unsigned()) return std::to_string(j.get<uint64_t>());
  if (j.is_number_integer()) return std::to_string(j.get<int64_t>());
  return j.dump();
}

bool Differ(const json& a, const json& b, std::string* why) {
  *why = a.dump() + " vs " + b.dump();
  return false;
}

bool SameNumbers(const json& a, const json& b, std::string* why, const JsonCompareOptions& o) {
  if (a.is_number_integer() && b.is_number_integer()) {
    if (IntText(a) == IntText(b)) return true;
    if (!o.integers_as_floats) return Differ(a, b, why);
  }
  double x = a.get<double>(), y = b.get<double>();
  if (x == y || static_cast<float>(x) == static_cast<float>(y)) return true;
  return Differ(a, b, why);
}

std::string StripUtc(std::string s) {
  if (s.size() > 3 && s.compare(s.size() - 3, 3, "+00") == 0) s.resize(s.size() - 3);
  return s;
}

}  // namespace

bool SameJson(const json& a, const json& b, std::string* why, const JsonCompareOptions& o) {
  if (a.is_number() && b.is_number()) return SameNumbers(a, b, why, o);
  if (a.is_number() && b.is_string() && IntText(a) == b.get<std::string>()) return true;
  if (a.is_string() && b.is_number() && a.get<std::string>() == IntText(b)) return true;
  if (a.type() != b.type()) return Differ(a, b, why);
  if (a.is_string() && o.ignore_utc_suffix) {
    if (StripUtc(a.get<std::string>()) == StripUtc(b.get<std::string>())) return true;
    return Differ(a, b, why);
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return Differ(a, b, why);
    for (size_t i = 0; i < a.size(); ++i) {
      if (!SameJson(a[i], b[i], why, o)) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return Differ(a, b, why);
    auto ib = b.begin();
    for (auto ia = a.begin(); ia != a.end(); ++ia, ++ib) {
      const json* other = nullptr;
      if (o.ordered_keys) {
        if (ia.key() != ib.key()) {
          *why = "key " + ia.key() + " vs " + ib.key();
          return false;
        }
        other = &ib.value();
      } else {
        auto it = b.find(ia.key());
        if (it == b.end()) {
          *why = "key " + ia.key() + " missing";
          return false;
        }
        other = &*it;
      }
      if (!SameJson(ia.value(), *other, why, o)) {
        *why = ia.key() + ": " + *why;
        return false;
      }
    }
    return true;
  }
  if (a == b) return true;
  return Differ(a, b, why);
}

}  // namespace shoal::testing
