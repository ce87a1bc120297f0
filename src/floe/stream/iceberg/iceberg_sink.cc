#include "floe/stream/iceberg/iceberg_sink.h"

#include <algorithm>
#include <set>

#include "floe/stream/iceberg/committed_positions.h"
#include "floe/stream/iceberg/partition_selector.h"
#include "floe/stream/iceberg/range_shuffle.h"
#include "floe/stream/iceberg/sink_committer.h"
#include "floe/stream/iceberg/sink_writer.h"
#include "floe/stream/job_graph.h"
#include "floe/stream/source_offsets.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"

namespace floe::stream {
namespace {

// Every source upstream of `input` may resume from what this sink committed of its positions
// (committed_positions.h): the table is read when the source asks, at the job's start.
void OfferCommittedPositions(const DataStream& input, const TableLoader& loader,
                             const std::string& branch) {
  const JobGraph& graph = input.environment().graph();
  std::vector<int> todo = {input.node_id()};
  std::set<int> seen;
  while (!todo.empty()) {
    const JobNode& node = graph.node(todo.back());
    todo.pop_back();
    if (!seen.insert(node.id).second) continue;
    for (int edge : node.inputs) todo.push_back(graph.edge(edge).from);
    if (!node.source) continue;
    node.source->ResumeFromCommitted(
        [loader, branch, name = node.name]() -> Result<std::vector<std::string>> {
          FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table, loader.Load());
          return CommittedReaderPositions(*table->metadata(), branch, name);
        });
    auto* resumes = dynamic_cast<ResumesFromCommittedOffsets*>(node.source.get());
    if (resumes == nullptr) continue;
    resumes->ResumeFromCommittedOffsets(
        [loader, branch, name = node.name]() -> Result<std::optional<std::string>> {
          FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table, loader.Load());
          return BranchCommittedOffsets(*table->metadata(), branch, name);
        });
  }
}

std::string_view ModeName(DistributionMode mode) {
  switch (mode) {
    case DistributionMode::kNone:
      return "none";
    case DistributionMode::kHash:
      return "hash";
    case DistributionMode::kRange:
      return "range";
  }
  return "none";
}

// The input's columns must be the table's, in order and type (names may differ).
Status CheckColumns(const BatchSchema& input, const BatchSchema& table, const std::string& name) {
  if (input.num_fields() != table.num_fields()) {
    return InvalidArgument("iceberg sink to {}: the input has {} columns ({}), the table {} ({})",
                           name, input.num_fields(), input.ToString(), table.num_fields(),
                           table.ToString());
  }
  for (int i = 0; i < input.num_fields(); ++i) {
    if (!input.field(i).type->Equals(*table.field(i).type)) {
      return InvalidArgument(
          "iceberg sink to {}: input column {} '{}' is {}, the table's column '{}' is {}", name, i,
          input.field(i).name, input.field(i).type->ToString(), table.field(i).name,
          table.field(i).type->ToString());
    }
  }
  return Ok();
}

}  // namespace

IcebergSink::Builder& IcebergSink::Builder::TableLoader(stream::TableLoader loader) {
  loader_ = std::move(loader);
  return *this;
}
IcebergSink::Builder& IcebergSink::Builder::Overwrite(bool overwrite) {
  return Set("overwrite-enabled", overwrite ? "true" : "false");
}
IcebergSink::Builder& IcebergSink::Builder::Upsert(bool upsert) {
  return Set("upsert-enabled", upsert ? "true" : "false");
}
IcebergSink::Builder& IcebergSink::Builder::EqualityFieldColumns(std::vector<std::string> columns) {
  equality_columns_ = std::move(columns);
  return *this;
}
IcebergSink::Builder& IcebergSink::Builder::Set(std::string key, std::string value) {
  options_[std::move(key)] = std::move(value);
  return *this;
}
IcebergSink::Builder& IcebergSink::Builder::SetAll(
    const std::map<std::string, std::string>& options) {
  for (const auto& [key, value] : options) options_[key] = value;
  return *this;
}
IcebergSink::Builder& IcebergSink::Builder::WriteParallelism(int parallelism) {
  return Set("write-parallelism", std::to_string(parallelism));
}
IcebergSink::Builder& IcebergSink::Builder::DistributionMode(stream::DistributionMode mode) {
  return Set("distribution-mode", std::string(ModeName(mode)));
}
IcebergSink::Builder& IcebergSink::Builder::ToBranch(std::string branch) {
  return Set("branch", std::move(branch));
}
IcebergSink::Builder& IcebergSink::Builder::SinkId(std::string sink_id) {
  sink_id_ = std::move(sink_id);
  return *this;
}

Status IcebergSink::Builder::Append() {
  if (!loader_) return InvalidArgument("iceberg sink: no TableLoader set");
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table, loader_->Load());
  const TableMetadataPtr metadata = table->metadata();
  FLOE_ASSIGN_OR_RETURN(SinkOptions options,
                        SinkOptions::Resolve(*metadata, options_, equality_columns_));
  const SchemaPtr& schema = metadata->current_schema();
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, table::ToBatchFields(*schema));
  auto table_columns = std::make_shared<const BatchSchema>(std::move(fields));
  const std::string name = loader_->ToString();
  if (!input_.schema()) return InvalidArgument("iceberg sink to {}: the input has no schema", name);
  FLOE_RETURN_IF_ERROR(CheckColumns(*input_.schema(), *table_columns, name));

  const int parallelism =
      options.write_parallelism > 0 ? options.write_parallelism : input_.parallelism();
  // Equality columns by the input's names (they may differ from the table's).
  std::vector<std::string> key_columns;
  for (int32_t id : options.equality_field_ids) {
    const int index = table_columns->FindFieldIndexById(id);
    key_columns.push_back(input_.schema()->field(index).name);
  }
  const PartitionSpecPtr& spec = metadata->default_spec();
  bool partition_in_keys = true;
  for (const PartitionField& field : spec->fields()) {
    partition_in_keys &=
        std::find(options.equality_field_ids.begin(), options.equality_field_ids.end(),
                  field.source_id()) != options.equality_field_ids.end();
  }
  const std::string prefix = sink_id_.empty() ? "IcebergSink " + name : "IcebergSink " + sink_id_;
  std::optional<SortKey> sort_key;
  if (options.distribution == DistributionMode::kRange && key_columns.empty()) {
    FLOE_ASSIGN_OR_RETURN(sort_key, SortKey::ForTable(*metadata));
  }
  DataStream routed = input_;
  if (sort_key) {
    auto statistics =
        std::make_shared<RangeStatistics>(std::move(*sort_key), parallelism, input_.parallelism());
    DataStream sampled = input_.Transform(
        prefix + " range statistics", input_.schema(),
        [statistics, schema, table_columns](int) -> Result<std::unique_ptr<Operator>> {
          return std::make_unique<RangeStatisticsOperator>(statistics, schema, table_columns);
        },
        input_.parallelism());
    routed = sampled.PartitionCustom([statistics, schema, table_columns](
                                         int subtask) -> Result<std::unique_ptr<ChannelSelector>> {
      FLOE_ASSIGN_OR_RETURN(auto selector,
                            RangeChannelSelector::Make(statistics, subtask, schema, table_columns));
      return std::unique_ptr<ChannelSelector>(std::move(selector));
    });
  } else if (options.distribution == DistributionMode::kHash && !spec->is_unpartitioned() &&
             (key_columns.empty() || partition_in_keys)) {
    routed = input_.PartitionCustom(
        [spec, schema, table_columns](int) -> Result<std::unique_ptr<ChannelSelector>> {
          FLOE_ASSIGN_OR_RETURN(auto selector,
                                PartitionChannelSelector::Make(spec, schema, table_columns));
          return std::unique_ptr<ChannelSelector>(std::move(selector));
        });
  } else if (!key_columns.empty()) {
    routed = input_.KeyBy(key_columns);
  } else if (parallelism == input_.parallelism()) {
    routed = input_.Forward();
  } else {
    routed = input_.Rebalance();
  }

  OfferCommittedPositions(input_, *loader_, options.branch);

  SinkSpec spec_of_sink{.loader = *loader_,
                        .options = options_,
                        .equality_columns = equality_columns_,
                        .sink_id = sink_id_};
  DataStream files = routed.Transform(
      prefix + " writer", input_.schema(),
      [spec_of_sink](int) -> Result<std::unique_ptr<Operator>> {
        return std::make_unique<IcebergSinkWriter>(spec_of_sink);
      },
      parallelism);
  files.Rebalance().SinkTo(
      prefix + " committer",
      [spec_of_sink](int) -> Result<std::unique_ptr<Operator>> {
        return std::make_unique<IcebergSinkCommitter>(spec_of_sink);
      },
      1);
  return Ok();
}

}  // namespace floe::stream
