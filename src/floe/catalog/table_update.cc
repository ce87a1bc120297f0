#include "floe/catalog/table_update.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "floe/catalog/new_table.h"
#include "floe/io/s3/s3_options.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"
#include "floe/util/uuid.h"

namespace floe::catalog {
namespace {

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

std::unexpected<Error> RequirementFailed(std::string message) {
  Error error(ErrorKind::kCommitFailed, "requirement failed: " + std::move(message));
  error.SetRetryable();
  return std::unexpected(std::move(error));
}

std::string OptionalId(std::optional<int64_t> id) {
  return id ? std::to_string(*id) : std::string("none");
}

Status CheckOne(const TableMetadata& base, const TableRequirement& requirement) {
  return std::visit(
      Overloaded{
          [&](const AssertCreate&) -> Status {
            return AlreadyExists("requirement failed: the table already exists");
          },
          [&](const AssertTableUuid& r) -> Status {
            if (base.table_uuid() == r.uuid) return Ok();
            return RequirementFailed(
                fmt::format("table uuid is {}, expected {}", base.table_uuid(), r.uuid));
          },
          [&](const AssertRefSnapshotId& r) -> Status {
            const SnapshotRef* ref = base.FindRef(r.ref);
            std::optional<int64_t> actual;
            if (ref) actual = ref->snapshot_id;
            if (actual == r.snapshot_id) return Ok();
            return RequirementFailed(
                fmt::format("branch or tag '{}' is at snapshot {}, expected {}", r.ref,
                            OptionalId(actual), OptionalId(r.snapshot_id)));
          },
          [&](const AssertLastAssignedFieldId& r) -> Status {
            if (base.last_column_id() == r.last_assigned_field_id) return Ok();
            return RequirementFailed(fmt::format("last assigned field id is {}, expected {}",
                                                 base.last_column_id(), r.last_assigned_field_id));
          },
          [&](const AssertCurrentSchemaId& r) -> Status {
            if (base.current_schema_id() == r.current_schema_id) return Ok();
            return RequirementFailed(fmt::format("current schema id is {}, expected {}",
                                                 base.current_schema_id(), r.current_schema_id));
          },
          [&](const AssertLastAssignedPartitionId& r) -> Status {
            if (base.last_partition_id() == r.last_assigned_partition_id) return Ok();
            return RequirementFailed(fmt::format("last assigned partition id is {}, expected {}",
                                                 base.last_partition_id(),
                                                 r.last_assigned_partition_id));
          },
          [&](const AssertDefaultSpecId& r) -> Status {
            if (base.default_spec_id() == r.default_spec_id) return Ok();
            return RequirementFailed(fmt::format("default partition spec id is {}, expected {}",
                                                 base.default_spec_id(), r.default_spec_id));
          },
          [&](const AssertDefaultSortOrderId& r) -> Status {
            if (base.default_sort_order_id() == r.default_sort_order_id) return Ok();
            return RequirementFailed(fmt::format("default sort order id is {}, expected {}",
                                                 base.default_sort_order_id(),
                                                 r.default_sort_order_id));
          },
      },
      requirement);
}

// Applies updates one at a time, keeping a built TableMetadata after each so that later updates
// see the effect of earlier ones (a spec added after its schema, a ref to a snapshot added in the
// same commit).
class Applier {
 public:
  Applier(TableMetadataPtr base, int64_t now_ms) : current_(std::move(base)), now_ms_(now_ms) {}

  Status Apply(const TableUpdate& update) {
    TableMetadataBuilder builder(*current_);
    Status status = std::visit([&](const auto& u) { return Apply(u, builder); }, update);
    if (!status) return status;
    auto next = builder.Build(TableMetadataBuilder::Mode::kExisting);
    if (!next) {
      return InvalidArgument("update {} is invalid: {}", UpdateName(update),
                             next.error().message());
    }
    current_ = std::move(next).value();
    return Ok();
  }

  Result<TableMetadataPtr> Finish(const TableMetadata& base) {
    TableMetadataBuilder builder(*current_);
    builder.SetLastUpdatedMs(now_ms_);
    builder.SetSnapshotLog(SnapshotLog(base));
    return builder.Build(TableMetadataBuilder::Mode::kExisting);
  }

 private:
  Status Apply(const AssignUuid& u, TableMetadataBuilder& b) {
    if (!current_->table_uuid().empty() && current_->table_uuid() != u.uuid) {
      return InvalidArgument("cannot reassign the table uuid {} to {}", current_->table_uuid(),
                             u.uuid);
    }
    b.SetTableUuid(u.uuid);
    return Ok();
  }

  Status Apply(const UpgradeFormatVersion& u, TableMetadataBuilder& b) {
    if (u.format_version < current_->format_version()) {
      return InvalidArgument("cannot downgrade format-version from {} to {}",
                             current_->format_version(), u.format_version);
    }
    if (u.format_version > TableMetadata::kMaxFormatVersion) {
      return Unsupported("format-version {} is not supported (at most {})", u.format_version,
                         TableMetadata::kMaxFormatVersion);
    }
    b.SetFormatVersion(u.format_version);
    return Ok();
  }

  Status Apply(const AddSchema& u, TableMetadataBuilder& b) {
    if (!u.schema) return InvalidArgument("add-schema without a schema");
    int32_t last_column_id = std::max(
        {current_->last_column_id(), u.schema->highest_field_id(), u.last_column_id.value_or(0)});
    b.SetLastColumnId(last_column_id);
    int32_t id = Schema::kInitialSchemaId;
    for (const SchemaPtr& existing : current_->schemas()) {
      if (existing->SameSchema(*u.schema)) {
        last_added_schema_ = existing->schema_id();
        return Ok();
      }
      id = std::max(id, existing->schema_id() + 1);
    }
    std::vector<NestedField> fields(u.schema->fields().begin(), u.schema->fields().end());
    SchemaPtr schema =
        std::make_shared<Schema>(std::move(fields), id, u.schema->identifier_field_ids());
    if (!u.schema->aliases().empty()) schema = schema->WithAliases(u.schema->aliases());
    b.AddSchema(std::move(schema));
    last_added_schema_ = id;
    return Ok();
  }

  Status Apply(const SetCurrentSchema& u, TableMetadataBuilder& b) {
    FLOE_ASSIGN_OR_RETURN(int32_t id, Resolve(u.schema_id, last_added_schema_, "schema"));
    if (!current_->SchemaById(id)) return InvalidArgument("no schema with id {}", id);
    b.SetCurrentSchemaId(id);
    return Ok();
  }

  Status Apply(const AddPartitionSpec& u, TableMetadataBuilder& b) {
    if (!u.spec) return InvalidArgument("add-spec without a spec");
    FLOE_RETURN_IF_ERROR(u.spec->ValidateExisting(*current_->current_schema()));
    int32_t id = PartitionSpec::kInitialSpecId;
    for (const PartitionSpecPtr& existing : current_->partition_specs()) {
      if (existing->CompatibleWith(*u.spec) &&
          std::ranges::equal(existing->fields(), u.spec->fields())) {
        last_added_spec_ = existing->spec_id();
        return Ok();
      }
      id = std::max(id, existing->spec_id() + 1);
    }
    b.AddPartitionSpec(std::make_shared<PartitionSpec>(
        id, std::vector<PartitionField>(u.spec->fields().begin(), u.spec->fields().end())));
    b.SetLastPartitionId(std::max(current_->last_partition_id(), u.spec->last_assigned_field_id()));
    last_added_spec_ = id;
    return Ok();
  }

  Status Apply(const SetDefaultSpec& u, TableMetadataBuilder& b) {
    FLOE_ASSIGN_OR_RETURN(int32_t id, Resolve(u.spec_id, last_added_spec_, "partition spec"));
    if (!current_->SpecById(id)) return InvalidArgument("no partition spec with id {}", id);
    b.SetDefaultSpecId(id);
    return Ok();
  }

  Status Apply(const AddSortOrder& u, TableMetadataBuilder& b) {
    if (!u.sort_order) return InvalidArgument("add-sort-order without an order");
    FLOE_RETURN_IF_ERROR(u.sort_order->ValidateExisting(*current_->current_schema()));
    int32_t id =
        u.sort_order->is_unsorted() ? SortOrder::kUnsortedOrderId : SortOrder::kInitialOrderId;
    for (const SortOrderPtr& existing : current_->sort_orders()) {
      if (existing->SameOrder(*u.sort_order)) {
        last_added_order_ = existing->order_id();
        return Ok();
      }
      if (!u.sort_order->is_unsorted()) id = std::max(id, existing->order_id() + 1);
    }
    b.AddSortOrder(std::make_shared<SortOrder>(
        id, std::vector<SortField>(u.sort_order->fields().begin(), u.sort_order->fields().end())));
    last_added_order_ = id;
    return Ok();
  }

  Status Apply(const SetDefaultSortOrder& u, TableMetadataBuilder& b) {
    FLOE_ASSIGN_OR_RETURN(int32_t id, Resolve(u.sort_order_id, last_added_order_, "sort order"));
    if (!current_->SortOrderById(id)) return InvalidArgument("no sort order with id {}", id);
    b.SetDefaultSortOrderId(id);
    return Ok();
  }

  Status Apply(const AddSnapshot& u, TableMetadataBuilder& b) {
    const SnapshotPtr& snapshot = u.snapshot;
    if (!snapshot) return InvalidArgument("add-snapshot without a snapshot");
    if (current_->SnapshotById(snapshot->snapshot_id)) {
      return InvalidArgument("snapshot {} already exists", snapshot->snapshot_id);
    }
    if (current_->format_version() >= 2) {
      if (snapshot->sequence_number <= current_->last_sequence_number() &&
          snapshot->parent_snapshot_id) {
        // The table moved on since the snapshot was produced: a retry must write a new one.
        Error error(ErrorKind::kCommitFailed,
                    fmt::format("snapshot {} has sequence number {}, not above the table's last "
                                "sequence number {}",
                                snapshot->snapshot_id, snapshot->sequence_number,
                                current_->last_sequence_number()));
        error.SetRetryable();
        return std::unexpected(std::move(error));
      }
      b.SetLastSequenceNumber(
          std::max(current_->last_sequence_number(), snapshot->sequence_number));
    }
    if (current_->format_version() >= 3 && snapshot->first_row_id) {
      if (*snapshot->first_row_id < current_->next_row_id()) {
        Error error(
            ErrorKind::kCommitFailed,
            fmt::format("snapshot {} has first-row-id {}, behind the table's next-row-id {}",
                        snapshot->snapshot_id, *snapshot->first_row_id, current_->next_row_id()));
        error.SetRetryable();
        return std::unexpected(std::move(error));
      }
      b.SetNextRowId(*snapshot->first_row_id + snapshot->added_rows.value_or(0));
    }
    b.AddSnapshot(snapshot);
    added_snapshots_.insert(snapshot->snapshot_id);
    return Ok();
  }

  Status Apply(const SetSnapshotRef& u, TableMetadataBuilder& b) {
    SnapshotPtr snapshot = current_->SnapshotById(u.ref.snapshot_id);
    if (!snapshot) {
      return InvalidArgument("ref '{}' points at snapshot {}, which does not exist", u.ref_name,
                             u.ref.snapshot_id);
    }
    if (u.ref_name.empty()) return InvalidArgument("empty ref name");
    if (u.ref_name == SnapshotRef::kMainBranch) {
      if (!u.ref.is_branch()) return InvalidArgument("'main' must be a branch");
      if (current_->current_snapshot_id() != u.ref.snapshot_id) {
        // A snapshot made current in this commit logs its own time; an older one, the commit's.
        int64_t at =
            added_snapshots_.contains(snapshot->snapshot_id) ? snapshot->timestamp_ms : now_ms_;
        log_additions_.push_back(
            SnapshotLogEntry{.timestamp_ms = at, .snapshot_id = snapshot->snapshot_id});
      }
      b.SetCurrentSnapshotId(u.ref.snapshot_id);
    }
    b.SetRef(u.ref_name, u.ref);
    return Ok();
  }

  Status Apply(const RemoveSnapshots& u, TableMetadataBuilder& b) {
    b.RemoveSnapshots(u.snapshot_ids);
    return Ok();
  }

  Status Apply(const RemoveSnapshotRef& u, TableMetadataBuilder& b) {
    if (u.ref_name == SnapshotRef::kMainBranch) b.SetCurrentSnapshotId(std::nullopt);
    b.RemoveRef(u.ref_name);
    return Ok();
  }

  Status Apply(const SetLocation& u, TableMetadataBuilder& b) {
    if (u.location.empty()) return InvalidArgument("set-location with an empty location");
    b.SetLocation(u.location);
    return Ok();
  }

  Status Apply(const SetProperties& u, TableMetadataBuilder& b) {
    FLOE_RETURN_IF_ERROR(io::RefuseStoredSecrets(u.updates));
    for (const auto& [key, value] : u.updates) b.SetProperty(key, value);
    return Ok();
  }

  Status Apply(const RemoveProperties& u, TableMetadataBuilder& b) {
    for (const std::string& key : u.removals) b.RemoveProperty(key);
    return Ok();
  }

  Status Apply(const SetStatistics& u, TableMetadataBuilder& b) {
    b.RemoveStatisticsFile(u.statistics.snapshot_id);
    b.AddStatisticsFile(u.statistics);
    return Ok();
  }

  Status Apply(const RemoveStatistics& u, TableMetadataBuilder& b) {
    b.RemoveStatisticsFile(u.snapshot_id);
    return Ok();
  }

  Status Apply(const SetPartitionStatistics& u, TableMetadataBuilder& b) {
    b.RemovePartitionStatisticsFile(u.statistics.snapshot_id);
    b.AddPartitionStatisticsFile(u.statistics);
    return Ok();
  }

  Status Apply(const RemovePartitionStatistics& u, TableMetadataBuilder& b) {
    b.RemovePartitionStatisticsFile(u.snapshot_id);
    return Ok();
  }

  Status Apply(const RemovePartitionSpecs& u, TableMetadataBuilder& b) {
    for (int32_t id : u.spec_ids) {
      if (id == current_->default_spec_id()) {
        return InvalidArgument("cannot remove the default partition spec {}", id);
      }
    }
    b.RemovePartitionSpecs(u.spec_ids);
    return Ok();
  }

  Status Apply(const RemoveSchemas& u, TableMetadataBuilder& b) {
    for (int32_t id : u.schema_ids) {
      if (id == current_->current_schema_id()) {
        return InvalidArgument("cannot remove the current schema {}", id);
      }
    }
    b.RemoveSchemas(u.schema_ids);
    return Ok();
  }

  Result<int32_t> Resolve(int32_t id, std::optional<int32_t> last_added, std::string_view what) {
    if (id != kLastAdded) return id;
    if (!last_added) return InvalidArgument("no {} was added in this commit to make default", what);
    return *last_added;
  }

  // The base's log with this commit's entries, without entries for snapshots that were current
  // only in the middle of this commit, and without the history before any snapshot that no
  // longer exists: a gap would make time travel pick the wrong snapshot.
  std::vector<SnapshotLogEntry> SnapshotLog(const TableMetadata& base) const {
    std::vector<SnapshotLogEntry> candidates = base.snapshot_log();
    for (size_t i = 0; i < log_additions_.size(); ++i) {
      bool intermediate =
          i + 1 < log_additions_.size() && added_snapshots_.contains(log_additions_[i].snapshot_id);
      if (!intermediate) candidates.push_back(log_additions_[i]);
    }
    std::vector<SnapshotLogEntry> log;
    for (const SnapshotLogEntry& entry : candidates) {
      if (current_->SnapshotById(entry.snapshot_id)) {
        log.push_back(entry);
      } else {
        log.clear();
      }
    }
    return log;
  }

  TableMetadataPtr current_;
  int64_t now_ms_;
  std::optional<int32_t> last_added_schema_;
  std::optional<int32_t> last_added_spec_;
  std::optional<int32_t> last_added_order_;
  std::set<int64_t> added_snapshots_;
  std::vector<SnapshotLogEntry> log_additions_;
};

}  // namespace

Status CheckRequirements(const TableMetadata* base, std::span<const TableRequirement> reqs) {
  for (const TableRequirement& requirement : reqs) {
    if (!base) {
      if (std::holds_alternative<AssertCreate>(requirement)) continue;
      return RequirementFailed(
          fmt::format("{}: the table does not exist", RequirementName(requirement)));
    }
    FLOE_RETURN_IF_ERROR(CheckOne(*base, requirement));
  }
  return Ok();
}

Result<TableMetadataPtr> ApplyUpdates(const TableMetadata& base,
                                      std::span<const TableUpdate> updates, int64_t now_ms) {
  Applier applier(std::make_shared<const TableMetadata>(base), now_ms);
  for (const TableUpdate& update : updates) FLOE_RETURN_IF_ERROR(applier.Apply(update));
  return applier.Finish(base);
}

bool IsCreateCommit(const TableCommit& commit) {
  return std::ranges::any_of(commit.requirements, [](const TableRequirement& requirement) {
    return std::holds_alternative<AssertCreate>(requirement);
  });
}

Result<TableMetadataPtr> ApplyCreate(std::span<const TableUpdate> updates,
                                     const std::string& default_location, int64_t now_ms) {
  // The seed is the table as the first definition updates describe it; applying all updates to
  // it then finds those already there (same schema, spec, order) and adds the rest.
  int format_version = kDefaultFormatVersion;
  std::string uuid;
  std::string location = default_location;
  const AddSchema* schema = nullptr;
  const AddPartitionSpec* spec = nullptr;
  const AddSortOrder* order = nullptr;
  for (const TableUpdate& update : updates) {
    if (auto* u = std::get_if<UpgradeFormatVersion>(&update)) format_version = u->format_version;
    if (auto* u = std::get_if<AssignUuid>(&update)) uuid = u->uuid;
    if (auto* u = std::get_if<SetLocation>(&update)) location = u->location;
    if (auto* u = std::get_if<AddSchema>(&update); u && !schema) schema = u;
    if (auto* u = std::get_if<AddPartitionSpec>(&update); u && !spec) spec = u;
    if (auto* u = std::get_if<AddSortOrder>(&update); u && !order) order = u;
  }
  if (schema == nullptr || !schema->schema) {
    return InvalidArgument("a create commit needs an add-schema update");
  }
  if (format_version < TableMetadata::kMinFormatVersion ||
      format_version > TableMetadata::kMaxFormatVersion) {
    return Unsupported("format-version {} is not supported ({} to {})", format_version,
                       TableMetadata::kMinFormatVersion, TableMetadata::kMaxFormatVersion);
  }
  if (location.empty()) return InvalidArgument("a create commit needs a location");
  while (location.size() > 1 && location.back() == '/') location.pop_back();

  std::vector<NestedField> fields(schema->schema->fields().begin(), schema->schema->fields().end());
  auto initial_schema = std::make_shared<Schema>(std::move(fields), Schema::kInitialSchemaId,
                                                 schema->schema->identifier_field_ids());
  PartitionSpecPtr initial_spec = PartitionSpec::Unpartitioned();
  if (spec && spec->spec) {
    initial_spec = std::make_shared<PartitionSpec>(
        PartitionSpec::kInitialSpecId,
        std::vector<PartitionField>(spec->spec->fields().begin(), spec->spec->fields().end()));
  }
  SortOrderPtr initial_order = SortOrder::Unsorted();
  if (order && order->sort_order && !order->sort_order->is_unsorted()) {
    initial_order = std::make_shared<SortOrder>(
        SortOrder::kInitialOrderId, std::vector<SortField>(order->sort_order->fields().begin(),
                                                           order->sort_order->fields().end()));
  }
  TableMetadataBuilder builder(format_version);
  builder.SetTableUuid(uuid.empty() ? RandomUuid() : uuid)
      .SetLocation(std::move(location))
      .SetLastUpdatedMs(now_ms)
      .SetLastColumnId(
          std::max(initial_schema->highest_field_id(), schema->last_column_id.value_or(0)))
      .AddSchema(initial_schema)
      .SetCurrentSchemaId(initial_schema->schema_id())
      .AddPartitionSpec(initial_spec)
      .SetDefaultSpecId(initial_spec->spec_id())
      .SetLastPartitionId(
          std::max(TableMetadata::kInitialLastPartitionId, initial_spec->last_assigned_field_id()))
      .AddSortOrder(initial_order)
      .SetDefaultSortOrderId(initial_order->order_id());
  auto seed = builder.Build();
  if (!seed) return InvalidArgument("create commit: {}", seed.error().message());
  return ApplyUpdates(**seed, updates, now_ms);
}

std::vector<TableUpdate> UpdatesToCreate(const TableMetadata& metadata) {
  std::vector<TableUpdate> updates;
  if (!metadata.table_uuid().empty()) updates.push_back(AssignUuid{metadata.table_uuid()});
  updates.push_back(UpgradeFormatVersion{metadata.format_version()});
  for (const SchemaPtr& schema : metadata.schemas()) {
    updates.push_back(AddSchema{schema, metadata.last_column_id()});
  }
  updates.push_back(SetCurrentSchema{metadata.current_schema_id()});
  for (const PartitionSpecPtr& spec : metadata.partition_specs()) {
    updates.push_back(AddPartitionSpec{spec});
  }
  updates.push_back(SetDefaultSpec{metadata.default_spec_id()});
  for (const SortOrderPtr& order : metadata.sort_orders()) {
    updates.push_back(AddSortOrder{order});
  }
  updates.push_back(SetDefaultSortOrder{metadata.default_sort_order_id()});
  updates.push_back(SetLocation{metadata.location()});
  if (!metadata.properties().empty()) updates.push_back(SetProperties{metadata.properties()});
  for (const SnapshotPtr& snapshot : metadata.snapshots()) {
    updates.push_back(AddSnapshot{snapshot});
  }
  for (const auto& [name, ref] : metadata.refs()) updates.push_back(SetSnapshotRef{name, ref});
  return updates;
}

std::string_view UpdateName(const TableUpdate& update) {
  static constexpr std::string_view kNames[] = {"assign-uuid",
                                                "upgrade-format-version",
                                                "add-schema",
                                                "set-current-schema",
                                                "add-spec",
                                                "set-default-spec",
                                                "add-sort-order",
                                                "set-default-sort-order",
                                                "add-snapshot",
                                                "set-snapshot-ref",
                                                "remove-snapshots",
                                                "remove-snapshot-ref",
                                                "set-location",
                                                "set-properties",
                                                "remove-properties",
                                                "set-statistics",
                                                "remove-statistics",
                                                "set-partition-statistics",
                                                "remove-partition-statistics",
                                                "remove-partition-specs",
                                                "remove-schemas"};
  static_assert(std::size(kNames) == std::variant_size_v<TableUpdate>);
  return kNames[update.index()];
}

std::string_view RequirementName(const TableRequirement& requirement) {
  static constexpr std::string_view kNames[] = {"assert-create",
                                                "assert-table-uuid",
                                                "assert-ref-snapshot-id",
                                                "assert-last-assigned-field-id",
                                                "assert-current-schema-id",
                                                "assert-last-assigned-partition-id",
                                                "assert-default-spec-id",
                                                "assert-default-sort-order-id"};
  static_assert(std::size(kNames) == std::variant_size_v<TableRequirement>);
  return kNames[requirement.index()];
}

}  // namespace floe::catalog
