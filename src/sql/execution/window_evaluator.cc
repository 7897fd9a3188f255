#include "sql/execution/window_evaluator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace shoal::sql {

using columnar::Vector;
using columnar::VectorPtr;

namespace {

// Rows of output per segment-tree query pass (bounds the piece lists' memory).
constexpr int64_t kQueryChunk = 2048;

int64_t ClampOffset(double off, int64_t n) { return off > static_cast<double>(n) ? n + 1 : static_cast<int64_t>(off); }

VectorPtr Int64Column(const std::vector<int64_t>& v) {
  auto out = Vector::Make(columnar::Int64(), static_cast<int64_t>(v.size()));
  out->Resize(static_cast<int64_t>(v.size()));
  if (!v.empty()) std::copy(v.begin(), v.end(), out->data<int64_t>());
  return out;
}

}  // namespace

WindowEvaluator::WindowEvaluator(const std::vector<const Vector*>& partition, const std::vector<const Vector*>& order,
                                 const std::vector<SortSpec>& order_specs, const Vector* range_key, int64_t n)
    : n_(n), order_specs_(order_specs), range_key_(range_key) {
  part_start_.resize(n);
  part_end_.resize(n);
  peer_start_.resize(n);
  peer_end_.resize(n);
  dense_.resize(n);
  std::vector<SortSpec> part_specs(partition.size());
  RowComparator part_cmp(partition, part_specs);
  RowComparator order_cmp(order, order_specs);
  int64_t ps = 0, peer = 0, dense = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool new_part = i == 0 || (!partition.empty() && part_cmp.Compare(i - 1, i) != 0);
    if (new_part) {
      for (int64_t j = ps; j < i; ++j) part_end_[j] = i;
      ps = i;
      dense = 0;
    }
    if (new_part || (!order.empty() && order_cmp.Compare(i - 1, i) != 0)) {
      for (int64_t j = peer; j < i; ++j) peer_end_[j] = i;
      peer = i;
      ++dense;
    }
    part_start_[i] = ps;
    peer_start_[i] = peer;
    dense_[i] = dense;
  }
  for (int64_t j = ps; j < n; ++j) part_end_[j] = n;
  for (int64_t j = peer; j < n; ++j) peer_end_[j] = n;
}

Status WindowEvaluator::ComputeFrames(const BoundFrame& f, std::vector<int64_t>* start, std::vector<int64_t>* end) const {
  start->resize(n_);
  end->resize(n_);
  const bool offsets = !f.rows && (f.start == FrameBoundType::kPreceding || f.start == FrameBoundType::kFollowing ||
                                   f.end == FrameBoundType::kPreceding || f.end == FrameBoundType::kFollowing);
  if (offsets && !range_key_) return Status::Internal("RANGE frame offset without a numeric key");
  // RANGE with offsets: keys as ascending doubles (negated for DESC) within each partition's
  // non-NULL rows [nn_start, nn_end).
  std::vector<double> key;
  const bool desc = !order_specs_.empty() && order_specs_[0].descending;
  if (offsets) {
    key.resize(n_);
    const double* d = range_key_->data<double>();
    for (int64_t i = 0; i < n_; ++i) key[i] = range_key_->IsNull(i) ? 0 : (desc ? -d[i] : d[i]);
  }
  int64_t cached_ps = -1, ns = 0, ne = 0;
  for (int64_t i = 0; i < n_; ++i) {
    const int64_t ps = part_start_[i], pe = part_end_[i];
    int64_t a = ps, b = pe;
    if (f.rows) {
      switch (f.start) {
        case FrameBoundType::kUnboundedPreceding: a = ps; break;
        case FrameBoundType::kPreceding: a = std::max(ps, i - ClampOffset(f.start_offset, n_)); break;
        case FrameBoundType::kCurrentRow: a = i; break;
        case FrameBoundType::kFollowing: a = std::min(pe, i + ClampOffset(f.start_offset, n_)); break;
        case FrameBoundType::kUnboundedFollowing: a = pe; break;
      }
      switch (f.end) {
        case FrameBoundType::kUnboundedPreceding: b = ps; break;
        case FrameBoundType::kPreceding: b = std::max(ps, i - ClampOffset(f.end_offset, n_) + 1); break;
        case FrameBoundType::kCurrentRow: b = i + 1; break;
        case FrameBoundType::kFollowing: b = std::min(pe, i + ClampOffset(f.end_offset, n_) + 1); break;
        case FrameBoundType::kUnboundedFollowing: b = pe; break;
      }
    } else {
      const bool null_key = offsets && range_key_->IsNull(i);
      // The partition's non-NULL key rows, for the binary searches (computed once per partition).
      if (offsets && ps != cached_ps) {
        cached_ps = ps;
        ns = ps;
        ne = pe;
        if (!order_specs_.empty() && order_specs_[0].nulls_first) {
          while (ns < pe && range_key_->IsNull(ns)) ++ns;  // NULLs lead the partition
        } else {
          while (ne > ps && range_key_->IsNull(ne - 1)) --ne;  // NULLs trail the partition
        }
      }
      auto lower = [&](double t) {  // first row with key >= t
        return std::lower_bound(key.begin() + ns, key.begin() + ne, t) - key.begin();
      };
      auto upper = [&](double t) {  // first row with key > t
        return std::upper_bound(key.begin() + ns, key.begin() + ne, t) - key.begin();
      };
      switch (f.start) {
        case FrameBoundType::kUnboundedPreceding: a = ps; break;
        case FrameBoundType::kCurrentRow: a = peer_start_[i]; break;
        case FrameBoundType::kPreceding: a = null_key ? peer_start_[i] : lower(key[i] - f.start_offset); break;
        case FrameBoundType::kFollowing: a = null_key ? peer_start_[i] : lower(key[i] + f.start_offset); break;
        case FrameBoundType::kUnboundedFollowing: a = pe; break;
      }
      switch (f.end) {
        case FrameBoundType::kUnboundedPreceding: b = ps; break;
        case FrameBoundType::kCurrentRow: b = peer_end_[i]; break;
        case FrameBoundType::kPreceding: b = null_key ? peer_end_[i] : upper(key[i] - f.end_offset); break;
        case FrameBoundType::kFollowing: b = null_key ? peer_end_[i] : upper(key[i] + f.end_offset); break;
        case FrameBoundType::kUnboundedFollowing: b = pe; break;
      }
    }
    if (b < a) b = a;
    (*start)[i] = a;
    (*end)[i] = b;
  }
  return Status::OK();
}

Result<VectorPtr> WindowEvaluator::Aggregate(const WindowCall& call, const std::vector<const Vector*>& args,
                                             const std::vector<int64_t>& start, const std::vector<int64_t>& end) const {
  // Segment tree: level 0 holds one group per row, level l+1 group j merges level l groups
  // 2j and 2j+1 (in that order, so order-sensitive aggregates keep row order).
  std::vector<std::unique_ptr<expr::GroupedAggregate>> levels;
  {
    auto leaves = call.binding.Create();
    leaves->Resize(n_);
    std::vector<uint32_t> ids(n_);
    std::iota(ids.begin(), ids.end(), 0u);
    if (n_ > 0) RETURN_NOT_OK(leaves->Update(ids.data(), args, n_));
    levels.push_back(std::move(leaves));
  }
  while (levels.back()->num_groups() > 1) {
    const int64_t below = levels.back()->num_groups();
    auto level = call.binding.Create();
    level->Resize((below + 1) / 2);
    std::vector<uint32_t> map(below);
    for (int64_t g = 0; g < below; ++g) map[g] = static_cast<uint32_t>(g / 2);
    RETURN_NOT_OK(level->Combine(*levels.back(), map.data()));
    levels.push_back(std::move(level));
  }
  const int nlevels = static_cast<int>(levels.size());
  std::vector<VectorPtr> parts;
  std::vector<std::pair<int, uint32_t>> pieces, rights;  // (level, node)
  std::vector<int64_t> piece_offsets;
  std::vector<std::vector<uint32_t>> src(nlevels), dst(nlevels);
  for (int64_t base = 0; base < n_; base += kQueryChunk) {
    const int64_t c = std::min(kQueryChunk, n_ - base);
    pieces.clear();
    piece_offsets.assign(1, 0);
    size_t max_pieces = 0;
    for (int64_t r = 0; r < c; ++r) {
      int64_t l = start[base + r], h = end[base + r];
      rights.clear();
      size_t before = pieces.size();
      for (int level = 0; l < h; ++level) {
        if (l & 1) pieces.emplace_back(level, static_cast<uint32_t>(l++));
        if (h & 1) rights.emplace_back(level, static_cast<uint32_t>(--h));
        l >>= 1;
        h >>= 1;
      }
      pieces.insert(pieces.end(), rights.rbegin(), rights.rend());
      max_pieces = std::max(max_pieces, pieces.size() - before);
      piece_offsets.push_back(static_cast<int64_t>(pieces.size()));
    }
    auto out = call.binding.Create();
    out->Resize(c);
    if (prefix_ && call.frame.start == FrameBoundType::kUnboundedPreceding) {
      // The partition's rows before the block come first (order-sensitive aggregates).
      src[0].clear();
      dst[0].clear();
      for (int64_t r = 0; r < c && part_start_[base + r] == 0; ++r) {
        src[0].push_back(0);
        dst[0].push_back(static_cast<uint32_t>(r));
      }
      if (!src[0].empty()) {
        RETURN_NOT_OK(out->CombineSelected(*prefix_, src[0].data(), dst[0].data(), static_cast<int64_t>(src[0].size())));
      }
    }
    for (size_t round = 0; round < max_pieces; ++round) {
      for (auto& v : src) v.clear();
      for (auto& v : dst) v.clear();
      for (int64_t r = 0; r < c; ++r) {
        const int64_t at = piece_offsets[r] + static_cast<int64_t>(round);
        if (at >= piece_offsets[r + 1]) continue;
        src[pieces[at].first].push_back(pieces[at].second);
        dst[pieces[at].first].push_back(static_cast<uint32_t>(r));
      }
      for (int level = 0; level < nlevels; ++level) {
        if (src[level].empty()) continue;
        RETURN_NOT_OK(out->CombineSelected(*levels[level], src[level].data(), dst[level].data(),
                                           static_cast<int64_t>(src[level].size())));
      }
    }
    ASSIGN_OR_RETURN(VectorPtr part, out->Finalize());
    parts.push_back(std::move(part));
  }
  if (parts.empty()) return Vector::Make(call.type);
  return parts.size() == 1 ? parts[0] : columnar::Concat(parts);
}

Result<VectorPtr> WindowEvaluator::PartitionAggregate(const WindowCall& call,
                                                      const std::vector<const Vector*>& args) const {
  // One group per partition, one pass over the rows, then each row takes its partition's value.
  std::vector<uint32_t> ids(n_);
  uint32_t groups = 0;
  for (int64_t i = 0; i < n_; ++i) {
    if (i > 0 && part_start_[i] != part_start_[i - 1]) ++groups;
    ids[i] = groups;
  }
  auto agg = call.binding.Create();
  agg->Resize(n_ > 0 ? groups + 1 : 0);
  if (n_ > 0) RETURN_NOT_OK(agg->Update(ids.data(), args, n_));
  ASSIGN_OR_RETURN(VectorPtr per_partition, agg->Finalize());
  return columnar::Gather(*per_partition, ids.data(), n_);
}

Result<VectorPtr> WindowEvaluator::Evaluate(const WindowCall& call, const std::vector<const Vector*>& args) {
  std::vector<int64_t> out(n_);
  auto psize = [&](int64_t i) { return part_end_[i] - part_start_[i]; };
  switch (call.function) {
    case WindowFunction::kRowNumber:
      for (int64_t i = 0; i < n_; ++i) out[i] = i - part_start_[i] + 1;
      return Int64Column(out);
    case WindowFunction::kRank:
      for (int64_t i = 0; i < n_; ++i) out[i] = peer_start_[i] - part_start_[i] + 1;
      return Int64Column(out);
    case WindowFunction::kDenseRank: return Int64Column(dense_);
    case WindowFunction::kPercentRank:
    case WindowFunction::kCumeDist: {
      auto v = Vector::Make(columnar::Float64(), n_);
      v->Resize(n_);
      double* d = v->data<double>();
      for (int64_t i = 0; i < n_; ++i) {
        const double size = static_cast<double>(psize(i));
        if (call.function == WindowFunction::kPercentRank) {
          d[i] = size > 1 ? static_cast<double>(peer_start_[i] - part_start_[i]) / (size - 1) : 0.0;
        } else {
          d[i] = static_cast<double>(peer_end_[i] - part_start_[i]) / size;
        }
      }
      return v;
    }
    case WindowFunction::kNtile: {
      auto v = Vector::Make(columnar::Int64(), n_);
      const Vector& k = *args[0];
      for (int64_t i = 0; i < n_; ++i) {
        if (k.IsNull(i)) {
          v->AppendNull();
          continue;
        }
        const int64_t buckets = k.Get<int64_t>(i);
        if (buckets <= 0) return Status::InvalidArgument("ntile() argument must be positive, got " + std::to_string(buckets));
        const int64_t size = psize(i), j = i - part_start_[i];
        const int64_t q = size / buckets, r = size % buckets;
        int64_t tile;
        if (j < r * (q + 1)) {
          tile = j / (q + 1) + 1;
        } else {
          tile = r + (j - r * (q + 1)) / q + 1;
        }
        v->Append<int64_t>(tile);
      }
      return v;
    }
    case WindowFunction::kLag:
    case WindowFunction::kLead: {
      const Vector& value = *args[0];
      const Vector& offset = *args[1];
      const Vector& fallback = *args[2];
      auto v = Vector::Make(call.type, n_);
      for (int64_t i = 0; i < n_; ++i) {
        if (offset.IsNull(i)) {
          v->AppendNull();
          continue;
        }
        int64_t off = offset.Get<int64_t>(i);
        off = std::clamp<int64_t>(off, -n_ - 1, n_ + 1);
        const int64_t t = call.function == WindowFunction::kLag ? i - off : i + off;
        if (t >= part_start_[i] && t < part_end_[i]) {
          v->AppendFrom(value, t, 1);
        } else {
          v->AppendFrom(fallback, i, 1);
        }
      }
      return v;
    }
    case WindowFunction::kFirstValue:
    case WindowFunction::kLastValue:
    case WindowFunction::kNthValue: {
      std::vector<int64_t> start, end;
      RETURN_NOT_OK(ComputeFrames(call.frame, &start, &end));
      for (int64_t i = 0; i < n_; ++i) {
        int64_t pick = -1;
        if (call.function == WindowFunction::kFirstValue) {
          if (start[i] < end[i]) pick = start[i];
        } else if (call.function == WindowFunction::kLastValue) {
          if (start[i] < end[i]) pick = end[i] - 1;
        } else if (!args[1]->IsNull(i)) {
          const int64_t k = args[1]->Get<int64_t>(i);
          if (k <= 0) return Status::InvalidArgument("nth_value() argument must be positive, got " + std::to_string(k));
          if (k <= end[i] - start[i]) pick = start[i] + k - 1;
        }
        out[i] = pick;
      }
      return columnar::GatherOrNull(*args[0], out.data(), n_);
    }
    case WindowFunction::kAggregate: {
      const BoundFrame& f = call.frame;
      const bool whole_partition =
          f.start == FrameBoundType::kUnboundedPreceding &&
          (f.end == FrameBoundType::kUnboundedFollowing ||
           (!f.rows && f.end == FrameBoundType::kCurrentRow && order_specs_.empty()));
      if (whole_partition) return PartitionAggregate(call, args);
      if (call.binding.distinct) {
        return Status::NotSupported("DISTINCT window aggregates need a frame of the whole partition");
      }
      std::vector<int64_t> start, end;
      RETURN_NOT_OK(ComputeFrames(call.frame, &start, &end));
      return Aggregate(call, args, start, end);
    }
  }
  return Status::Internal("unknown window function");
}

}  // namespace shoal::sql
