#pragma once

// IcebergSource: reads an Iceberg table into a job, in the FLIP-27 design of Flink's connector (an
// enumerator plans splits, parallel readers read them). Batch reads a snapshot (or the snapshots
// between two); streaming reads a starting position, then every snapshot committed after it,
// overwrites and deletes included, as a change stream (+I and -D rows).
//
//   FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Source> source,
//       IcebergSource::ForRows(TableLoader::FromFolder("/warehouse/db/events"))
//           .Streaming(true)
//           .StartingStrategy(StartingStrategy::kIncrementalFromSnapshotId)
//           .StartSnapshotId(3821550127947089987)
//           .MonitorInterval(1000)
//           .Filter(expr::GreaterThan("id", Literal::Long(5)))
//           .Project({"id", "data"})
//           .Build());
//   DataStream rows = env.FromSource(source, "events");
//
// Options: source_options.h (Set/SetAll take the connector's option names; the typed setters
// write the same keys). schema() is the projected batch schema of the table (the selected
// snapshot's schema in a batch read, else the current one). bounded() unless streaming without
// end-snapshot-id.
//
// Build fails with the options' errors, the loader's, or a filter or column that does not bind to
// the table's schema (kInvalidArgument).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/expr/expression.h"
#include "floe/stream/iceberg/source_options.h"
#include "floe/stream/iceberg/source_reader.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/stream/source.h"

namespace floe::stream {

class IcebergSource final : public Source {
 public:
  class Builder {
   public:
    explicit Builder(TableLoader loader) : loader_(std::move(loader)) {}

    Builder& Streaming(bool streaming);
    Builder& StartingStrategy(stream::StartingStrategy strategy);
    Builder& StartSnapshotId(int64_t snapshot_id);
    Builder& StartSnapshotTimestamp(int64_t timestamp_ms);
    Builder& EndSnapshotId(int64_t snapshot_id);
    Builder& UseSnapshotId(int64_t snapshot_id);
    Builder& AsOfTimestamp(int64_t timestamp_ms);
    Builder& UseBranch(std::string branch);
    Builder& UseTag(std::string tag);
    Builder& MonitorInterval(int64_t interval_ms);
    Builder& SplitSize(int64_t bytes);
    Builder& Limit(int64_t rows);
    Builder& CaseSensitive(bool case_sensitive);
    // Several calls are and-ed.
    Builder& Filter(expr::ExprPtr filter);
    // Top-level or dotted column names; all columns when never called.
    Builder& Project(std::vector<std::string> columns);
    // Rows per emitted batch (8192 by default).
    Builder& BatchRows(int64_t rows);
    Builder& Set(std::string key, std::string value);
    Builder& SetAll(const StringMap& options);

    Result<std::shared_ptr<Source>> Build() const;

   private:
    TableLoader loader_;
    StringMap options_;
    expr::ExprPtr filter_;
    std::optional<std::vector<std::string>> columns_;
    int64_t batch_rows_ = 8192;
  };

  static Builder ForRows(TableLoader loader) { return Builder(std::move(loader)); }

  BatchSchemaPtr schema() const override { return batch_schema_; }
  bool bounded() const override;
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override;
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) override;

  const IcebergSourceOptions& options() const { return options_; }

 private:
  IcebergSource() = default;

  IcebergSourceOptions options_;
  expr::ExprPtr filter_;  // unbound
  std::shared_ptr<const SourceReadSpec> read_;
  BatchSchemaPtr batch_schema_;
};

}  // namespace floe::stream
