#include "delta/schema_json.h"

#include <cctype>

#include "delta/json_fields.h"

namespace shoal::delta {

namespace {

constexpr int kMaxDepth = 256;

std::optional<bool> MetaBool(const Json& m, std::string_view key) {
  if (!m.is_object()) return std::nullopt;
  auto it = m.find(key);
  if (it == m.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

Status ParseType(const Json& t, const std::string& where, int depth, SchemaField* out);

Status ParseStructFields(const Json& t, const std::string& where, int depth, SchemaField* out) {
  JsonFields f(t, where);
  auto it = t.find("fields");
  if (it == t.end() || !it->is_array()) return f.Missing("fields");
  out->type = "struct";
  out->children.reserve(it->size());
  for (const auto& fj : *it) {
    if (!fj.is_object()) return Status::Corruption(where + ": a field is not an object");
    SchemaField child;
    JsonFields ff(fj, where);
    RETURN_NOT_OK(ff.RequiredString("name", &child.name));
    std::string child_where = where.empty() ? child.name : where + "." + child.name;
    JsonFields cf(fj, child_where);
    RETURN_NOT_OK(cf.RequiredBool("nullable", &child.nullable));
    auto mt = fj.find("metadata");
    if (mt != fj.end() && !mt->is_null()) {
      if (!mt->is_object()) return cf.WrongType("metadata", "an object");
      child.metadata = *mt;
    }
    auto ty = fj.find("type");
    if (ty == fj.end() || ty->is_null()) return cf.Missing("type");
    bool nullable = child.nullable;
    RETURN_NOT_OK(ParseType(*ty, child_where, depth + 1, &child));
    child.nullable = nullable;
    out->children.push_back(std::move(child));
  }
  return Status::OK();
}

Status ParsePrimitive(const std::string& name, const std::string& where, SchemaField* out) {
  if (name.rfind("decimal", 0) == 0) {
    out->type = "decimal";
    if (name == "decimal") {  // Spark's default
      out->precision = 10;
      out->scale = 0;
      return Status::OK();
    }
    int p = -1, s = -1;
    char close = 0;
    std::string rest = name.substr(7);
    std::string compact;
    for (char c : rest) {
      if (c != ' ') compact.push_back(c);
    }
    if (std::sscanf(compact.c_str(), "(%d,%d%c", &p, &s, &close) != 3 || close != ')' ||
        compact.find(')') != compact.size() - 1 || p < 1 || p > 38 || s < 0 || s > p) {
      return Status::Corruption(where + ": invalid decimal type '" + name + "'");
    }
    out->precision = p;
    out->scale = s;
    return Status::OK();
  }
  if (name.empty() || name == "struct" || name == "array" || name == "map") {
    return Status::Corruption(where + ": invalid type name '" + name + "'");
  }
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
      return Status::Corruption(where + ": invalid type name '" + name + "'");
    }
  }
  out->type = name;
  return Status::OK();
}

Status ParseType(const Json& t, const std::string& where, int depth, SchemaField* out) {
  if (depth > kMaxDepth) return Status::Corruption(where + ": schema nesting is too deep");
  if (t.is_string()) return ParsePrimitive(t.get<std::string>(), where, out);
  if (!t.is_object()) return Status::Corruption(where + ": type is neither a name nor an object");
  JsonFields f(t, where);
  std::string kind;
  RETURN_NOT_OK(f.RequiredString("type", &kind));
  if (kind == "struct") return ParseStructFields(t, where, depth, out);
  if (kind == "array") {
    out->type = "array";
    SchemaField elem;
    elem.name = "element";
    RETURN_NOT_OK(f.RequiredBool("containsNull", &elem.nullable));
    auto et = t.find("elementType");
    if (et == t.end() || et->is_null()) return f.Missing("elementType");
    bool nullable = elem.nullable;
    RETURN_NOT_OK(ParseType(*et, where + ".element", depth + 1, &elem));
    elem.nullable = nullable;
    out->children.push_back(std::move(elem));
    return Status::OK();
  }
  if (kind == "map") {
    out->type = "map";
    SchemaField key, value;
    key.name = "key";
    value.name = "value";
    RETURN_NOT_OK(f.RequiredBool("valueContainsNull", &value.nullable));
    auto kt = t.find("keyType");
    if (kt == t.end() || kt->is_null()) return f.Missing("keyType");
    auto vt = t.find("valueType");
    if (vt == t.end() || vt->is_null()) return f.Missing("valueType");
    RETURN_NOT_OK(ParseType(*kt, where + ".key", depth + 1, &key));
    key.nullable = false;
    bool vn = value.nullable;
    RETURN_NOT_OK(ParseType(*vt, where + ".value", depth + 1, &value));
    value.nullable = vn;
    out->children.push_back(std::move(key));
    out->children.push_back(std::move(value));
    return Status::OK();
  }
  return Status::Corruption(where + ": unknown complex type '" + kind + "'");
}

Json FieldToJson(const SchemaField& f) {
  Json o = Json::object();
  o["name"] = f.name;
  o["type"] = SchemaTypeToJson(f);
  o["nullable"] = f.nullable;
  o["metadata"] = f.metadata.is_object() ? f.metadata : Json::object();
  return o;
}

}  // namespace

std::string SchemaField::TypeName() const {
  if (type == "decimal") {
    return "decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  }
  return type;
}

std::optional<int64_t> SchemaField::MetaInt(std::string_view key) const {
  if (!metadata.is_object()) return std::nullopt;
  auto it = metadata.find(key);
  if (it == metadata.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

std::optional<std::string> SchemaField::MetaString(std::string_view key) const {
  if (!metadata.is_object()) return std::nullopt;
  auto it = metadata.find(key);
  if (it == metadata.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::optional<bool> SchemaField::IdentityAllowExplicitInsert() const {
  return MetaBool(metadata, "delta.identity.allowExplicitInsert");
}

const Json* SchemaField::TypeChanges() const {
  if (!metadata.is_object()) return nullptr;
  auto it = metadata.find("delta.typeChanges");
  if (it == metadata.end() || !it->is_array()) return nullptr;
  return &*it;
}

std::optional<std::string> SchemaField::Invariant() const {
  auto raw = MetaString("delta.invariants");
  if (!raw) return std::nullopt;
  Json j = Json::parse(*raw, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  auto e = j.find("expression");
  if (e == j.end() || !e->is_object()) return std::nullopt;
  auto inner = e->find("expression");
  if (inner == e->end() || !inner->is_string()) return std::nullopt;
  return inner->get<std::string>();
}

Result<SchemaField> ParseSchemaJson(std::string_view schema_string) {
  ASSIGN_OR_RETURN(Json j, ParseJson(schema_string, "schemaString"));
  SchemaField root;
  if (!j.is_object()) return Status::Corruption("schemaString: not a JSON object");
  Status st = ParseType(j, "", 0, &root);
  if (!st.ok()) return st.WithContext("schemaString");
  if (!root.IsStruct()) return Status::Corruption("schemaString: top-level type is not a struct");
  return root;
}

Json HiddenFieldJson(const std::string& name, const std::string& type, bool nullable, bool mapped,
                     int32_t field_id) {
  Json f = Json::object();
  f["name"] = name;
  f["type"] = type;
  f["nullable"] = nullable;
  Json md = Json::object();
  if (mapped) {
    md["delta.columnMapping.id"] = field_id;
    md["delta.columnMapping.physicalName"] = name;
  }
  f["metadata"] = std::move(md);
  return f;
}

Json SchemaTypeToJson(const SchemaField& node) {
  if (node.IsStruct()) {
    Json o = Json::object();
    o["type"] = "struct";
    Json fields = Json::array();
    for (const auto& c : node.children) fields.push_back(FieldToJson(c));
    o["fields"] = std::move(fields);
    return o;
  }
  if (node.IsArray() && node.children.size() == 1) {
    Json o = Json::object();
    o["type"] = "array";
    o["elementType"] = SchemaTypeToJson(node.children[0]);
    o["containsNull"] = node.children[0].nullable;
    return o;
  }
  if (node.IsMap() && node.children.size() == 2) {
    Json o = Json::object();
    o["type"] = "map";
    o["keyType"] = SchemaTypeToJson(node.children[0]);
    o["valueType"] = SchemaTypeToJson(node.children[1]);
    o["valueContainsNull"] = node.children[1].nullable;
    return o;
  }
  return Json(node.TypeName());
}

std::string SerializeSchemaJson(const SchemaField& root) {
  return JsonText(SchemaTypeToJson(root));
}

const SchemaField* FindField(const SchemaField& root, const std::vector<std::string>& path) {
  const SchemaField* cur = &root;
  for (const auto& name : path) {
    const SchemaField* next = nullptr;
    for (const auto& c : cur->children) {
      if (c.name == name) {
        next = &c;
        break;
      }
    }
    if (!next) return nullptr;
    cur = next;
  }
  return cur;
}

}  // namespace shoal::delta
