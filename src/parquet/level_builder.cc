#include "parquet/level_builder.h"

namespace shoal::parquet {

Status LevelBuilder::Shred(const WriteNode& field, const WriteSchema& schema, const columnar::Vector& column,
                           int64_t begin, int64_t end, std::vector<ShreddedLeaf>* out) {
  schema_ = &schema;
  out_ = out;
  base_ = field.first_leaf;
  out->resize(static_cast<size_t>(field.num_leaves));
  for (ShreddedLeaf& l : *out) l.Clear();

  if (field.kind == WriteNode::Kind::kLeaf) {
    const WriteLeaf& leaf = schema.leaves[static_cast<size_t>(field.leaf)];
    ShreddedLeaf& l = (*out)[0];
    l.values = &column;
    l.num_levels = end - begin;
    if (!column.MayHaveNulls()) {
      l.dense = true;
      l.dense_begin = begin;
      l.num_values = end - begin;
      if (leaf.max_def > 0) l.def.assign(static_cast<size_t>(end - begin), 1);
      return Status::OK();
    }
    const uint8_t* valid = column.validity().data();
    int64_t nulls = 0;
    for (int64_t i = begin; i < end; ++i) nulls += valid[i] == 0;
    if (nulls > 0 && !field.nullable) {
      return Status::InvalidArgument("NULL value in NOT NULL column '" + leaf.dotted + "'");
    }
    if (nulls == 0) {
      l.dense = true;
      l.dense_begin = begin;
      l.num_values = end - begin;
      if (leaf.max_def > 0) l.def.assign(static_cast<size_t>(end - begin), 1);
      return Status::OK();
    }
    l.dense = false;
    l.def.resize(static_cast<size_t>(end - begin));
    l.value_rows.reserve(static_cast<size_t>(end - begin - nulls));
    for (int64_t i = begin; i < end; ++i) {
      l.def[static_cast<size_t>(i - begin)] = valid[i] != 0;
      if (valid[i]) l.value_rows.push_back(i);
    }
    l.num_values = static_cast<int64_t>(l.value_rows.size());
    return Status::OK();
  }

  for (ShreddedLeaf& l : *out) l.dense = false;
  for (int64_t i = begin; i < end; ++i) RETURN_NOT_OK(Visit(field, column, i, 0, 0));
  return Status::OK();
}

void LevelBuilder::EmitEmpty(const WriteNode& n, uint16_t def, uint16_t rep) {
  for (int k = n.first_leaf; k < n.first_leaf + n.num_leaves; ++k) {
    const WriteLeaf& leaf = schema_->leaves[static_cast<size_t>(k)];
    ShreddedLeaf& l = (*out_)[static_cast<size_t>(k - base_)];
    if (leaf.max_def > 0) l.def.push_back(def);
    if (leaf.max_rep > 0) l.rep.push_back(rep);
    ++l.num_levels;
  }
}

Status LevelBuilder::Visit(const WriteNode& n, const columnar::Vector& v, int64_t i, uint16_t def, uint16_t rep) {
  if (v.IsNull(i)) {
    if (!n.nullable) {
      const WriteLeaf& leaf = schema_->leaves[static_cast<size_t>(n.first_leaf)];
      return Status::InvalidArgument("NULL value in a REQUIRED field on the path of column '" + leaf.dotted + "'");
    }
    EmitEmpty(n, def, rep);
    return Status::OK();
  }
  uint16_t d = static_cast<uint16_t>(def + (n.nullable ? 1 : 0));
  switch (n.kind) {
    case WriteNode::Kind::kLeaf: {
      const WriteLeaf& leaf = schema_->leaves[static_cast<size_t>(n.leaf)];
      ShreddedLeaf& l = (*out_)[static_cast<size_t>(n.leaf - base_)];
      if (leaf.max_def > 0) l.def.push_back(d);
      if (leaf.max_rep > 0) l.rep.push_back(rep);
      ++l.num_levels;
      l.values = &v;
      l.value_rows.push_back(i);
      ++l.num_values;
      return Status::OK();
    }
    case WriteNode::Kind::kStruct:
      for (size_t c = 0; c < n.children.size(); ++c) RETURN_NOT_OK(Visit(n.children[c], *v.child(c), i, d, rep));
      return Status::OK();
    case WriteNode::Kind::kList:
    case WriteNode::Kind::kMap: {
      const int64_t* off = v.offsets();
      int64_t s = off[i], e = off[i + 1];
      if (s >= e) {
        EmitEmpty(n, d, rep);
        return Status::OK();
      }
      const columnar::Vector& child = *v.child(0);
      const WriteNode& elem = n.children[0];
      uint16_t ed = static_cast<uint16_t>(d + 1);
      for (int64_t j = s; j < e; ++j) RETURN_NOT_OK(Visit(elem, child, j, ed, j == s ? rep : static_cast<uint16_t>(n.rep)));
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace shoal::parquet
