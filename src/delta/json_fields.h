// JsonFields: typed, exception-free access to the fields of one JSON object from the Delta log,
// turning missing or mistyped fields into Corruption statuses that name the field.
//
// Thread-safety: a value over a borrowed JSON object; use from one thread at a time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "shoal/status.h"

namespace shoal::delta {

// Ordered JSON keeps the writer's key order, so raw JSON (commitInfo, schema metadata) round-trips.
using Json = nlohmann::ordered_json;

// Parses `text` without exceptions; Corruption naming `what` when it is not valid JSON.
Result<Json> ParseJson(std::string_view text, std::string_view what);

// Serializes `j` without exceptions: invalid UTF-8 in a string (from a data value, a corrupt
// checkpoint or a SQL literal) becomes U+FFFD instead of throwing. `indent` < 0: compact.
// Every JSON text shoal writes goes through here; nlohmann's dump() must not be called directly.
std::string JsonText(const Json& j, int indent = -1);

class JsonFields {
 public:
  // `obj` must outlive this reader; `what` names the object in errors (e.g. "add").
  JsonFields(const Json& obj, std::string_view what) : obj_(obj), what_(what) {}

  // Returns the field, or nullptr when it is absent or JSON null.
  const Json* Find(std::string_view key) const;

  Status RequiredString(std::string_view key, std::string* out) const;
  Status OptionalString(std::string_view key, std::optional<std::string>* out) const;
  Status RequiredInt64(std::string_view key, int64_t* out) const;
  Status OptionalInt64(std::string_view key, std::optional<int64_t>* out) const;
  Status RequiredBool(std::string_view key, bool* out) const;
  Status OptionalBool(std::string_view key, std::optional<bool>* out) const;
  // A JSON array of strings; absent/null gives an empty vector when not required.
  Status StringArray(std::string_view key, bool required, std::vector<std::string>* out) const;
  // A JSON object of string values; absent/null gives an empty map.
  Status StringMap(std::string_view key, std::map<std::string, std::string>* out) const;
  // A JSON object whose values are strings or null.
  Status NullableStringMap(std::string_view key, bool required,
                           std::map<std::string, std::optional<std::string>>* out) const;
  // A nested object; nullptr (and OK) when absent/null, Corruption when not an object.
  Status OptionalObject(std::string_view key, const Json** out) const;

  Status Missing(std::string_view key) const;
  Status WrongType(std::string_view key, const char* expected) const;

 private:
  const Json& obj_;
  std::string_view what_;
};

}  // namespace shoal::delta
