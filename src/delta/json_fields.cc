#include "delta/json_fields.h"

namespace shoal::delta {

std::string JsonText(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Result<Json> ParseJson(std::string_view text, std::string_view what) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::Corruption(std::string(what) + ": invalid JSON");
  return j;
}

const Json* JsonFields::Find(std::string_view key) const {
  if (!obj_.is_object()) return nullptr;
  auto it = obj_.find(key);
  if (it == obj_.end() || it->is_null()) return nullptr;
  return &*it;
}

Status JsonFields::Missing(std::string_view key) const {
  return Status::Corruption(std::string(what_) + ": missing required field '" + std::string(key) +
                            "'");
}

Status JsonFields::WrongType(std::string_view key, const char* expected) const {
  return Status::Corruption(std::string(what_) + ": field '" + std::string(key) +
                            "' is not " + expected);
}

Status JsonFields::RequiredString(std::string_view key, std::string* out) const {
  const Json* v = Find(key);
  if (!v) return Missing(key);
  if (!v->is_string()) return WrongType(key, "a string");
  *out = v->get_ref<const std::string&>();
  return Status::OK();
}

Status JsonFields::OptionalString(std::string_view key, std::optional<std::string>* out) const {
  const Json* v = Find(key);
  if (!v) {
    out->reset();
    return Status::OK();
  }
  if (!v->is_string()) return WrongType(key, "a string");
  *out = v->get_ref<const std::string&>();
  return Status::OK();
}

namespace {
bool ToInt64(const Json& v, int64_t* out) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned()) {
      uint64_t u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(INT64_MAX)) return false;
      *out = static_cast<int64_t>(u);
    } else {
      *out = v.get<int64_t>();
    }
    return true;
  }
  return false;
}
}  // namespace

Status JsonFields::RequiredInt64(std::string_view key, int64_t* out) const {
  const Json* v = Find(key);
  if (!v) return Missing(key);
  if (!ToInt64(*v, out)) return WrongType(key, "an integer");
  return Status::OK();
}

Status JsonFields::OptionalInt64(std::string_view key, std::optional<int64_t>* out) const {
  const Json* v = Find(key);
  if (!v) {
    out->reset();
    return Status::OK();
  }
  int64_t x;
  if (!ToInt64(*v, &x)) return WrongType(key, "an integer");
  *out = x;
  return Status::OK();
}

Status JsonFields::RequiredBool(std::string_view key, bool* out) const {
  const Json* v = Find(key);
  if (!v) return Missing(key);
  if (!v->is_boolean()) return WrongType(key, "a boolean");
  *out = v->get<bool>();
  return Status::OK();
}

Status JsonFields::OptionalBool(std::string_view key, std::optional<bool>* out) const {
  const Json* v = Find(key);
  if (!v) {
    out->reset();
    return Status::OK();
  }
  if (!v->is_boolean()) return WrongType(key, "a boolean");
  *out = v->get<bool>();
  return Status::OK();
}

Status JsonFields::StringArray(std::string_view key, bool required,
                               std::vector<std::string>* out) const {
  out->clear();
  const Json* v = Find(key);
  if (!v) return required ? Missing(key) : Status::OK();
  if (!v->is_array()) return WrongType(key, "an array of strings");
  out->reserve(v->size());
  for (const auto& e : *v) {
    if (!e.is_string()) return WrongType(key, "an array of strings");
    out->push_back(e.get_ref<const std::string&>());
  }
  return Status::OK();
}

Status JsonFields::StringMap(std::string_view key, std::map<std::string, std::string>* out) const {
  out->clear();
  const Json* v = Find(key);
  if (!v) return Status::OK();
  if (!v->is_object()) return WrongType(key, "an object of strings");
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (it->is_null()) continue;  // Spark never writes null here; tolerate and drop it
    if (!it->is_string()) return WrongType(key, "an object of strings");
    out->emplace(it.key(), it->get_ref<const std::string&>());
  }
  return Status::OK();
}

Status JsonFields::NullableStringMap(std::string_view key, bool required,
                                     std::map<std::string, std::optional<std::string>>* out) const {
  out->clear();
  const Json* v = Find(key);
  if (!v) return required ? Missing(key) : Status::OK();
  if (!v->is_object()) return WrongType(key, "an object of strings");
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (it->is_null()) {
      out->emplace(it.key(), std::nullopt);
    } else if (it->is_string()) {
      out->emplace(it.key(), it->get_ref<const std::string&>());
    } else {
      return WrongType(key, "an object of strings");
    }
  }
  return Status::OK();
}

Status JsonFields::OptionalObject(std::string_view key, const Json** out) const {
  const Json* v = Find(key);
  *out = nullptr;
  if (!v) return Status::OK();
  if (!v->is_object()) return WrongType(key, "an object");
  *out = v;
  return Status::OK();
}

}  // namespace shoal::delta
