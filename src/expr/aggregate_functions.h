// Grouped aggregate functions for the executor's hash aggregate.
//
// Use: ResolveAggregate() once at bind time (name, argument types, DISTINCT) gives an
// AggregateBinding: the argument types to cast the inputs to, the result type, and a factory.
// Each hash table (or each partial aggregation thread) creates its own GroupedAggregate:
//   agg->Resize(num_groups);                      // as groups are discovered (ids 0..n-1)
//   agg->Update(group_ids, args, n);              // row i belongs to group group_ids[i]
//   agg->Combine(other, group_map);               // other's group g merges into group_map[g]
//   agg->Finalize() -> one row per group.
// count(*) takes no arguments (Update is given only n). Empty groups finalize to 0 for count
// and NULL for every other aggregate.
//
// Result types: count -> BIGINT; sum(integers) -> BIGINT (overflow is an OutOfRange error),
// sum(DECIMAL(p,s)) -> DECIMAL(38,s), sum(FLOAT/DOUBLE) -> DOUBLE; avg(numbers) -> DOUBLE,
// avg(DECIMAL(p,s)) -> DECIMAL(min(38,p+4), min(38,s+4)) exact, rounded half away from zero
// (Spark); min/max/any_value/first -> the argument type; bool_and/bool_or -> BOOLEAN;
// string_agg/listagg(s[, sep]) -> STRING (default separator ","); collect_list/array_agg ->
// ARRAY<T> (NULLs skipped, as Spark); stddev/stddev_samp/stddev_pop/variance/var_samp/
// var_pop -> DOUBLE (Welford). DISTINCT is supported for every aggregate with an argument.
//
// Thread-safety: a GroupedAggregate is used by one thread; Combine reads `other` which must
// not be updated concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::expr {

class GroupedAggregate {
 public:
  virtual ~GroupedAggregate() = default;
  // Grows to `num_groups` groups; new groups start empty. Never shrinks.
  virtual void Resize(int64_t num_groups) = 0;
  int64_t num_groups() const { return num_groups_; }
  // Folds rows [0, n) of `args` (vectors of at least n rows) into their groups.
  virtual Status Update(const uint32_t* group_ids, const std::vector<const columnar::Vector*>& args,
                        int64_t n) = 0;
  // Folds rows [0, n) of `args` into the one group `group` (a global aggregate). The default
  // calls Update; the common aggregates override it with a register-accumulator loop.
  virtual Status UpdateOneGroup(uint32_t group, const std::vector<const columnar::Vector*>& args, int64_t n);
  // Merges every group g of `other` (same binding) into this group group_map[g]; this must
  // already have those groups. A group mapped to kSkipGroup is left out (partitioned merges
  // take one partition's groups at a time).
  static constexpr uint32_t kSkipGroup = 0xFFFFFFFFu;
  virtual Status Combine(GroupedAggregate& other, const uint32_t* group_map) = 0;
  // Settles buffered state so that afterwards Combine only reads this as its `other`: several
  // threads may then merge disjoint groups of it concurrently.
  virtual Status PrepareCombine() { return Status::OK(); }
  // Merges other's group src[k] into this group dst[k] for k in [0, n), in k order; a source
  // group may appear many times (window frames reuse segment-tree nodes). `other` keeps its
  // state. The default is NotSupported (DISTINCT aggregates).
  virtual Status CombineSelected(GroupedAggregate& other, const uint32_t* src, const uint32_t* dst,
                                 int64_t n);
  // One row per group, in group id order.
  virtual Result<columnar::VectorPtr> Finalize() = 0;
  // Bytes the state has allocated (array capacities and the strings or values it keeps), for
  // memory accounting; O(1) or O(arguments), never O(groups).
  virtual int64_t MemoryBytes() const = 0;

 protected:
  int64_t num_groups_ = 0;
};

struct AggregateBinding {
  std::string name;  // canonical name (count_star for count(*))
  std::vector<columnar::TypePtr> arg_types;  // cast the inputs to these first
  columnar::TypePtr result_type;
  bool distinct = false;
  // Creates empty aggregation state; the binding must outlive it.
  std::unique_ptr<GroupedAggregate> Create() const;

  int kind = 0;  // internal: which implementation
};

// Resolves an aggregate; `count` with no args (count(*)) is count_star. Binder error for an
// unknown name or unsupported argument types.
Result<AggregateBinding> ResolveAggregate(std::string_view name,
                                          const std::vector<columnar::TypePtr>& arg_types,
                                          bool distinct = false);
bool IsAggregateFunction(std::string_view name);
// True when the aggregate skips NULL inputs (all but first / any_value and its aliases), so
// agg(x) FILTER (WHERE p) can be computed as agg(CASE WHEN p THEN x END).
bool AggregateIgnoresNulls(std::string_view name);

}  // namespace shoal::expr
