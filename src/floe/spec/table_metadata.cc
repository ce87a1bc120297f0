#include "floe/spec/table_metadata.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"

namespace floe {
namespace {

template <typename T, typename IdOf>
std::shared_ptr<const T> FindById(const std::vector<std::shared_ptr<const T>>& items, int64_t id,
                                  IdOf id_of) {
  for (const auto& item : items) {
    if (id_of(*item) == id) return item;
  }
  return nullptr;
}

int32_t IdOf(const Schema& s) { return s.schema_id(); }
int32_t IdOf(const PartitionSpec& s) { return s.spec_id(); }
int32_t IdOf(const SortOrder& o) { return o.order_id(); }

bool IsUuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

// Checks that each item's id is unique and that `wanted` is one of them; returns it.
template <typename T>
Result<std::shared_ptr<const T>> CheckIds(const std::vector<std::shared_ptr<const T>>& items,
                                          std::string_view list_field, std::string_view id_field,
                                          int32_t wanted) {
  if (items.empty()) return CorruptData("'{}' must not be empty", list_field);
  std::set<int32_t> seen;
  std::shared_ptr<const T> found;
  for (const auto& item : items) {
    if (!item) return InternalError("'{}' holds a null entry", list_field);
    int32_t id = IdOf(*item);
    if (!seen.insert(id).second)
      return CorruptData("'{}' has two entries with id {}", list_field, id);
    if (id == wanted) found = item;
  }
  if (!found) {
    return CorruptData("'{}' is {}, which is not among '{}'", id_field, wanted, list_field);
  }
  return found;
}

}  // namespace

SchemaPtr TableMetadata::SchemaById(int32_t schema_id) const {
  return FindById(schemas_, schema_id, [](const Schema& s) { return IdOf(s); });
}

PartitionSpecPtr TableMetadata::SpecById(int32_t spec_id) const {
  return FindById(specs_, spec_id, [](const PartitionSpec& s) { return IdOf(s); });
}

SortOrderPtr TableMetadata::SortOrderById(int32_t order_id) const {
  return FindById(sort_orders_, order_id, [](const SortOrder& o) { return IdOf(o); });
}

int32_t TableMetadata::highest_assigned_column_id() const {
  int32_t highest = last_column_id_;
  for (const auto& schema : schemas_) highest = std::max(highest, schema->highest_field_id());
  return highest;
}

std::string_view TableMetadata::property(std::string_view key, std::string_view fallback) const {
  auto it = properties_.find(key);
  return it == properties_.end() ? fallback : std::string_view(it->second);
}

SnapshotPtr TableMetadata::SnapshotById(int64_t snapshot_id) const {
  return FindById(snapshots_, snapshot_id, [](const Snapshot& s) { return s.snapshot_id; });
}

SnapshotPtr TableMetadata::current_snapshot() const {
  return current_snapshot_id_ ? SnapshotById(*current_snapshot_id_) : nullptr;
}

const SnapshotRef* TableMetadata::FindRef(std::string_view name) const {
  auto it = refs_.find(name);
  return it == refs_.end() ? nullptr : &it->second;
}

TableMetadataBuilder::TableMetadataBuilder(int format_version) : metadata_(new TableMetadata()) {
  metadata_->format_version_ = format_version;
}

TableMetadataBuilder::TableMetadataBuilder(const TableMetadata& base)
    : metadata_(new TableMetadata(base)) {}

TableMetadataBuilder& TableMetadataBuilder::SetFormatVersion(int format_version) {
  metadata_->format_version_ = format_version;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetTableUuid(std::string uuid) {
  metadata_->table_uuid_ = std::move(uuid);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetLocation(std::string location) {
  metadata_->location_ = std::move(location);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetLastSequenceNumber(int64_t n) {
  metadata_->last_sequence_number_ = n;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetLastUpdatedMs(int64_t ms) {
  metadata_->last_updated_ms_ = ms;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetLastColumnId(int32_t id) {
  metadata_->last_column_id_ = id;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddSchema(SchemaPtr schema) {
  metadata_->schemas_.push_back(std::move(schema));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetCurrentSchemaId(int32_t schema_id) {
  metadata_->current_schema_id_ = schema_id;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddPartitionSpec(PartitionSpecPtr spec) {
  metadata_->specs_.push_back(std::move(spec));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetDefaultSpecId(int32_t spec_id) {
  metadata_->default_spec_id_ = spec_id;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetLastPartitionId(int32_t id) {
  metadata_->last_partition_id_ = id;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddSortOrder(SortOrderPtr order) {
  metadata_->sort_orders_.push_back(std::move(order));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetDefaultSortOrderId(int32_t order_id) {
  metadata_->default_sort_order_id_ = order_id;
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetProperties(StringMap properties) {
  metadata_->properties_ = std::move(properties);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetProperty(std::string key, std::string value) {
  metadata_->properties_.insert_or_assign(std::move(key), std::move(value));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetCurrentSnapshotId(
    std::optional<int64_t> snapshot_id) {
  metadata_->current_snapshot_id_ = snapshot_id;
  auto main = metadata_->refs_.find(SnapshotRef::kMainBranch);
  if (main != metadata_->refs_.end()) {
    if (snapshot_id) {
      main->second.snapshot_id = *snapshot_id;
    } else {
      metadata_->refs_.erase(main);
    }
  }
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddSnapshot(SnapshotPtr snapshot) {
  metadata_->snapshots_.push_back(std::move(snapshot));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetRef(std::string name, SnapshotRef ref) {
  metadata_->refs_.insert_or_assign(std::move(name), ref);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::RemoveRef(std::string_view name) {
  auto it = metadata_->refs_.find(name);
  if (it != metadata_->refs_.end()) metadata_->refs_.erase(it);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddSnapshotLogEntry(SnapshotLogEntry entry) {
  metadata_->snapshot_log_.push_back(entry);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddMetadataLogEntry(MetadataLogEntry entry) {
  metadata_->metadata_log_.push_back(std::move(entry));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetMetadataLog(std::vector<MetadataLogEntry> log) {
  metadata_->metadata_log_ = std::move(log);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddStatisticsFile(StatisticsFile file) {
  metadata_->statistics_.push_back(std::move(file));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddPartitionStatisticsFile(
    PartitionStatisticsFile file) {
  metadata_->partition_statistics_.push_back(std::move(file));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::AddEncryptionKey(EncryptedKey key) {
  metadata_->encryption_keys_.push_back(std::move(key));
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetNextRowId(int64_t next_row_id) {
  metadata_->next_row_id_ = next_row_id;
  return *this;
}

namespace {

template <typename T, typename Pred>
void EraseIf(std::vector<T>& items, Pred pred) {
  items.erase(std::remove_if(items.begin(), items.end(), pred), items.end());
}

template <typename T>
bool Contains(const std::vector<T>& items, const T& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace

TableMetadataBuilder& TableMetadataBuilder::RemoveSnapshots(
    const std::vector<int64_t>& snapshot_ids) {
  TableMetadata& m = *metadata_;
  EraseIf(m.snapshots_,
          [&](const SnapshotPtr& s) { return Contains(snapshot_ids, s->snapshot_id); });
  EraseIf(m.statistics_,
          [&](const StatisticsFile& f) { return Contains(snapshot_ids, f.snapshot_id); });
  EraseIf(m.partition_statistics_,
          [&](const PartitionStatisticsFile& f) { return Contains(snapshot_ids, f.snapshot_id); });
  for (auto it = m.refs_.begin(); it != m.refs_.end();) {
    if (Contains(snapshot_ids, it->second.snapshot_id)) {
      if (it->first == SnapshotRef::kMainBranch) m.current_snapshot_id_.reset();
      it = m.refs_.erase(it);
    } else {
      ++it;
    }
  }
  if (m.current_snapshot_id_ && Contains(snapshot_ids, *m.current_snapshot_id_)) {
    m.current_snapshot_id_.reset();
  }
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::SetSnapshotLog(std::vector<SnapshotLogEntry> log) {
  metadata_->snapshot_log_ = std::move(log);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::RemoveProperty(std::string_view key) {
  auto it = metadata_->properties_.find(key);
  if (it != metadata_->properties_.end()) metadata_->properties_.erase(it);
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::RemoveStatisticsFile(int64_t snapshot_id) {
  EraseIf(metadata_->statistics_,
          [&](const StatisticsFile& f) { return f.snapshot_id == snapshot_id; });
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::RemovePartitionStatisticsFile(int64_t snapshot_id) {
  EraseIf(metadata_->partition_statistics_,
          [&](const PartitionStatisticsFile& f) { return f.snapshot_id == snapshot_id; });
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::RemovePartitionSpecs(
    const std::vector<int32_t>& spec_ids) {
  EraseIf(metadata_->specs_,
          [&](const PartitionSpecPtr& s) { return Contains(spec_ids, s->spec_id()); });
  return *this;
}
TableMetadataBuilder& TableMetadataBuilder::RemoveSchemas(const std::vector<int32_t>& schema_ids) {
  EraseIf(metadata_->schemas_,
          [&](const SchemaPtr& s) { return Contains(schema_ids, s->schema_id()); });
  return *this;
}

Result<TableMetadataPtr> TableMetadataBuilder::Build(Mode mode) {
  if (!metadata_) return InternalError("TableMetadataBuilder::Build called twice");
  FLOE_RETURN_IF_ERROR(Validate(mode));
  return TableMetadataPtr(std::move(metadata_));
}

Status TableMetadataBuilder::Validate(Mode mode) {
  TableMetadata& m = *metadata_;
  const int version = m.format_version_;
  if (version < TableMetadata::kMinFormatVersion || version > TableMetadata::kMaxFormatVersion) {
    return Unsupported("format-version {} is not supported (floe reads versions {} to {})", version,
                       TableMetadata::kMinFormatVersion, TableMetadata::kMaxFormatVersion);
  }
  if (m.table_uuid_.empty()) {
    if (version >= 2) return CorruptData("'table-uuid' is required in format version {}", version);
  } else if (!IsUuid(m.table_uuid_)) {
    return CorruptData("'table-uuid' is not a UUID: '{}'", m.table_uuid_);
  }
  if (m.location_.empty()) return CorruptData("'location' must not be empty");
  if (m.last_sequence_number_ < 0) {
    return CorruptData("'last-sequence-number' is negative: {}", m.last_sequence_number_);
  }

  FLOE_ASSIGN_OR_RETURN(m.current_schema_,
                        CheckIds(m.schemas_, "schemas", "current-schema-id", m.current_schema_id_));
  for (const auto& schema : m.schemas_) {
    if (mode == Mode::kStrict && schema->highest_field_id() > m.last_column_id_) {
      return CorruptData("'last-column-id' is {}, below field id {} of schema {}",
                         m.last_column_id_, schema->highest_field_id(), schema->schema_id());
    }
  }

  FLOE_ASSIGN_OR_RETURN(m.default_spec_, CheckIds(m.specs_, "partition-specs", "default-spec-id",
                                                  m.default_spec_id_));
  for (const auto& spec : m.specs_) {
    // Specs of any age are checked against the current schema: their sources may have been
    // dropped since, but those that remain must still fit their transforms.
    auto valid = spec->ValidateExisting(*m.current_schema_);
    if (!valid) {
      return std::unexpected(
          valid.error().AddContext(fmt::format("partition spec {}", spec->spec_id())));
    }
    for (const auto& field : spec->fields()) {
      if (field.field_id > m.last_partition_id_) {
        return CorruptData("'last-partition-id' is {}, below partition field id {} of spec {}",
                           m.last_partition_id_, field.field_id, spec->spec_id());
      }
    }
  }

  FLOE_ASSIGN_OR_RETURN(
      m.default_sort_order_,
      CheckIds(m.sort_orders_, "sort-orders", "default-sort-order-id", m.default_sort_order_id_));
  for (const auto& order : m.sort_orders_) {
    auto valid = order->ValidateExisting(*m.current_schema_);
    if (!valid) {
      return std::unexpected(
          valid.error().AddContext(fmt::format("sort order {}", order->order_id())));
    }
  }

  std::set<int64_t> snapshot_ids;
  for (const auto& snapshot : m.snapshots_) {
    if (!snapshot) return InternalError("'snapshots' holds a null entry");
    if (!snapshot_ids.insert(snapshot->snapshot_id).second) {
      return CorruptData("'snapshots' has two snapshots with id {}", snapshot->snapshot_id);
    }
    if (version >= 2 && snapshot->sequence_number > m.last_sequence_number_) {
      return CorruptData("snapshot {} has sequence-number {}, above 'last-sequence-number' {}",
                         snapshot->snapshot_id, snapshot->sequence_number, m.last_sequence_number_);
    }
    if (version >= 3 && snapshot->first_row_id) {
      int64_t first = *snapshot->first_row_id;
      int64_t added = snapshot->added_rows.value_or(0);
      if (first < 0 || added < 0) {
        return CorruptData("snapshot {} has a negative 'first-row-id' or 'added-rows'",
                           snapshot->snapshot_id);
      }
      if (first > m.next_row_id_ || added > m.next_row_id_ - first) {
        return CorruptData(
            "'next-row-id' is {}, below the rows assigned by snapshot {} (first-row-id {} + "
            "added-rows {})",
            m.next_row_id_, snapshot->snapshot_id, first, added);
      }
    }
    if (snapshot->key_id) {
      bool known =
          std::any_of(m.encryption_keys_.begin(), m.encryption_keys_.end(),
                      [&](const EncryptedKey& k) { return k.key_id == *snapshot->key_id; });
      if (!known) {
        return CorruptData("snapshot {} has key-id '{}', which is not among 'encryption-keys'",
                           snapshot->snapshot_id, *snapshot->key_id);
      }
    }
  }
  if (m.next_row_id_ < 0) return CorruptData("'next-row-id' is negative: {}", m.next_row_id_);

  if (m.current_snapshot_id_ && !snapshot_ids.contains(*m.current_snapshot_id_)) {
    return CorruptData("'current-snapshot-id' is {}, which is not among 'snapshots'",
                       *m.current_snapshot_id_);
  }
  auto main = m.refs_.find(SnapshotRef::kMainBranch);
  if (main == m.refs_.end()) {
    if (m.current_snapshot_id_) {
      m.refs_.emplace(std::string(SnapshotRef::kMainBranch),
                      SnapshotRef{.snapshot_id = *m.current_snapshot_id_});
    }
  } else {
    if (!main->second.is_branch()) return CorruptData("ref 'main' must be a branch, found a tag");
    if (main->second.snapshot_id != m.current_snapshot_id_) {
      return CorruptData(
          "ref 'main' points at snapshot {} but 'current-snapshot-id' is {}",
          main->second.snapshot_id,
          m.current_snapshot_id_ ? std::to_string(*m.current_snapshot_id_) : "unset");
    }
  }
  for (const auto& [name, ref] : m.refs_) {
    if (name.empty()) return CorruptData("'refs' has an empty ref name");
    if (!snapshot_ids.contains(ref.snapshot_id)) {
      return CorruptData("ref '{}' points at snapshot {}, which is not among 'snapshots'", name,
                         ref.snapshot_id);
    }
    if (!ref.is_branch() && (ref.min_snapshots_to_keep || ref.max_snapshot_age_ms)) {
      return CorruptData("tag '{}' sets a branch-only retention field", name);
    }
    if ((ref.min_snapshots_to_keep && *ref.min_snapshots_to_keep <= 0) ||
        (ref.max_snapshot_age_ms && *ref.max_snapshot_age_ms <= 0) ||
        (ref.max_ref_age_ms && *ref.max_ref_age_ms <= 0)) {
      return CorruptData("ref '{}' has a retention value that is not positive", name);
    }
  }

  std::set<int64_t> partition_stats_snapshots;
  for (const auto& file : m.partition_statistics_) {
    if (!partition_stats_snapshots.insert(file.snapshot_id).second) {
      return CorruptData("'partition-statistics' has two files for snapshot {}", file.snapshot_id);
    }
  }
  std::set<std::string_view> key_ids;
  for (const auto& key : m.encryption_keys_) {
    if (!key_ids.insert(key.key_id).second) {
      return CorruptData("'encryption-keys' has two keys with key-id '{}'", key.key_id);
    }
  }
  return Ok();
}

}  // namespace floe
