#include "floe/table/update/snapshot_summary.h"

#include <fmt/core.h>

#include <charconv>
#include <optional>

namespace floe::table {
namespace {

void SetIfPositive(StringMap& out, std::string_view key, int64_t value) {
  if (value > 0) out[std::string(key)] = std::to_string(value);
}

std::optional<int64_t> ParseTotal(const StringMap& summary, std::string_view key) {
  auto it = summary.find(key);
  if (it == summary.end()) return std::nullopt;
  int64_t value = 0;
  const std::string& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

void SetTotal(StringMap& out, const StringMap* parent, std::string_view key, int64_t added,
              int64_t removed) {
  std::optional<int64_t> previous = parent ? ParseTotal(*parent, key) : std::optional<int64_t>(0);
  if (!previous) return;
  out[std::string(key)] = std::to_string(*previous + added - removed);
}

bool IsDeletionVector(const manifest::DataFile& file) {
  return file.content == manifest::FileContent::kPositionDeletes && file.file_format == "puffin";
}

}  // namespace

void SnapshotSummaryBuilder::Count(Counts& counts, const manifest::DataFile& file) {
  // A deletion vector is one blob of a Puffin file other vectors share: its size is the blob's.
  counts.files_size += IsDeletionVector(file)
                           ? file.content_size_in_bytes.value_or(file.file_size_in_bytes)
                           : file.file_size_in_bytes;
  switch (file.content) {
    case manifest::FileContent::kData:
      ++counts.data_files;
      counts.records += file.record_count;
      break;
    case manifest::FileContent::kPositionDeletes:
      ++counts.delete_files;
      if (IsDeletionVector(file)) {
        ++counts.dvs;
      } else {
        ++counts.position_delete_files;
      }
      counts.position_deletes += file.record_count;
      break;
    case manifest::FileContent::kEqualityDeletes:
      ++counts.delete_files;
      ++counts.equality_delete_files;
      counts.equality_deletes += file.record_count;
      break;
  }
}

void SnapshotSummaryBuilder::AddedFile(const manifest::DataFile& file) {
  Count(added_, file);
  partitions_.insert(PartitionKey(file.spec_id, file.partition));
}

void SnapshotSummaryBuilder::RemovedFile(const manifest::DataFile& file) {
  Count(removed_, file);
  partitions_.insert(PartitionKey(file.spec_id, file.partition));
}

StringMap SnapshotSummaryBuilder::Build(const StringMap* parent, StringMap out) const {
  SetIfPositive(out, "added-data-files", added_.data_files);
  SetIfPositive(out, "deleted-data-files", removed_.data_files);
  SetIfPositive(out, "added-delete-files", added_.delete_files);
  SetIfPositive(out, "added-equality-delete-files", added_.equality_delete_files);
  SetIfPositive(out, "added-position-delete-files", added_.position_delete_files);
  SetIfPositive(out, "added-dvs", added_.dvs);
  SetIfPositive(out, "removed-delete-files", removed_.delete_files);
  SetIfPositive(out, "removed-equality-delete-files", removed_.equality_delete_files);
  SetIfPositive(out, "removed-position-delete-files", removed_.position_delete_files);
  SetIfPositive(out, "removed-dvs", removed_.dvs);
  SetIfPositive(out, "added-records", added_.records);
  SetIfPositive(out, "deleted-records", removed_.records);
  SetIfPositive(out, "added-files-size", added_.files_size);
  SetIfPositive(out, "removed-files-size", removed_.files_size);
  SetIfPositive(out, "added-position-deletes", added_.position_deletes);
  SetIfPositive(out, "removed-position-deletes", removed_.position_deletes);
  SetIfPositive(out, "added-equality-deletes", added_.equality_deletes);
  SetIfPositive(out, "removed-equality-deletes", removed_.equality_deletes);
  out["changed-partition-count"] = std::to_string(partitions_.size());
  SetTotal(out, parent, "total-records", added_.records, removed_.records);
  SetTotal(out, parent, "total-files-size", added_.files_size, removed_.files_size);
  SetTotal(out, parent, "total-data-files", added_.data_files, removed_.data_files);
  SetTotal(out, parent, "total-delete-files", added_.delete_files, removed_.delete_files);
  SetTotal(out, parent, "total-position-deletes", added_.position_deletes,
           removed_.position_deletes);
  SetTotal(out, parent, "total-equality-deletes", added_.equality_deletes,
           removed_.equality_deletes);
  return out;
}

}  // namespace floe::table
