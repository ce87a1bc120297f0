#pragma once

// The accumulators of one aggregate call (COUNT, SUM, AVG, MIN, MAX, optionally DISTINCT) for
// every group of a hash aggregate, held column by column (one array entry per group id) and
// updated a batch at a time with loops typed by the argument's type, so that no row pays for a
// dispatch. Streaming MIN/MAX keep every value of the group with its multiplicity, so that a
// retraction can reveal the next one; DISTINCT calls keep the (group, value) pairs they have seen
// (aggregate_distinct_internal.h). Results come out as encoded cells (cell_internal.h) of the
// call's result type.
//
// Errors: SUM/AVG overflowing BIGINT or DECIMAL(38) (as Flink's checked arithmetic), an UNSIGNED
// BIGINT beyond BIGINT, more distinct values than HashIndex can number, and corrupt state.

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/sql/exec/aggregate_distinct_internal.h"
#include "floe/sql/exec/aggregate_rows_internal.h"
#include "floe/sql/exec/relational.h"
#include "floe/sql/exec/state_codec_internal.h"

namespace floe::sql::exec {

struct BoundCall {
  AggregateCall call;
  DataTypePtr argument_type;  // null for COUNT(*)
  DataTypePtr result_type;
};

// Checks the calls' argument columns against `input` and gives their result types.
Result<std::vector<BoundCall>> BindCalls(const BatchSchema& input,
                                         const std::vector<AggregateCall>& calls);

class CallState {
 public:
  CallState(BoundCall bound, bool streaming);

  const BoundCall& bound() const { return bound_; }

  // Makes room for groups [0, groups): new ones start with no rows.
  void Resize(uint32_t groups);
  Status Update(const RecordBatch& batch, const GroupRows& rows);
  // Appends group `group`'s result as an encoded cell of the result type.
  void EncodeResult(uint32_t group, std::string& out) const;

  // The state of the groups `ids`, which Read numbers 0, 1... in that order from `base`.
  // `ordinal` maps every group id to its place in `ids` (HashIndex::kNone: not written).
  void Write(std::span<const uint32_t> ids, std::span<const uint32_t> ordinal,
             StateWriter& writer) const;
  // Reads groups [base, base + count) (already made room for), then their distinct values.
  Status Read(uint32_t base, uint32_t count, StateReader& reader);

  void Clear();

 private:
  struct EncodedLess {
    const DataType* type = nullptr;
    bool operator()(const std::string& a, const std::string& b) const;
  };
  using ValueCounts = std::map<std::string, int64_t, EncodedLess>;

  Status UpdateSum(const Array& argument, const GroupRows& rows);
  Status UpdateDenseSum(const Array& argument, uint32_t group);
  void UpdateExtreme(const Array& argument, const GroupRows& rows);
  void UpdateStreamingExtreme(const Array& argument, const GroupRows& rows);
  // The rows whose value is new to (or gone from) their group; null rows skipped.
  Status FilterDistinct(const Array& argument, const GroupRows& rows, GroupRows& filtered);
  void EncodeAverage(uint32_t group, std::string& out) const;
  Status ReadGroup(uint32_t id, StateReader& reader);

  BoundCall bound_;
  bool streaming_;
  bool is_min_ = false;
  TypeKind argument_kind_ = TypeKind::kNull;
  int width_ = 0;  // MIN/MAX of a fixed-width or boolean argument: bytes per value
  uint32_t groups_ = 0;
  std::vector<int64_t> counts_;  // COUNT: the count; SUM/AVG: non-null values summed
  std::vector<int64_t> sum_int_;
  std::vector<double> sum_double_;
  std::vector<__int128> sum_decimal_;
  std::vector<uint8_t> present_;         // batch MIN/MAX: whether the group has a value
  std::vector<char> best_;               // batch MIN/MAX of fixed width: width_ bytes per group
  std::vector<std::string> best_bytes_;  // batch MIN/MAX of strings and binaries
  std::vector<std::unique_ptr<ValueCounts>> values_;  // streaming MIN/MAX: encoded cells
  std::unique_ptr<DistinctSet> distinct_;
  std::vector<int8_t> distinct_signs_;
};

}  // namespace floe::sql::exec
