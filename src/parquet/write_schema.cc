#include "parquet/write_schema.h"

namespace shoal::parquet {
namespace {

using columnar::TypeId;

LogicalType Logical(LogicalType::Kind kind) {
  LogicalType lt;
  lt.kind = kind;
  return lt;
}

LogicalType IntLogical(int bits, bool is_signed) {
  LogicalType lt = Logical(LogicalType::kInteger);
  lt.bit_width = static_cast<int8_t>(bits);
  lt.is_signed = is_signed;
  return lt;
}

LogicalType TimeLogical(LogicalType::Kind kind, bool utc) {
  LogicalType lt = Logical(kind);
  lt.is_adjusted_to_utc = utc;
  lt.unit = TimeUnit::kMicros;
  return lt;
}

class Builder {
 public:
  Builder(const std::map<std::string, int32_t>& ids, WriteSchema* out) : ids_(ids), out_(out) {}

  Status Add(const columnar::Field& f, Repetition rep, int16_t def, int16_t reps,
             std::vector<std::string> path, WriteNode* node) {
    if (rep == Repetition::kOptional) ++def;
    if (rep == Repetition::kRepeated) ++def, ++reps;
    path.push_back(f.name);
    std::string dotted = Join(path);
    SchemaElement e;
    e.name = f.name;
    e.repetition = rep;
    if (auto it = ids_.find(dotted); it != ids_.end()) e.field_id = it->second;
    node->nullable = rep == Repetition::kOptional;
    node->first_leaf = static_cast<int>(out_->leaves.size());
    const columnar::DataType& t = *f.type;
    switch (t.id()) {
      case TypeId::kStruct: {
        node->kind = WriteNode::Kind::kStruct;
        if (t.children().empty()) {
          return Status::NotSupported("Parquet cannot store the empty STRUCT column '" + dotted + "'");
        }
        e.num_children = static_cast<int32_t>(t.children().size());
        out_->elements.push_back(std::move(e));
        for (const columnar::Field& c : t.children()) {
          node->children.emplace_back();
          RETURN_NOT_OK(Add(c, c.nullable ? Repetition::kOptional : Repetition::kRequired, def, reps, path,
                            &node->children.back()));
        }
        break;
      }
      case TypeId::kList:
      case TypeId::kMap: {
        bool is_map = t.id() == TypeId::kMap;
        node->kind = is_map ? WriteNode::Kind::kMap : WriteNode::Kind::kList;
        node->rep = static_cast<int16_t>(reps + 1);
        e.num_children = 1;
        e.logical_type = Logical(is_map ? LogicalType::kMap : LogicalType::kList);
        e.converted_type = is_map ? ConvertedType::kMap : ConvertedType::kList;
        out_->elements.push_back(std::move(e));
        // The repeated group: "list" (one child "element") or "key_value" (key, value).
        SchemaElement g;
        g.name = is_map ? "key_value" : "list";
        g.repetition = Repetition::kRepeated;
        g.num_children = is_map ? 2 : 1;
        std::vector<std::string> gpath = path;
        gpath.push_back(g.name);
        if (auto it = ids_.find(Join(gpath)); it != ids_.end()) g.field_id = it->second;
        out_->elements.push_back(std::move(g));
        int16_t gdef = static_cast<int16_t>(def + 1), greps = static_cast<int16_t>(reps + 1);
        if (is_map) {
          node->children.emplace_back();
          WriteNode& kv = node->children.back();
          kv.kind = WriteNode::Kind::kStruct;
          kv.nullable = false;
          kv.first_leaf = static_cast<int>(out_->leaves.size());
          const std::vector<columnar::Field>& entry = t.element()->children();
          columnar::Field key = entry[0];
          kv.children.resize(2);
          RETURN_NOT_OK(Add(key, Repetition::kRequired, gdef, greps, gpath, &kv.children[0]));
          RETURN_NOT_OK(Add(entry[1], entry[1].nullable ? Repetition::kOptional : Repetition::kRequired, gdef,
                            greps, gpath, &kv.children[1]));
          kv.num_leaves = static_cast<int>(out_->leaves.size()) - kv.first_leaf;
        } else {
          node->children.emplace_back();
          columnar::Field elem = t.children()[0];
          elem.name = "element";
          RETURN_NOT_OK(Add(elem, elem.nullable ? Repetition::kOptional : Repetition::kRequired, gdef, greps,
                            gpath, &node->children.back()));
        }
        break;
      }
      default: {
        node->kind = WriteNode::Kind::kLeaf;
        RETURN_NOT_OK(SetPrimitive(t, dotted, &e));
        WriteLeaf leaf;
        leaf.path = path;
        leaf.dotted = dotted;
        leaf.physical = *e.type;
        leaf.type_length = e.type_length.value_or(0);
        leaf.max_def = def;
        leaf.max_rep = reps;
        leaf.type = f.type;
        leaf.element = e;
        node->leaf = static_cast<int>(out_->leaves.size());
        out_->leaves.push_back(std::move(leaf));
        out_->elements.push_back(std::move(e));
        break;
      }
    }
    node->num_leaves = static_cast<int>(out_->leaves.size()) - node->first_leaf;
    return Status::OK();
  }

 private:
  static std::string Join(const std::vector<std::string>& p) {
    std::string s;
    for (size_t i = 0; i < p.size(); ++i) {
      if (i) s += '.';
      s += p[i];
    }
    return s;
  }

  static Status SetPrimitive(const columnar::DataType& t, const std::string& name, SchemaElement* e) {
    switch (t.id()) {
      case TypeId::kBoolean: e->type = PhysicalType::kBoolean; break;
      case TypeId::kInt8:
        e->type = PhysicalType::kInt32;
        e->logical_type = IntLogical(8, true);
        e->converted_type = ConvertedType::kInt8;
        break;
      case TypeId::kInt16:
        e->type = PhysicalType::kInt32;
        e->logical_type = IntLogical(16, true);
        e->converted_type = ConvertedType::kInt16;
        break;
      case TypeId::kInt32: e->type = PhysicalType::kInt32; break;
      case TypeId::kInt64: e->type = PhysicalType::kInt64; break;
      case TypeId::kUInt64:
        e->type = PhysicalType::kInt64;
        e->logical_type = IntLogical(64, false);
        e->converted_type = ConvertedType::kUint64;
        break;
      case TypeId::kFloat: e->type = PhysicalType::kFloat; break;
      case TypeId::kDouble: e->type = PhysicalType::kDouble; break;
      case TypeId::kDecimal: {
        int p = t.precision();
        if (p < 1 || p > 38 || t.scale() < 0 || t.scale() > p) {
          return Status::InvalidArgument("column '" + name + "' has unsupported type " + t.ToString());
        }
        if (p <= 9) {
          e->type = PhysicalType::kInt32;
        } else if (p <= 18) {
          e->type = PhysicalType::kInt64;
        } else {
          e->type = PhysicalType::kFixedLenByteArray;
          e->type_length = DecimalByteWidth(p);
        }
        LogicalType lt = Logical(LogicalType::kDecimal);
        lt.decimal_precision = p;
        lt.decimal_scale = t.scale();
        e->logical_type = lt;
        e->converted_type = ConvertedType::kDecimal;
        e->precision = p;
        e->scale = t.scale();
        break;
      }
      case TypeId::kString:
        e->type = PhysicalType::kByteArray;
        e->logical_type = Logical(LogicalType::kString);
        e->converted_type = ConvertedType::kUtf8;
        break;
      case TypeId::kBinary: e->type = PhysicalType::kByteArray; break;
      case TypeId::kDate:
        e->type = PhysicalType::kInt32;
        e->logical_type = Logical(LogicalType::kDate);
        e->converted_type = ConvertedType::kDate;
        break;
      case TypeId::kTime:
        // TIME_MICROS would imply isAdjustedToUTC=true, so no converted type.
        e->type = PhysicalType::kInt64;
        e->logical_type = TimeLogical(LogicalType::kTime, false);
        break;
      case TypeId::kTimestamp:
        e->type = PhysicalType::kInt64;
        e->logical_type = TimeLogical(LogicalType::kTimestamp, true);
        e->converted_type = ConvertedType::kTimestampMicros;
        break;
      case TypeId::kTimestampNtz:
        e->type = PhysicalType::kInt64;
        e->logical_type = TimeLogical(LogicalType::kTimestamp, false);
        break;
      default:
        return Status::NotSupported("Parquet writer cannot store column '" + name + "' of type " + t.ToString());
    }
    return Status::OK();
  }

  const std::map<std::string, int32_t>& ids_;
  WriteSchema* out_;
};

}  // namespace

int DecimalByteWidth(int precision) {
  // Smallest n with 10^p - 1 <= 2^(8n-1) - 1.
  unsigned __int128 max = 1;
  for (int i = 0; i < precision; ++i) max *= 10;
  max -= 1;
  for (int n = 1; n < 16; ++n) {
    unsigned __int128 limit = (static_cast<unsigned __int128>(1) << (8 * n - 1)) - 1;
    if (max <= limit) return n;
  }
  return 16;
}

Result<WriteSchema> MakeWriteSchema(const columnar::Schema& schema, const std::map<std::string, int32_t>& field_ids) {
  WriteSchema out;
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(schema.size());
  out.elements.push_back(root);
  Builder b(field_ids, &out);
  for (const columnar::Field& f : schema.fields) {
    out.fields.emplace_back();
    RETURN_NOT_OK(b.Add(f, f.nullable ? Repetition::kOptional : Repetition::kRequired, 0, 0, {}, &out.fields.back()));
  }
  return out;
}

}  // namespace shoal::parquet
