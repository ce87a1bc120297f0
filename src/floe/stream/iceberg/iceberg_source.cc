#include "floe/stream/iceberg/iceberg_source.h"

#include <utility>

#include "floe/stream/iceberg/source_enumerator.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/scan/snapshot_selection.h"
#include "floe/table/table.h"

namespace floe::stream {
namespace {

std::string Text(int64_t v) { return std::to_string(v); }

}  // namespace

using Builder = IcebergSource::Builder;

Builder& Builder::Streaming(bool streaming) {
  return Set("streaming", streaming ? "true" : "false");
}
Builder& Builder::StartingStrategy(stream::StartingStrategy strategy) {
  return Set("starting-strategy", std::string(StartingStrategyName(strategy)));
}
Builder& Builder::StartSnapshotId(int64_t id) { return Set("start-snapshot-id", Text(id)); }
Builder& Builder::StartSnapshotTimestamp(int64_t ms) {
  return Set("start-snapshot-timestamp", Text(ms));
}
Builder& Builder::EndSnapshotId(int64_t id) { return Set("end-snapshot-id", Text(id)); }
Builder& Builder::UseSnapshotId(int64_t id) { return Set("snapshot-id", Text(id)); }
Builder& Builder::AsOfTimestamp(int64_t ms) { return Set("as-of-timestamp", Text(ms)); }
Builder& Builder::UseBranch(std::string branch) { return Set("branch", std::move(branch)); }
Builder& Builder::UseTag(std::string tag) { return Set("tag", std::move(tag)); }
Builder& Builder::MonitorInterval(int64_t ms) { return Set("monitor-interval", Text(ms) + "ms"); }
Builder& Builder::SplitSize(int64_t bytes) { return Set("split-size", Text(bytes)); }
Builder& Builder::Limit(int64_t rows) { return Set("limit", Text(rows)); }
Builder& Builder::CaseSensitive(bool cs) { return Set("case-sensitive", cs ? "true" : "false"); }
Builder& Builder::Filter(expr::ExprPtr filter) {
  filter_ = filter_ ? expr::And(filter_, std::move(filter)) : std::move(filter);
  return *this;
}
Builder& Builder::Project(std::vector<std::string> columns) {
  columns_ = std::move(columns);
  return *this;
}
Builder& Builder::BatchRows(int64_t rows) {
  batch_rows_ = rows;
  return *this;
}
Builder& Builder::Set(std::string key, std::string value) {
  options_.insert_or_assign(std::move(key), std::move(value));
  return *this;
}
Builder& Builder::SetAll(const StringMap& options) {
  for (const auto& [key, value] : options) options_.insert_or_assign(key, value);
  return *this;
}

Result<std::shared_ptr<Source>> Builder::Build() const {
  FLOE_ASSIGN_OR_RETURN(IcebergSourceOptions options, IcebergSourceOptions::Parse(options_));
  if (batch_rows_ <= 0) return InvalidArgument("batch rows must be positive, not {}", batch_rows_);
  FLOE_ASSIGN_OR_RETURN(auto table, loader_.Load());
  TableMetadataPtr metadata = table->metadata();
  // A batch read of one snapshot reads it with the schema it was written with; other reads use
  // the table's current schema.
  SchemaPtr schema = metadata->current_schema();
  if (!options.streaming && !options.start_snapshot_id) {
    table::SnapshotSelector selector{options.snapshot_id, options.as_of_timestamp_ms,
                                     options.branch ? options.branch : options.tag};
    FLOE_ASSIGN_OR_RETURN(SnapshotPtr snapshot, table::SelectSnapshot(*metadata, selector));
    FLOE_ASSIGN_OR_RETURN(schema, table::SchemaForSnapshot(*metadata, snapshot.get()));
  }
  auto read = std::make_shared<SourceReadSpec>(SourceReadSpec{.loader = loader_});
  read->table_schema = schema;
  read->projected = schema;
  if (columns_) {
    FLOE_ASSIGN_OR_RETURN(read->projected, schema->Select(*columns_, options.case_sensitive));
  }
  read->bound_filter = expr::True();
  if (filter_) {
    FLOE_ASSIGN_OR_RETURN(read->bound_filter, expr::Bind(filter_, *schema, options.case_sensitive));
  }
  read->limit = options.limit;
  read->batch_rows = batch_rows_;
  FLOE_ASSIGN_OR_RETURN(auto fields, table::ToBatchFields(*read->projected));

  auto source = std::shared_ptr<IcebergSource>(new IcebergSource());
  source->options_ = std::move(options);
  source->filter_ = filter_;
  source->read_ = std::move(read);
  source->batch_schema_ = std::make_shared<const BatchSchema>(std::move(fields));
  return source;
}

bool IcebergSource::bounded() const { return !options_.streaming || options_.end_snapshot_id; }

Result<std::unique_ptr<SplitEnumerator>> IcebergSource::CreateEnumerator() {
  return std::make_unique<IcebergSplitEnumerator>(read_->loader, options_, filter_);
}

Result<std::unique_ptr<SourceReader>> IcebergSource::CreateReader(int /*subtask_index*/) {
  return std::make_unique<IcebergSourceReader>(read_);
}

}  // namespace floe::stream
