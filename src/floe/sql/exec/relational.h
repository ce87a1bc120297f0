#pragma once

// The relational operators SQL plans need beyond projection and filtering, built on the stream
// runtime: aggregation (GROUP BY, DISTINCT), sort with an optional limit (top-N), limit/offset,
// UNION ALL and joins. They address columns by index: the planner projects expressions into
// columns first. Each returns the new stream or a clear error (an unsupported combination, e.g.
// a sort of an unbounded stream).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/batch/array.h"
#include "floe/stream/data_stream.h"

namespace floe::sql::exec {

enum class AggregateKind : unsigned char { kCountStar, kCount, kSum, kAvg, kMin, kMax };

struct AggregateCall {
  AggregateKind kind = AggregateKind::kCountStar;
  int argument = -1;  // input column; -1 for COUNT(*)
  bool distinct = false;
  std::string output_name;
};

// The SQL result type of an aggregate over `argument` (null for COUNT(*)): COUNT is a non-null
// BIGINT, SUM and AVG keep an integer or floating argument's type as Flink's do, SUM of
// DECIMAL(p, s) is DECIMAL(38, s), MIN/MAX the argument's type. kInvalidArgument for e.g. SUM of a
// string.
Result<DataTypePtr> AggregateResultType(AggregateKind kind, const DataTypePtr& argument);

// Output: the group columns (in `group_columns` order) then one column per call. Batch mode: one
// row per group at the end of the input (one row for no groups, even on empty input). Streaming:
// after each input batch, the changed groups as -U (old) and +U (new) rows, +I for new groups;
// input rows with -U/-D kinds retract.
Result<stream::DataStream> Aggregate(const stream::DataStream& input,
                                     std::vector<int> group_columns,
                                     std::vector<AggregateCall> calls);

// A window aggregate over rows that carry their window's end in column `window_end` (one of the
// group columns; see AssignWindows). Batch mode: Aggregate's answer. Streaming: each group once,
// as +I, when the watermark reaches its window's last millisecond (end - 1 ms); rows of a window
// already emitted are late: dropped and counted in `<operator>.<subtask>.late-records-dropped`.
// The input must be insert-only. At the end of the input every window still open is emitted.
Result<stream::DataStream> WindowAggregate(const stream::DataStream& input,
                                           std::vector<int> group_columns,
                                           std::vector<AggregateCall> calls, int window_end);

// The window table functions' windows: TUMBLE (size, offset), HOP (slide, size, offset),
// CUMULATE (step in `slide_us`, max size, offset). Lengths in microseconds.
enum class WindowKind : unsigned char { kTumble, kHop, kCumulate };
struct WindowSpec {
  WindowKind kind = WindowKind::kTumble;
  int64_t size_us = 0;
  int64_t slide_us = 0;
  int64_t offset_us = 0;
};

// Every row of `input` once for each window of `spec` that holds its time (column `time_column`,
// a TIMESTAMP or TIMESTAMP_LTZ), with window_start and window_end (TIMESTAMP(3)) and window_time
// (window_end - 1 ms, of the time column's kind) appended; rows with a null time have no window
// and are dropped. kInvalidArgument for a bad column or lengths (HOP's size must be a multiple of
// its slide, CUMULATE's of its step).
Result<stream::DataStream> AssignWindows(const stream::DataStream& input, int time_column,
                                         WindowSpec spec);

struct SortKey {
  int column = 0;
  bool descending = false;
  bool nulls_first = true;  // Flink's default: NULLS FIRST for ASC, NULLS LAST for DESC
};

// ROW_NUMBER(), RANK() and DENSE_RANK() OVER (PARTITION BY ... ORDER BY ...): every row of
// `input` with its rank in its partition appended (column `rank_name`, BIGINT NOT NULL); with a
// `limit` only the rows ranked at most `limit` (Flink's Top-N; a limit of 1 with ROW_NUMBER is
// its deduplication). Ties: rows of equal order keys rank by arrival, except with `newer_first`
// (keep the last row: the newer one first). Batch mode: the rows at the end of the input.
// Streaming (a `limit` is required, the input must be insert-only): after each batch, per
// partition whose ranked rows changed, each rank whose row changed as -U (old) and +U (new), a
// new rank as +I and a rank gone as -D. With `keep_first_rowtime` (the time attribute column
// the ROW_NUMBER orders by ascending, with limit 1) a partition's first row is final once the
// watermark passes its time: emitted once as +I, later rows of the partition dropped, so the
// result is append-only. With `window_end` (a window Top-N: a window table function's
// window_end column, one of the partition columns) each window's ranked rows are emitted once,
// as +I, when the watermark reaches the window's last millisecond, and rows of a window already
// emitted are dropped as late: append-only too. `state_ttl_ms` > 0 (table.exec.state.ttl): a
// partition no row has reached for that long (processing time) is forgotten.
enum class RankKind : unsigned char { kRowNumber, kRank, kDenseRank };
struct RankSpec {
  RankKind kind = RankKind::kRowNumber;
  std::vector<int> partition_columns;
  std::vector<SortKey> order;
  std::optional<int64_t> limit;
  bool newer_first = false;
  int keep_first_rowtime = -1;
  int window_end = -1;
  int64_t state_ttl_ms = 0;
  std::string rank_name = "rank";
};
Result<stream::DataStream> Rank(const stream::DataStream& input, RankSpec spec);

// Batch only: every row of the input in key order (stable), skipping `offset` and keeping at most
// `limit`; one output subtask.
Result<stream::DataStream> Sort(const stream::DataStream& input, std::vector<SortKey> keys,
                                std::optional<int64_t> limit, int64_t offset);

// The first `limit` rows after skipping `offset`, in arrival order; one output subtask. Ends the
// job's input early where the runtime can.
Result<stream::DataStream> Limit(const stream::DataStream& input, std::optional<int64_t> limit,
                                 int64_t offset);

// Every row of every input; their schemas must match by type (names are the first input's).
// kInvalidArgument naming the column that differs.
Result<stream::DataStream> UnionAll(const std::vector<stream::DataStream>& inputs);

// INTERSECT and EXCEPT of two inputs of equal column types (cast first), comparing whole rows
// with null equal to null. DISTINCT (`all` false): each distinct left row once if it is (is not)
// among the right rows. ALL: a left row that occurs m times on the left and n times on the right
// comes out min(m, n) times (INTERSECT) or max(m - n, 0) times (EXCEPT). An aggregate over both
// sides: batch mode emits at the end, streaming mode as a changelog (-D copies of a row's old
// multiplicity, +I of its new one). Output columns are named as `left`'s.
enum class SetOperation : unsigned char { kIntersect, kExcept };
Result<stream::DataStream> IntersectExcept(const stream::DataStream& left,
                                           const stream::DataStream& right,
                                           SetOperation operation, bool all);

// Batch only: the one row of `input` (a single column, named `column_name` in the output, made
// nullable) at its end: a row holding NULL when the input has none. More than one row fails the
// job with kInvalidArgument naming `what` (e.g. the subquery's text). A scalar subquery's value.
Result<stream::DataStream> SingleValue(const stream::DataStream& input, std::string column_name,
                                       std::string what);

// Batch only: every left row once, with a nullable BOOLEAN column `mark_name` appended: the value
// of a subquery predicate for the row. The right rows that belong to a left row are those whose
// `right_keys` equal its `left_keys` (SQL equality: a null equals nothing). Without `in` the mark
// is whether there is one (EXISTS: never null). With `in` = {left column, right column} it is
// `left IN (those rows' values)` in SQL's three-valued logic: TRUE when one equals the left value,
// FALSE when there is no row, else NULL when the left value or one of the values is null, else
// FALSE. The right side is held in memory; with keys both sides are hash-partitioned on them,
// without keys the right side is broadcast to each subtask of the left, which keeps its
// parallelism. kInvalidArgument for key types that differ (cast first).
Result<stream::DataStream> MarkJoin(const stream::DataStream& left, const stream::DataStream& right,
                                    std::vector<int> left_keys, std::vector<int> right_keys,
                                    std::optional<std::pair<int, int>> in, std::string mark_name);

// kLeftSemi and kLeftAnti output the left rows that have (have no) matching right row, once each:
// IN / EXISTS and NOT EXISTS subqueries. kLeftSingle is a LEFT join in which a left row may match
// at most one right row (a second fails the job): a correlated scalar subquery's value.
// kNullAwareAnti is NOT IN's anti join on exactly one key and no condition, with SQL's three-valued
// logic: a null key on the right makes every left row unknown (no output), and a null left key is
// unknown unless the right side is empty.
enum class JoinKind : unsigned char {
  kInner,
  kLeft,
  kLeftSingle,
  kRight,
  kFull,
  kCross,
  kLeftSemi,
  kLeftAnti,
  kNullAwareAnti
};

// A filter over joined rows (left columns then right columns): a boolean array, null = false.
using JoinCondition = std::function<Result<Array>(const RecordBatch& joined)>;

// Batch only: a hash join on equal keys (empty keys: a nested-loop join, e.g. CROSS JOIN), with an
// optional extra condition that must also hold for rows to match. Output: the left columns then
// the right ones; for outer joins the missing side is null; for semi and anti joins the left
// columns only (the condition still sees left then right columns). Keys compare as SQL does: a null
// key matches nothing; key types must be equal (kInvalidArgument otherwise: cast first). Memory:
// the right side is held in memory whole (put the smaller input on the right), and left batches
// that arrive before the right side has ended are held too. With keys, both sides are
// hash-partitioned over the default parallelism. Without keys the left side keeps its parallelism
// and the right side is broadcast to each of its subtasks (each holds a copy), except for RIGHT
// and FULL joins, whose unmatched right rows need one subtask to see every pair.
// `what` names the join in errors (e.g. kLeftSingle's subquery); empty: its kind.
Result<stream::DataStream> Join(const stream::DataStream& left, const stream::DataStream& right,
                                JoinKind kind, std::vector<int> left_keys,
                                std::vector<int> right_keys, JoinCondition condition = {},
                                std::string what = {});

}  // namespace floe::sql::exec
