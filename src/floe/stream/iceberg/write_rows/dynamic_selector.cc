#include "floe/stream/iceberg/write_rows/dynamic_selector.h"

#include <cmath>

#include "floe/batch/hash.h"
#include "floe/batch/take.h"
#include "floe/manifest/data_file.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/write/partitioner.h"

namespace floe::stream {
namespace {

// FNV-1a, continued from `h`: the same in every process, unlike std::hash.
uint64_t Fnv1a(std::string_view bytes, uint64_t h = 1469598103934665603ULL) {
  for (char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

int64_t ArrayBytes(const Array& array) {
  int64_t bytes = array.validity().size() + array.values().size() + array.data().size();
  for (const Array& child : array.children()) bytes += ArrayBytes(child);
  return bytes;
}

constexpr int64_t kDecayAt = int64_t{1} << 20;
// Keys are not split before this many rows were seen: early shares say little.
constexpr int64_t kMinObserved = 1024;

}  // namespace

// The partition of rows of one destination, for one shape of rows.
struct DynamicChannelSelector::KeyPartitioner {
  std::string columns;  // the rows' schema it was made for
  BatchSchemaPtr batch_schema;
  std::unique_ptr<table::Partitioner> partitioner;  // null: the destination is unpartitioned
  std::vector<uint64_t> hash_of_partition;
  std::vector<int> equality_columns;  // of the rows; non-empty for an upsert destination
};

DynamicChannelSelector::DynamicChannelSelector(WriteRowsSpec spec, DynamicSelectorOptions options,
                                               int upstream_subtask)
    : spec_(std::move(spec)), options_(options), upstream_subtask_(upstream_subtask) {}
DynamicChannelSelector::~DynamicChannelSelector() = default;

int64_t DynamicChannelSelector::BatchBytes(const RecordBatch& batch) {
  int64_t bytes = 0;
  for (const Array& column : batch.columns()) bytes += ArrayBytes(column);
  return bytes;
}

Result<DynamicChannelSelector::KeyPartitioner*> DynamicChannelSelector::PartitionerFor(
    const std::string& key, const RecordBatch& rows) {
  auto& slot = partitioners_[key];
  const std::string columns = rows.schema()->ToString();
  if (slot && slot->columns == columns) return slot.get();
  slot = std::make_unique<KeyPartitioner>();
  slot->columns = columns;
  FLOE_ASSIGN_OR_RETURN(Destination destination, spec_.destinations.Describe(key));
  for (const std::string& name : destination.equality_fields) {
    const int index = rows.schema()->FindFieldIndex(name);
    if (index < 0) {
      return InvalidArgument("write rows to {}: equality field '{}' is not in the rows ({})", key,
                             name, rows.schema()->ToString());
    }
    slot->equality_columns.push_back(index);
  }
  if (!options_.by_partition || destination.partition_fields.empty()) return slot.get();
  // The destination's spec over the rows' own columns (ids as a new table would get them).
  std::vector<Field> fields = rows.schema()->fields();
  for (Field& field : fields) field.field_id.reset();
  FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, table::SchemaFromBatchFields(fields));
  FLOE_ASSIGN_OR_RETURN(PartitionSpecPtr spec,
                        ParsePartitionFields(destination.partition_fields, *schema));
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> with_ids, table::ToBatchFields(*schema));
  slot->batch_schema = std::make_shared<const BatchSchema>(std::move(with_ids));
  FLOE_ASSIGN_OR_RETURN(slot->partitioner,
                        table::Partitioner::Make(spec, *schema, *slot->batch_schema));
  return slot.get();
}

Status DynamicChannelSelector::SelectChannels(const RecordBatch& batch, int num_channels,
                                              std::vector<int32_t>& channels) {
  channels.resize(static_cast<size_t>(batch.num_rows()));
  const auto own = static_cast<int32_t>(upstream_subtask_ % num_channels);
  FLOE_RETURN_IF_ERROR(spec_.destinations.GroupsOf(batch, row_keys_));
  FLOE_ASSIGN_OR_RETURN(RecordBatch rows, spec_.filter.Apply(batch));
  std::vector<std::pair<std::string_view, std::vector<int64_t>>> rows_of_key(row_keys_.keys.size());
  for (size_t k = 0; k < row_keys_.keys.size(); ++k) rows_of_key[k].first = row_keys_.keys[k];
  for (size_t i = 0; i < row_keys_.key_of_row.size(); ++i) {
    rows_of_key[row_keys_.key_of_row[i]].second.push_back(static_cast<int64_t>(i));
  }
  bool any_keyed = false;
  for (const auto& [key, indices] : rows_of_key) {
    FLOE_ASSIGN_OR_RETURN(KeyPartitioner * partitioner, PartitionerFor(std::string(key), rows));
    any_keyed |= !partitioner->equality_columns.empty();
  }
  if (!any_keyed &&
      (!options_.by_partition || (options_.direct_write_byte_limit > 0 &&
                                  BatchBytes(batch) <= options_.direct_write_byte_limit))) {
    std::fill(channels.begin(), channels.end(), own);
    return Ok();
  }
  const auto writers = static_cast<uint64_t>(num_channels);
  row_hash_.assign(static_cast<size_t>(batch.num_rows()), 0);
  keyed_.assign(static_cast<size_t>(batch.num_rows()), false);
  for (const auto& [key, indices] : rows_of_key) {
    const uint64_t key_hash = Fnv1a(key);
    FLOE_ASSIGN_OR_RETURN(KeyPartitioner * partitioner, PartitionerFor(std::string(key), rows));
    if (!partitioner->equality_columns.empty()) {
      RecordBatch part = rows;
      if (rows_of_key.size() > 1) {
        FLOE_ASSIGN_OR_RETURN(part, TakeBatch(rows, indices));
      }
      FLOE_RETURN_IF_ERROR(HashRows(part, partitioner->equality_columns, key_hash_));
      for (size_t j = 0; j < indices.size(); ++j) {
        const auto row = static_cast<size_t>(indices[j]);
        row_hash_[row] = key_hash ^ (key_hash_[j] * 0x9E3779B97F4A7C15ULL);
        keyed_[row] = true;
      }
      continue;
    }
    if (!options_.by_partition) {
      for (int64_t row : indices) channels[static_cast<size_t>(row)] = own;
      continue;
    }
    if (partitioner->partitioner) {
      RecordBatch part = rows;
      if (rows_of_key.size() > 1) {
        FLOE_ASSIGN_OR_RETURN(part, TakeBatch(rows, indices));
      }
      FLOE_ASSIGN_OR_RETURN(RecordBatch typed, RecordBatch::Make(partitioner->batch_schema,
                                                                 part.columns(), part.num_rows()));
      FLOE_RETURN_IF_ERROR(partitioner->partitioner->Assign(typed, partition_of_row_));
      auto& hashes = partitioner->hash_of_partition;
      while (hashes.size() < partitioner->partitioner->num_partitions()) {
        const auto id = static_cast<uint32_t>(hashes.size());
        hashes.push_back(Fnv1a(manifest::PartitionKey(partitioner->partitioner->spec()->spec_id(),
                                                      partitioner->partitioner->Values(id)),
                               key_hash));
      }
    }
    for (size_t j = 0; j < indices.size(); ++j) {
      row_hash_[static_cast<size_t>(indices[j])] =
          partitioner->partitioner ? partitioner->hash_of_partition[partition_of_row_[j]]
                                   : key_hash;
    }
  }
  // Volumes are counted in row order, so that no key looks hot for being counted first.
  for (size_t row = 0; row < row_hash_.size(); ++row) {
    if (!options_.by_partition && !keyed_[row]) continue;
    const uint64_t hash = row_hash_[row];
    uint64_t channel = hash % writers;
    if (options_.autosharding && !keyed_[row]) {
      int64_t& volume = volume_[hash];
      ++volume;
      if (++total_ >= kDecayAt) {
        for (auto& [h, v] : volume_) v /= 2;
        total_ /= 2;
      }
      if (total_ >= kMinObserved) {
        // How many writers' worth of rows this key carries: its share times the writers.
        const double worth = static_cast<double>(volume) * static_cast<double>(writers) /
                             static_cast<double>(total_);
        const auto shards = static_cast<uint64_t>(
            std::clamp<double>(std::floor(worth), 1.0, static_cast<double>(writers)));
        if (shards > 1) channel = (hash + next_shard_[hash]++ % shards) % writers;
      }
    }
    channels[row] = static_cast<int32_t>(channel);
  }
  return Ok();
}

}  // namespace floe::stream
