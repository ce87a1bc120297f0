#pragma once

// A source of generated rows for jobs, tests and benchmarks, with the options of Flink's datagen
// connector:
//
//   rows-per-second      rate limit of the whole source, shared by its readers (0: unlimited;
//                        default 10000)
//   number-of-rows       the source is bounded to this many rows (default: unbounded)
//   seed                 of the random values (default 0)
//   batch-size           rows per emitted batch (default 4096)
//   split-count          how many independent shares the rows are dealt into (default 64; see
//                        below)
//   fields.<f>.kind      sequence | random (default random)
//   fields.<f>.start/end sequence: row i has start + i (strings: its digits; booleans: its
//                        lowest bit); the source ends after end (inclusive)
//   fields.<f>.min/max   random numbers and timestamps (integers in [min, max], floating
//                        point in [min, max); default: the type's range, [0, 1) for floating
//                        point, 2000 to 2030 for timestamps)
//   fields.<f>.length    random strings' length (default 10)
//
// Types: int, long, float, double, boolean, string, date, timestamp (micros, with or without zone;
// their start/min/max are ISO-8601 text or microseconds; random ones are whole units of the
// type's precision, e.g. milliseconds for TIMESTAMP(3)). Row i's value of field f is a pure
// function of (seed, f's name, i), so a test can recompute exactly the rows a job generated
// (GenerateRows).
//
// Distribution and state: row i belongs to share i % S (S = max(split-count, parallelism)); a fresh
// reader k takes the shares s with s % parallelism == k, so with S a multiple of the parallelism
// reader k generates exactly the rows i with i % parallelism == k, in order. A reader's state is
// one entry per unfinished share (the share, S and the next row of it), which stands on its own:
// after a restore with another parallelism the entries dealt round-robin continue exactly (readers
// beyond S get none and end at once).
//
// Errors: Make fails with kInvalidArgument naming the option for an unknown option or field, a
// malformed number, a sequence without start/end, min above max, or an unsupported type.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/stream/source.h"

namespace floe::stream {

class DatagenSource : public Source, public std::enable_shared_from_this<DatagenSource> {
 public:
  static Result<std::shared_ptr<DatagenSource>> Make(
      BatchSchemaPtr schema, const std::map<std::string, std::string>& options);
  ~DatagenSource() override;

  BatchSchemaPtr schema() const override { return schema_; }
  bool bounded() const override { return row_count_.has_value(); }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override;
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) override;

  // The rows with these indices, as the readers generate them.
  Result<RecordBatch> GenerateRows(std::span<const int64_t> rows) const;
  // How many rows a bounded source generates.
  std::optional<int64_t> row_count() const { return row_count_; }

  struct FieldGenerator;

 private:
  DatagenSource() = default;

  BatchSchemaPtr schema_;
  std::vector<FieldGenerator> fields_;
  std::optional<int64_t> row_count_;
  int64_t rows_per_second_ = 10000;
  int64_t batch_size_ = 4096;
  int64_t split_count_ = 64;
};

}  // namespace floe::stream
