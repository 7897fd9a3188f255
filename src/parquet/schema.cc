#include "parquet/schema.h"

namespace shoal::parquet {
namespace {

using columnar::TypePtr;

constexpr int kMaxSchemaDepth = 64;

struct RawNode {
  int element = 0;
  std::vector<int> children;
};

bool IsDecimal(const SchemaElement& e) {
  return (e.logical_type && e.logical_type->kind == LogicalType::kDecimal) ||
         e.converted_type == ConvertedType::kDecimal;
}

Status DecimalParams(const SchemaElement& e, int* precision, int* scale) {
  if (e.logical_type && e.logical_type->kind == LogicalType::kDecimal) {
    *precision = e.logical_type->decimal_precision;
    *scale = e.logical_type->decimal_scale;
  } else {
    *precision = e.precision.value_or(0);
    *scale = e.scale.value_or(0);
  }
  if (*precision <= 0 || *scale < 0 || *scale > *precision) {
    return Status::Corruption("column '" + e.name + "': invalid DECIMAL(" + std::to_string(*precision) + "," +
                              std::to_string(*scale) + ")");
  }
  if (*precision > 38) {
    return Status::NotSupported("column '" + e.name + "': DECIMAL precision " + std::to_string(*precision) +
                                " exceeds 38");
  }
  return Status::OK();
}

// Sets leaf->type and leaf->conversion from the element's physical and logical types.
Status MapLeafType(const SchemaElement& e, LeafColumn* leaf) {
  const LogicalType* lt = e.logical_type ? &*e.logical_type : nullptr;
  auto lkind = lt ? lt->kind : LogicalType::kNone;
  std::optional<ConvertedType> ct = e.converted_type;
  auto has_ct = [&](ConvertedType c) { return ct && *ct == c; };
  leaf->conversion = Conversion::kNone;
  switch (leaf->physical) {
    case PhysicalType::kBoolean: leaf->type = columnar::Boolean(); return Status::OK();
    case PhysicalType::kInt32: {
      if (IsDecimal(e)) {
        int p, s;
        RETURN_NOT_OK(DecimalParams(e, &p, &s));
        leaf->type = columnar::Decimal(p, s);
        leaf->conversion = p > 18 ? Conversion::kInt32ToInt128 : Conversion::kInt32ToInt64;
        return Status::OK();
      }
      if (lkind == LogicalType::kDate || has_ct(ConvertedType::kDate)) {
        leaf->type = columnar::Date();
        return Status::OK();
      }
      if ((lkind == LogicalType::kTime && lt->unit == TimeUnit::kMillis) || has_ct(ConvertedType::kTimeMillis)) {
        leaf->type = columnar::Time();
        leaf->conversion = Conversion::kMillisToMicros32;
        return Status::OK();
      }
      int bits = 32;
      bool is_signed = true;
      if (lkind == LogicalType::kInteger) {
        bits = lt->bit_width;
        is_signed = lt->is_signed;
      } else if (ct) {
        switch (*ct) {
          case ConvertedType::kInt8: bits = 8; break;
          case ConvertedType::kInt16: bits = 16; break;
          case ConvertedType::kUint8: bits = 8, is_signed = false; break;
          case ConvertedType::kUint16: bits = 16, is_signed = false; break;
          case ConvertedType::kUint32: bits = 32, is_signed = false; break;
          default: break;
        }
      }
      if (is_signed && bits == 8) {
        leaf->type = columnar::Int8();
        leaf->conversion = Conversion::kInt32ToInt8;
      } else if (is_signed && bits == 16) {
        leaf->type = columnar::Int16();
        leaf->conversion = Conversion::kInt32ToInt16;
      } else if (!is_signed && bits == 8) {
        leaf->type = columnar::Int16();
        leaf->conversion = Conversion::kUInt8ToInt16;
      } else if (!is_signed && bits == 16) {
        leaf->type = columnar::Int32();
        leaf->conversion = Conversion::kUInt16ToInt32;
      } else if (!is_signed) {
        leaf->type = columnar::Int64();
        leaf->conversion = Conversion::kUInt32ToInt64;
      } else {
        leaf->type = columnar::Int32();
      }
      return Status::OK();
    }
    case PhysicalType::kInt64: {
      if (IsDecimal(e)) {
        int p, s;
        RETURN_NOT_OK(DecimalParams(e, &p, &s));
        leaf->type = columnar::Decimal(p, s);
        if (p > 18) leaf->conversion = Conversion::kInt64ToInt128;
        return Status::OK();
      }
      auto unit_conv = [](TimeUnit u) {
        return u == TimeUnit::kMillis  ? Conversion::kMillisToMicros
               : u == TimeUnit::kNanos ? Conversion::kNanosToMicros
                                       : Conversion::kNone;
      };
      if (lkind == LogicalType::kTimestamp) {
        leaf->type = lt->is_adjusted_to_utc ? columnar::Timestamp() : columnar::TimestampNtz();
        leaf->conversion = unit_conv(lt->unit);
        return Status::OK();
      }
      if (has_ct(ConvertedType::kTimestampMillis) || has_ct(ConvertedType::kTimestampMicros)) {
        leaf->type = columnar::Timestamp();
        leaf->conversion = has_ct(ConvertedType::kTimestampMillis) ? Conversion::kMillisToMicros : Conversion::kNone;
        return Status::OK();
      }
      if (lkind == LogicalType::kTime) {
        leaf->type = columnar::Time();
        leaf->conversion = unit_conv(lt->unit);
        return Status::OK();
      }
      if (has_ct(ConvertedType::kTimeMicros)) {
        leaf->type = columnar::Time();
        return Status::OK();
      }
      bool is_unsigned = (lkind == LogicalType::kInteger && !lt->is_signed) || has_ct(ConvertedType::kUint64);
      leaf->type = is_unsigned ? columnar::UInt64() : columnar::Int64();
      return Status::OK();
    }
    case PhysicalType::kInt96:
      leaf->type = columnar::Timestamp();
      leaf->conversion = Conversion::kInt96ToMicros;
      return Status::OK();
    case PhysicalType::kFloat: leaf->type = columnar::Float32(); return Status::OK();
    case PhysicalType::kDouble: leaf->type = columnar::Float64(); return Status::OK();
    case PhysicalType::kByteArray: {
      if (IsDecimal(e)) {
        int p, s;
        RETURN_NOT_OK(DecimalParams(e, &p, &s));
        leaf->type = columnar::Decimal(p, s);
        leaf->conversion = Conversion::kBytesToDecimal;
        return Status::OK();
      }
      bool text = lkind == LogicalType::kString || lkind == LogicalType::kEnum || lkind == LogicalType::kJson ||
                  has_ct(ConvertedType::kUtf8) || has_ct(ConvertedType::kEnum) || has_ct(ConvertedType::kJson);
      leaf->type = text ? columnar::String() : columnar::Binary();
      return Status::OK();
    }
    case PhysicalType::kFixedLenByteArray: {
      if (leaf->type_length <= 0) {
        return Status::Corruption("column '" + leaf->dotted_path + "': FIXED_LEN_BYTE_ARRAY without a positive type_length");
      }
      if (IsDecimal(e)) {
        int p, s;
        RETURN_NOT_OK(DecimalParams(e, &p, &s));
        leaf->type = columnar::Decimal(p, s);
        leaf->conversion = Conversion::kBytesToDecimal;
        return Status::OK();
      }
      if (lkind == LogicalType::kUuid && leaf->type_length == 16) {
        leaf->type = columnar::String();
        leaf->conversion = Conversion::kFlbaToUuid;
        return Status::OK();
      }
      if (lkind == LogicalType::kFloat16 && leaf->type_length == 2) {
        leaf->type = columnar::Float32();
        leaf->conversion = Conversion::kFloat16ToFloat;
        return Status::OK();
      }
      // INTERVAL (and anything else) reads as its raw bytes.
      leaf->type = columnar::Binary();
      leaf->conversion = Conversion::kFlbaToBinary;
      return Status::OK();
    }
  }
  return Status::Corruption("column '" + leaf->dotted_path + "': unknown physical type " +
                            std::to_string(static_cast<int>(leaf->physical)));
}

class Converter {
 public:
  Converter(const std::vector<SchemaElement>& el, const std::vector<RawNode>& raw, std::vector<LeafColumn>* leaves)
      : el_(el), raw_(raw), leaves_(leaves) {}

  // Converts raw node `n` whose parent is present at definition level `pdef` and repetition
  // level `prep`. `single`: n is repeated but its repetition was already accounted for by the
  // caller (a LIST/MAP element), so it converts as one required value.
  Status Convert(int n, int16_t pdef, int16_t prep, bool single, FieldNode* out) {
    if (++depth_ > kMaxSchemaDepth) return Status::Corruption("schema nested too deeply");
    Status st = ConvertImpl(n, pdef, prep, single, out);
    --depth_;
    return st;
  }

 private:
  Status ConvertImpl(int n, int16_t pdef, int16_t prep, bool single, FieldNode* out) {
    const SchemaElement& e = el_[raw_[n].element];
    Repetition rep = e.repetition.value_or(Repetition::kRequired);
    out->name = e.name;
    out->first_leaf = static_cast<int>(leaves_->size());
    if (rep == Repetition::kRepeated && !single) {
      // A repeated field outside a LIST/MAP annotation: a required list of required values.
      out->kind = FieldNode::Kind::kList;
      out->nullable = false;
      out->def = pdef;
      out->elem_def = static_cast<int16_t>(pdef + 1);
      out->rep = static_cast<int16_t>(prep + 1);
      out->children.resize(1);
      RETURN_NOT_OK(Convert(n, out->elem_def, out->rep, true, &out->children[0]));
      out->type = columnar::List(out->children[0].type, false);
      out->num_leaves = static_cast<int>(leaves_->size()) - out->first_leaf;
      return Status::OK();
    }
    int16_t d = static_cast<int16_t>(pdef + (rep == Repetition::kOptional && !single ? 1 : 0));
    out->nullable = rep == Repetition::kOptional && !single;
    out->def = d;
    path_.push_back(e.name);
    if (raw_[n].children.empty() && e.type) {
      LeafColumn leaf;
      leaf.index = static_cast<int>(leaves_->size());
      leaf.path = path_;
      for (size_t i = 0; i < path_.size(); ++i) leaf.dotted_path += (i ? "." : "") + path_[i];
      leaf.physical = *e.type;
      leaf.type_length = e.type_length.value_or(0);
      leaf.max_def = d;
      leaf.max_rep = prep;
      leaf.element_index = raw_[n].element;
      RETURN_NOT_OK(MapLeafType(e, &leaf));
      out->kind = FieldNode::Kind::kLeaf;
      out->leaf = leaf.index;
      out->type = leaf.type;
      leaves_->push_back(std::move(leaf));
    } else if (raw_[n].children.empty()) {
      return Status::Corruption("schema element '" + e.name + "' has neither a type nor children");
    } else {
      RETURN_NOT_OK(ConvertGroup(n, e, d, prep, out));
    }
    path_.pop_back();
    out->num_leaves = static_cast<int>(leaves_->size()) - out->first_leaf;
    return Status::OK();
  }

  Status ConvertGroup(int n, const SchemaElement& e, int16_t d, int16_t r, FieldNode* out) {
    const std::vector<int>& kids = raw_[n].children;
    auto lkind = e.logical_type ? e.logical_type->kind : LogicalType::kNone;
    bool is_list = lkind == LogicalType::kList || e.converted_type == ConvertedType::kList;
    bool is_map = lkind == LogicalType::kMap || e.converted_type == ConvertedType::kMap ||
                  e.converted_type == ConvertedType::kMapKeyValue;
    auto repeated = [&](int k) {
      return el_[raw_[k].element].repetition.value_or(Repetition::kRequired) == Repetition::kRepeated;
    };
    if ((is_list || is_map) && kids.size() == 1 && repeated(kids[0])) {
      int rk = kids[0];
      const SchemaElement& re = el_[raw_[rk].element];
      const std::vector<int>& rkids = raw_[rk].children;
      out->def = d;
      out->elem_def = static_cast<int16_t>(d + 1);
      out->rep = static_cast<int16_t>(r + 1);
      if (is_map && !rkids.empty() && rkids.size() <= 2) {
        path_.push_back(re.name);
        out->children.resize(rkids.size());
        for (size_t i = 0; i < rkids.size(); ++i) {
          RETURN_NOT_OK(Convert(rkids[i], out->elem_def, out->rep, false, &out->children[i]));
        }
        path_.pop_back();
        if (rkids.size() == 2) {
          out->kind = FieldNode::Kind::kMap;
          out->type = columnar::Map(out->children[0].type, out->children[1].type, out->children[1].nullable);
        } else {
          // A map without values reads as the list of its keys.
          out->kind = FieldNode::Kind::kList;
          out->type = columnar::List(out->children[0].type, out->children[0].nullable);
        }
        return Status::OK();
      }
      if (is_list || is_map) {
        out->kind = FieldNode::Kind::kList;
        out->children.resize(1);
        bool two_level = rkids.empty() || rkids.size() > 1 || re.name == "array" || re.name == e.name + "_tuple";
        if (two_level) {
          RETURN_NOT_OK(Convert(rk, out->elem_def, out->rep, true, &out->children[0]));
        } else {
          path_.push_back(re.name);
          RETURN_NOT_OK(Convert(rkids[0], out->elem_def, out->rep, false, &out->children[0]));
          path_.pop_back();
        }
        out->type = columnar::List(out->children[0].type, out->children[0].nullable);
        return Status::OK();
      }
    }
    out->kind = FieldNode::Kind::kStruct;
    out->children.resize(kids.size());
    std::vector<columnar::Field> fields;
    for (size_t i = 0; i < kids.size(); ++i) {
      RETURN_NOT_OK(Convert(kids[i], d, r, false, &out->children[i]));
      fields.push_back({out->children[i].name, out->children[i].type, out->children[i].nullable});
    }
    out->type = columnar::Struct(std::move(fields));
    return Status::OK();
  }

  const std::vector<SchemaElement>& el_;
  const std::vector<RawNode>& raw_;
  std::vector<LeafColumn>* leaves_;
  std::vector<std::string> path_;
  int depth_ = 0;
};

// Rebuilds the tree from the depth-first element list; *next is the next unread element.
Status BuildTree(const std::vector<SchemaElement>& el, int* next, int depth, std::vector<RawNode>* raw, int* out) {
  if (depth > kMaxSchemaDepth) return Status::Corruption("schema nested too deeply");
  if (*next >= static_cast<int>(el.size())) return Status::Corruption("schema ends inside a group");
  int idx = static_cast<int>(raw->size());
  raw->push_back(RawNode{*next, {}});
  const SchemaElement& e = el[*next];
  ++*next;
  int32_t nc = e.num_children.value_or(0);
  if (nc < 0 || nc > static_cast<int>(el.size()) - *next) {
    return Status::Corruption("schema element '" + e.name + "' has invalid num_children " + std::to_string(nc));
  }
  for (int32_t i = 0; i < nc; ++i) {
    int child = -1;
    RETURN_NOT_OK(BuildTree(el, next, depth + 1, raw, &child));
    (*raw)[idx].children.push_back(child);
  }
  *out = idx;
  return Status::OK();
}

}  // namespace

Result<ParquetSchema> ParquetSchema::Make(const std::vector<SchemaElement>& elements) {
  if (elements.empty()) return Status::Corruption("empty schema");
  std::vector<RawNode> raw;
  raw.reserve(elements.size());
  int next = 0, root = 0;
  RETURN_NOT_OK(BuildTree(elements, &next, 0, &raw, &root));
  if (next != static_cast<int>(elements.size())) {
    return Status::Corruption("schema has " + std::to_string(elements.size() - next) + " elements outside the root");
  }
  ParquetSchema s;
  Converter conv(elements, raw, &s.leaves_);
  for (int child : raw[root].children) {
    FieldNode node;
    RETURN_NOT_OK(conv.Convert(child, 0, 0, false, &node));
    s.schema_.fields.push_back({node.name, node.type, node.nullable});
    s.fields_.push_back(std::move(node));
  }
  return s;
}

}  // namespace shoal::parquet
