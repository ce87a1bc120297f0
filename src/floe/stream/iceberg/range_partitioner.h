#pragma once

// The key space of the IcebergSink's range distribution and the ranges of it each writer takes.
//
// SortKey: the table's sort order (its transforms, directions and null orders), else its partition
// spec (ascending, nulls first). Sort keys of rows are computed by the table layer's Partitioner
// over a spec made of the sort fields, so transforms give what Transform::Apply gives.
//
// RangeAssignment: writers-1 upper bounds over the sort key, computed from a weighted sample of
// keys so that every writer gets about the same weight of rows. Writer i takes the keys in
// (bound[i-1], bound[i]]. The rows of a bound key are split between the writers it bounds, in
// proportion to the part of its weight that falls in each writer's share (a key heavier than a
// share is several bounds and is spread over several writers), so neighbouring writers may share
// their boundary key and skewed keys still balance.
//
// What can go wrong: SortKey::ForTable fails on sort or partition fields whose transform floe
// cannot compute; RangeAssignment::FromJson fails on malformed or mistyped state (naming it).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/spec/literal.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/json.h"

namespace floe::stream {

using KeyTuple = std::vector<Literal>;

class SortKey {
 public:
  // nullopt when the table is unsorted and unpartitioned (range distribution has no key).
  static Result<std::optional<SortKey>> ForTable(const TableMetadata& metadata);

  // The sort fields as a partition spec, for table::Partitioner.
  const PartitionSpecPtr& spec() const { return spec_; }
  const std::vector<TypePtr>& types() const { return types_; }
  // <0, 0, >0 as a sorts before, with or after b.
  int Compare(const KeyTuple& a, const KeyTuple& b) const;
  // "sort order 1: id asc nulls-first".
  const std::string& description() const { return description_; }

 private:
  PartitionSpecPtr spec_;
  std::vector<TypePtr> types_;
  std::vector<SortDirection> directions_;
  std::vector<NullOrder> null_orders_;
  std::string description_;
};

struct WeightedKey {
  KeyTuple key;
  double weight = 0;
};

class RangeAssignment {
 public:
  // From the keys of one checkpoint interval; nullptr when there are none.
  static std::shared_ptr<const RangeAssignment> Compute(const SortKey& sort_key,
                                                        std::vector<WeightedKey> sample,
                                                        int writers, int64_t checkpoint_id);

  // The writers that take rows of `key`: first, and for a bound key the cumulative fraction of
  // its rows that goes to writers first, first+1, ... (the last entry is 1).
  struct Route {
    int first = 0;
    std::vector<double> cumulative;  // empty: every row to `first`
  };
  Route RouteOf(const SortKey& sort_key, const KeyTuple& key) const;
  int64_t checkpoint_id() const { return checkpoint_id_; }
  int writers() const { return static_cast<int>(bounds_.size()) + 1; }
  const std::vector<KeyTuple>& bounds() const { return bounds_; }

  Result<Json> ToJson() const;
  static Result<std::shared_ptr<const RangeAssignment>> FromJson(const SortKey& sort_key,
                                                                 const Json& json);

 private:
  int64_t checkpoint_id_ = 0;
  std::vector<KeyTuple> bounds_;  // non-decreasing
  // Per bound: the fraction of its key's weight that goes to writers up to this bound's.
  std::vector<double> fractions_;
};

}  // namespace floe::stream
