#include "floe/stream/iceberg/write_rows/write_rows.h"

#include "floe/stream/iceberg/write_rows/dynamic_committer.h"
#include "floe/stream/iceberg/write_rows/dynamic_selector.h"
#include "floe/stream/iceberg/write_rows/dynamic_writer.h"
#include "floe/stream/job_graph.h"

namespace floe::stream {

WriteRows& WriteRows::Catalog(std::string name, StringMap properties) {
  spec_.catalog_name = std::move(name);
  spec_.catalog_properties = std::move(properties);
  catalog_set_ = true;
  return *this;
}
WriteRows& WriteRows::To(catalog::TableIdentifier table) {
  table_ = std::move(table);
  return *this;
}
WriteRows& WriteRows::To(std::string table_template) {
  template_ = std::move(table_template);
  return *this;
}
WriteRows& WriteRows::To(DynamicDestinations destinations) {
  custom_ = std::move(destinations);
  return *this;
}
WriteRows& WriteRows::WithTriggeringFrequency(std::chrono::milliseconds frequency) {
  frequency_ = frequency;
  return *this;
}
WriteRows& WriteRows::WithDirectWriteByteLimit(int64_t bytes) {
  direct_write_byte_limit_ = bytes;
  return *this;
}
WriteRows& WriteRows::WithDistributionMode(DistributionMode mode) {
  distribution_ = mode;
  return *this;
}
WriteRows& WriteRows::WithAutosharding() {
  autosharding_ = true;
  return *this;
}
WriteRows& WriteRows::Keep(std::vector<std::string> fields) {
  spec_.filter.keep = std::move(fields);
  return *this;
}
WriteRows& WriteRows::Drop(std::vector<std::string> fields) {
  spec_.filter.drop = std::move(fields);
  return *this;
}
WriteRows& WriteRows::Only(std::string record_field) {
  spec_.filter.only = std::move(record_field);
  return *this;
}
WriteRows& WriteRows::PartitionFields(std::vector<std::string> fields) {
  defaults_.partition_fields = std::move(fields);
  defaults_set_ = true;
  return *this;
}
WriteRows& WriteRows::SortFields(std::vector<std::string> fields) {
  defaults_.sort_fields = std::move(fields);
  defaults_set_ = true;
  return *this;
}
WriteRows& WriteRows::TableProperties(std::map<std::string, std::string> properties) {
  defaults_.table_properties = std::move(properties);
  defaults_set_ = true;
  return *this;
}
WriteRows& WriteRows::ToBranch(std::string branch) {
  defaults_.branch = std::move(branch);
  defaults_set_ = true;
  return *this;
}
WriteRows& WriteRows::Upsert(std::vector<std::string> equality_fields) {
  defaults_.equality_fields = std::move(equality_fields);
  defaults_.upsert = true;
  defaults_set_ = true;
  return *this;
}
WriteRows& WriteRows::Set(std::string key, std::string value) {
  spec_.options[std::move(key)] = std::move(value);
  return *this;
}
WriteRows& WriteRows::WriteParallelism(int parallelism) {
  write_parallelism_ = parallelism;
  return *this;
}
WriteRows& WriteRows::SinkId(std::string sink_id) {
  spec_.sink_id = std::move(sink_id);
  return *this;
}
WriteRows& WriteRows::MetadataRefreshInterval(std::chrono::milliseconds interval) {
  spec_.tables.refresh_interval_ms = interval.count();
  return *this;
}
WriteRows& WriteRows::DropUnusedColumns(bool drop) {
  spec_.tables.drop_unused_columns = drop;
  return *this;
}
WriteRows& WriteRows::Clock(std::function<int64_t()> clock) {
  spec_.clock = clock;
  spec_.tables.clock = std::move(clock);
  return *this;
}

bool WriteRows::InputBounded() const {
  const JobGraph& graph = input_.environment().graph();
  std::vector<int> todo{input_.node_id()};
  while (!todo.empty()) {
    const JobNode& node = graph.node(todo.back());
    todo.pop_back();
    if (node.source && !node.source->bounded()) return false;
    for (int edge : node.inputs) todo.push_back(graph.edge(edge).from);
  }
  return true;
}

Result<DataStream> WriteRows::Apply() {
  if (!catalog_set_) return InvalidArgument("write rows: no Catalog set");
  const int destinations = (table_ ? 1 : 0) + (template_ ? 1 : 0) + (custom_ ? 1 : 0);
  if (destinations != 1) {
    return InvalidArgument("write rows: set exactly one destination with To (got {})",
                           destinations);
  }
  if (custom_ && defaults_set_) {
    return InvalidArgument(
        "write rows: partition, sort, property, branch and upsert options are part of each "
        "Destination when DynamicDestinations are given");
  }
  if (distribution_ == DistributionMode::kRange) {
    return InvalidArgument(
        "write rows: RANGE distribution is not supported (NONE or HASH), as in Beam's WriteRows");
  }
  if (autosharding_ && distribution_ != DistributionMode::kHash) {
    return InvalidArgument("write rows: autosharding needs HASH distribution");
  }
  if (direct_write_byte_limit_ < 0) {
    return InvalidArgument("write rows: the direct write byte limit must not be negative, not {}",
                           direct_write_byte_limit_);
  }
  FLOE_RETURN_IF_ERROR(spec_.filter.Validate());
  const bool bounded = InputBounded();
  const ExecutionConfig& config = input_.environment().config();
  if (frequency_) {
    if (bounded) {
      return InvalidArgument(
          "write rows: a triggering frequency applies to unbounded input only, and this input is "
          "bounded");
    }
    if (frequency_->count() <= 0) {
      return InvalidArgument("write rows: the triggering frequency must be positive");
    }
    spec_.triggering_frequency_ms = frequency_->count();
  } else if (!bounded) {
    return InvalidArgument("write rows: unbounded input needs WithTriggeringFrequency");
  }
  if (!bounded && config.checkpoint_interval_ms <= 0) {
    return InvalidArgument(
        "write rows: unbounded input commits on checkpoints; enable them "
        "(checkpoint_interval_ms)");
  }
  if (table_) {
    spec_.destinations = DynamicDestinations::Fixed(*table_, defaults_);
  } else if (template_) {
    FLOE_ASSIGN_OR_RETURN(spec_.destinations, DynamicDestinations::Template(*template_, defaults_));
    for (const std::string& path : spec_.destinations.key_fields()) {
      const std::string top = path.substr(0, path.find('.'));
      if (input_.schema() && input_.schema()->FindFieldIndex(top) < 0) {
        return InvalidArgument(
            "write rows: table template '{}' names '{}', which the input ({}) "
            "does not have",
            *template_, path, input_.schema()->ToString());
      }
    }
  } else {
    spec_.destinations = *custom_;
  }

  const int parallelism = write_parallelism_ > 0 ? write_parallelism_ : input_.parallelism();
  const std::string prefix =
      "WriteRows " + (spec_.sink_id.empty() ? (template_ ? *template_
                                               : table_  ? table_->ToString()
                                                         : std::string("dynamic"))
                                            : spec_.sink_id);
  DataStream routed = input_;
  // Upsert destinations need the rows of one key on one writer; custom destinations may be.
  const bool keyed = parallelism > 1 && (defaults_.upsert || custom_.has_value());
  if (distribution_ == DistributionMode::kHash || keyed) {
    const DynamicSelectorOptions options{.direct_write_byte_limit = direct_write_byte_limit_,
                                         .autosharding = autosharding_,
                                         .by_partition = distribution_ == DistributionMode::kHash};
    const WriteRowsSpec spec = spec_;
    routed = input_.PartitionCustom(
        [spec, options](int subtask) -> Result<std::unique_ptr<ChannelSelector>> {
          return std::make_unique<DynamicChannelSelector>(spec, options, subtask);
        });
  } else if (parallelism == input_.parallelism()) {
    routed = input_.Forward();
  } else {
    routed = input_.Rebalance();
  }
  const WriteRowsSpec spec = spec_;
  DataStream files = routed.Transform(
      prefix + " writer", input_.schema(),
      [spec](int) -> Result<std::unique_ptr<Operator>> {
        return std::make_unique<DynamicWriter>(spec);
      },
      parallelism);
  return files.Rebalance().Transform(
      prefix + " committer", CommittedSnapshotSchema(),
      [spec](int) -> Result<std::unique_ptr<Operator>> {
        return std::make_unique<DynamicCommitter>(spec);
      },
      1);
}

}  // namespace floe::stream
